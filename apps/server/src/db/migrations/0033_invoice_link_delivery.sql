ALTER TABLE "invoice_sendings" ADD COLUMN "delivery" text DEFAULT 'attachment' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_sendings" ADD COLUMN "link_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_sendings" ADD COLUMN "link_opened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_billing_profiles" ADD COLUMN "invoice_delivery" text DEFAULT 'attachment' NOT NULL;