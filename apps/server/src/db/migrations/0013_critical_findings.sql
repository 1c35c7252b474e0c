CREATE TABLE "critical_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"event_record_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"onset_at" timestamp with time zone NOT NULL,
	"description" text NOT NULL,
	"raised_at" timestamp with time zone NOT NULL,
	"raised_by_sub" uuid,
	"raised_by_username" text NOT NULL,
	"raised_by_name" text,
	"protocol_revision_id" uuid,
	"window_minutes" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"first_notified_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_name" text,
	"acknowledged_via" text,
	"acknowledged_recipient_id" uuid,
	"read_back_confirmed" boolean DEFAULT false NOT NULL,
	"acknowledgement_note" text DEFAULT '' NOT NULL,
	"recorded_by_sub" uuid,
	"recorded_by_username" text,
	"recorded_by_name" text,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"cancelled_by_sub" uuid,
	"cancelled_by_username" text,
	"cancelled_by_name" text,
	"escalations" integer DEFAULT 0 NOT NULL,
	"next_escalation_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finding_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_id" uuid NOT NULL,
	"finding_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"destination" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finding_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"finding_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"contact_id" uuid,
	"user_sub" uuid,
	"username" text,
	"level" integer NOT NULL,
	"notified_at" timestamp with time zone NOT NULL,
	"link_expires_at" timestamp with time zone NOT NULL,
	"link_used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_findings" ADD CONSTRAINT "critical_findings_event_record_id_case_records_id_fk" FOREIGN KEY ("event_record_id") REFERENCES "public"."case_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_deliveries" ADD CONSTRAINT "finding_deliveries_recipient_id_finding_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."finding_recipients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_deliveries" ADD CONSTRAINT "finding_deliveries_finding_id_critical_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."critical_findings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finding_recipients" ADD CONSTRAINT "finding_recipients_finding_id_critical_findings_id_fk" FOREIGN KEY ("finding_id") REFERENCES "public"."critical_findings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "critical_findings_case_idx" ON "critical_findings" USING btree ("case_id","raised_at");--> statement-breakpoint
CREATE INDEX "critical_findings_client_idx" ON "critical_findings" USING btree ("client_id","raised_at");--> statement-breakpoint
CREATE INDEX "critical_findings_escalation_idx" ON "critical_findings" USING btree ("next_escalation_at") WHERE "critical_findings"."status" = 'open';--> statement-breakpoint
CREATE INDEX "finding_deliveries_finding_idx" ON "finding_deliveries" USING btree ("finding_id");--> statement-breakpoint
CREATE INDEX "finding_deliveries_due_idx" ON "finding_deliveries" USING btree ("next_attempt_at") WHERE "finding_deliveries"."status" in ('pending', 'sending');--> statement-breakpoint
CREATE INDEX "finding_recipients_finding_idx" ON "finding_recipients" USING btree ("finding_id");--> statement-breakpoint
CREATE UNIQUE INDEX "finding_recipients_once_idx" ON "finding_recipients" USING btree ("finding_id","level","kind",coalesce("contact_id"::text, "username"));