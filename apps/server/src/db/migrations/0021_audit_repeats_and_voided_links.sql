ALTER TABLE "audit_events" ADD COLUMN "repeat_key" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "repeat_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD COLUMN "voided_by_sub" uuid;--> statement-breakpoint
ALTER TABLE "report_deliveries" ADD COLUMN "voided_by_username" text;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_repeat_key_idx" ON "audit_events" USING btree ("repeat_key");--> statement-breakpoint
CREATE INDEX "report_deliveries_contact_idx" ON "report_deliveries" USING btree ("contact_id") WHERE "report_deliveries"."opened_at" is null and "report_deliveries"."voided_at" is null;