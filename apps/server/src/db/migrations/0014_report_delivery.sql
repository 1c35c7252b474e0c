CREATE TABLE "report_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"contact_id" uuid,
	"recipient_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"link_expires_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"sent_by_sub" uuid,
	"sent_by_username" text,
	"sent_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_disclosures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"patient_mrn" text NOT NULL,
	"patient_name" text NOT NULL,
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"report_id" uuid,
	"delivery_id" uuid,
	"recipient" text NOT NULL,
	"by_sub" uuid,
	"by_username" text,
	"by_name" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "report_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"interpretation_id" uuid NOT NULL,
	"record_revision" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"patient_mrn" text NOT NULL,
	"patient_name" text NOT NULL,
	"title" text NOT NULL,
	"inputs" jsonb NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_sha256" text NOT NULL,
	"pdf_bytes" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "protocol_revisions" ADD COLUMN "report_recipients" jsonb DEFAULT '{"contactIds":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD CONSTRAINT "report_deliveries_report_id_report_versions_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."report_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_disclosures" ADD CONSTRAINT "report_disclosures_report_id_report_versions_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."report_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_interpretation_id_case_records_id_fk" FOREIGN KEY ("interpretation_id") REFERENCES "public"."case_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_deliveries_report_idx" ON "report_deliveries" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "report_deliveries_pending_idx" ON "report_deliveries" USING btree ("created_at") WHERE "report_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "report_disclosures_patient_idx" ON "report_disclosures" USING btree ("patient_mrn","at");--> statement-breakpoint
CREATE UNIQUE INDEX "report_versions_interpretation_version_idx" ON "report_versions" USING btree ("interpretation_id","version");--> statement-breakpoint
CREATE INDEX "report_versions_case_idx" ON "report_versions" USING btree ("case_id","issued_at");--> statement-breakpoint
CREATE FUNCTION "report_rows_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'signed reports and their disclosures are append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_versions_append_only" BEFORE UPDATE OR DELETE ON "report_versions"
  FOR EACH ROW EXECUTE FUNCTION "report_rows_append_only"();--> statement-breakpoint
CREATE TRIGGER "report_disclosures_append_only" BEFORE UPDATE OR DELETE ON "report_disclosures"
  FOR EACH ROW EXECUTE FUNCTION "report_rows_append_only"();
