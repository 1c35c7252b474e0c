CREATE TABLE "billing_statement_lines" (
	"statement_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"case_id" uuid NOT NULL,
	"case_number" text NOT NULL,
	"patient_name" text NOT NULL,
	"stage" text NOT NULL,
	"hours" numeric(12, 2) NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"log_count" integer NOT NULL,
	"cpt" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"month" text NOT NULL,
	"number" integer NOT NULL,
	"currency" text NOT NULL,
	"client_name" text NOT NULL,
	"client_timezone" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"hourly_rate" numeric(12, 2) NOT NULL,
	"rate_from_month" text NOT NULL,
	"total_hours" numeric(14, 2) NOT NULL,
	"total_amount" numeric(18, 2) NOT NULL,
	"case_count" integer NOT NULL,
	"rounding_note" text NOT NULL,
	"fingerprint" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by_sub" uuid,
	"issued_by_username" text NOT NULL,
	"issued_by_name" text
);
--> statement-breakpoint
ALTER TABLE "billing_statement_lines" ADD CONSTRAINT "billing_statement_lines_statement_id_billing_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."billing_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_statement_lines" ADD CONSTRAINT "billing_statement_lines_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_statements" ADD CONSTRAINT "billing_statements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_statement_lines_statement_position_idx" ON "billing_statement_lines" USING btree ("statement_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_statements_client_number_idx" ON "billing_statements" USING btree ("client_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_statements_client_month_idx" ON "billing_statements" USING btree ("client_id","month");
--> statement-breakpoint
CREATE FUNCTION "billing_statements_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'issued statements are append-only: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END
$$;--> statement-breakpoint
CREATE TRIGGER "billing_statements_append_only" BEFORE UPDATE OR DELETE ON "billing_statements"
  FOR EACH ROW EXECUTE FUNCTION "billing_statements_append_only"();--> statement-breakpoint
CREATE TRIGGER "billing_statement_lines_append_only" BEFORE UPDATE OR DELETE ON "billing_statement_lines"
  FOR EACH ROW EXECUTE FUNCTION "billing_statements_append_only"();
