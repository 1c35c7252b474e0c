CREATE TABLE "client_open_case_counts" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"open_cases" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_open_case_counts" ADD CONSTRAINT "client_open_case_counts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Kept by the database itself, so every writer of `cases` (the services, an import, the seed) keeps it. A move
-- between two open stages of the same client touches nothing; a client's first open case inserts its row.
CREATE FUNCTION "keep_client_open_case_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was_open boolean := TG_OP <> 'INSERT' AND OLD."stage" <> 'closed' AND OLD."archived_at" IS NULL;
  is_open boolean := TG_OP <> 'DELETE' AND NEW."stage" <> 'closed' AND NEW."archived_at" IS NULL;
BEGIN
  IF was_open AND is_open AND OLD."client_id" = NEW."client_id" THEN
    RETURN NULL;
  END IF;
  IF was_open THEN
    INSERT INTO "client_open_case_counts" AS k ("client_id", "open_cases") VALUES (OLD."client_id", -1)
      ON CONFLICT ("client_id") DO UPDATE SET "open_cases" = k."open_cases" - 1;
  END IF;
  IF is_open THEN
    INSERT INTO "client_open_case_counts" AS k ("client_id", "open_cases") VALUES (NEW."client_id", 1)
      ON CONFLICT ("client_id") DO UPDATE SET "open_cases" = k."open_cases" + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "cases_keep_client_open_case_counts" AFTER INSERT OR DELETE OR UPDATE OF "stage", "archived_at", "client_id"
  ON "cases" FOR EACH ROW EXECUTE FUNCTION "keep_client_open_case_counts"();--> statement-breakpoint
INSERT INTO "client_open_case_counts" ("client_id", "open_cases")
SELECT "client_id", count(*)::int FROM "cases" WHERE "stage" <> 'closed' AND "archived_at" IS NULL GROUP BY "client_id";
