CREATE TABLE "billing_export_accounts" (
	"company" text PRIMARY KEY DEFAULT 'company' NOT NULL,
	"service_item" text NOT NULL,
	"income_account" text NOT NULL,
	"credit_notes_account" text NOT NULL,
	"receivables_account" text NOT NULL,
	"undeposited_funds_account" text NOT NULL,
	"tax_account" text NOT NULL,
	"tax_type" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_username" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"format" text NOT NULL,
	"documents" jsonb NOT NULL,
	"changes" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_username" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_sendings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"trigger" text NOT NULL,
	"reminder_days" integer,
	"recipients" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"attachment_sha256" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by_username" text NOT NULL,
	"requested_by_name" text,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD COLUMN "billing_contact_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD COLUMN "send_on_issue" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD COLUMN "reminders_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD COLUMN "reminder_days" jsonb DEFAULT '[7,30]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_sendings" ADD CONSTRAINT "invoice_sendings_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_exports_period_idx" ON "billing_exports" USING btree ("period_from","period_to","created_at");--> statement-breakpoint
CREATE INDEX "invoice_sendings_invoice_idx" ON "invoice_sendings" USING btree ("invoice_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_sendings_reminder_idx" ON "invoice_sendings" USING btree ("invoice_id","reminder_days") WHERE "invoice_sendings"."purpose" = 'reminder';