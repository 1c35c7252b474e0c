CREATE TABLE "billing_document_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "billing_document_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "client_billing_profiles" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text,
	"po_number" text,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"tax_rate_percent" numeric(7, 4),
	"show_patient_names" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_username" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"case_id" uuid NOT NULL,
	"case_number" text NOT NULL,
	"patient_name" text,
	"service_from" date NOT NULL,
	"service_to" date NOT NULL,
	"hours" numeric(12, 2) NOT NULL,
	"hourly_rate" numeric(12, 2) NOT NULL,
	"amount" numeric(18, 2) NOT NULL,
	"cpt_summary" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"client_id" uuid NOT NULL,
	"statement_id" uuid,
	"corrects_invoice_id" uuid,
	"reason" text,
	"month" text NOT NULL,
	"issue_date" date NOT NULL,
	"due_date" date NOT NULL,
	"payment_terms_days" integer NOT NULL,
	"bill_to_name" text NOT NULL,
	"bill_to_address" jsonb NOT NULL,
	"po_number" text,
	"currency" text NOT NULL,
	"hourly_rate" numeric(12, 2) NOT NULL,
	"subtotal" numeric(18, 2) NOT NULL,
	"tax_rate_percent" numeric(7, 4),
	"tax_amount" numeric(18, 2) NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"shows_patient_names" boolean NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_sha256" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_by_sub" uuid,
	"issued_by_username" text NOT NULL,
	"issued_by_name" text
);
--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD CONSTRAINT "client_billing_profiles_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_statement_id_billing_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."billing_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_invoice_position_idx" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_year_sequence_idx" ON "invoices" USING btree ("series","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_statement_idx" ON "invoices" USING btree ("statement_id") WHERE "invoices"."kind" = 'invoice';--> statement-breakpoint
CREATE INDEX "invoices_client_issue_idx" ON "invoices" USING btree ("client_id","issue_date");--> statement-breakpoint
CREATE INDEX "invoices_issue_idx" ON "invoices" USING btree ("issue_date","number");--> statement-breakpoint
CREATE INDEX "invoices_corrects_idx" ON "invoices" USING btree ("corrects_invoice_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_corrects_invoice_id_invoices_id_fk" FOREIGN KEY ("corrects_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE FUNCTION "invoices_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'issued invoices are never edited: % on % is refused', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END
$$;--> statement-breakpoint
CREATE TRIGGER "invoices_append_only" BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "invoices_append_only"();--> statement-breakpoint
CREATE TRIGGER "invoice_lines_append_only" BEFORE UPDATE OR DELETE ON "invoice_lines"
  FOR EACH ROW EXECUTE FUNCTION "invoices_append_only"();
