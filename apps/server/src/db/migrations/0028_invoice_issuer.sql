ALTER TABLE "invoices" ADD COLUMN "issuer_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "issuer_details" text DEFAULT '' NOT NULL;