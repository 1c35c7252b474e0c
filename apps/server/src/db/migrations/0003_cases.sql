CREATE SEQUENCE "public"."case_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "case_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"action" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"actor_sub" uuid,
	"actor_username" text NOT NULL,
	"actor_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"technologist_sub" uuid NOT NULL,
	"technologist_username" text NOT NULL,
	"technologist_name" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"assigned_by_sub" uuid,
	"assigned_by_username" text NOT NULL,
	"assigned_by_name" text
);
--> statement-breakpoint
CREATE TABLE "case_patient_details" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"mrn" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" text,
	"sex" text DEFAULT 'unknown' NOT NULL,
	"location_unit" text,
	"location_room" text,
	"location_bed" text,
	"referring_physician" text,
	"indication" text,
	"medications" text,
	"notes" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"author_sub" uuid,
	"author_username" text NOT NULL,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_transition_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transition_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"action" text NOT NULL,
	"comment" text,
	"actor_sub" uuid,
	"actor_username" text NOT NULL,
	"actor_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_transitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"rule_id" text NOT NULL,
	"from_stage" text NOT NULL,
	"to_stage" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"requested_by_sub" uuid,
	"requested_by_username" text NOT NULL,
	"requested_by_name" text,
	"decided_by_sub" uuid,
	"decided_by_username" text,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "protocol_revision_id" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "recording_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "recording_ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "reviewer_sub" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "reviewer_username" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "reviewer_name" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "acknowledged_by_sub" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "acknowledged_by_username" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "acknowledged_by_name" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "patient_mrn" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "patient_first_name" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "patient_last_name" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "created_by_sub" uuid;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "created_by_username" text DEFAULT 'system' NOT NULL;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "created_by_name" text;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_actions" ADD CONSTRAINT "case_actions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_assignments" ADD CONSTRAINT "case_assignments_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_patient_details" ADD CONSTRAINT "case_patient_details_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_transition_actions" ADD CONSTRAINT "case_transition_actions_transition_id_case_transitions_id_fk" FOREIGN KEY ("transition_id") REFERENCES "public"."case_transitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_transition_actions" ADD CONSTRAINT "case_transition_actions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_transitions" ADD CONSTRAINT "case_transitions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_actions_case_idx" ON "case_actions" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "case_assignments_case_idx" ON "case_assignments" USING btree ("case_id","started_at");--> statement-breakpoint
CREATE INDEX "case_assignments_active_idx" ON "case_assignments" USING btree ("technologist_sub","started_at") WHERE "case_assignments"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "case_assignments_active_unique_idx" ON "case_assignments" USING btree ("case_id","technologist_sub") WHERE "case_assignments"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "case_patient_details_case_revision_idx" ON "case_patient_details" USING btree ("case_id","revision");--> statement-breakpoint
CREATE INDEX "case_transition_actions_case_idx" ON "case_transition_actions" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE INDEX "case_transitions_case_idx" ON "case_transitions" USING btree ("case_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "case_transitions_pending_idx" ON "case_transitions" USING btree ("case_id") WHERE "case_transitions"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_protocol_revision_id_protocol_revisions_id_fk" FOREIGN KEY ("protocol_revision_id") REFERENCES "public"."protocol_revisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_queue_idx" ON "cases" USING btree ("stage","priority" DESC NULLS LAST,"created_at","id") WHERE "cases"."archived_at" is null;--> statement-breakpoint
CREATE INDEX "cases_reviewer_idx" ON "cases" USING btree ("reviewer_sub");--> statement-breakpoint
CREATE INDEX "cases_case_number_prefix_idx" ON "cases" USING btree (lower("case_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cases_patient_mrn_idx" ON "cases" USING btree (lower("patient_mrn") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cases_patient_last_name_idx" ON "cases" USING btree (lower("patient_last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cases_patient_first_name_idx" ON "cases" USING btree (lower("patient_first_name") text_pattern_ops);--> statement-breakpoint
-- Cases numbered before the sequence existed (seeded data) keep their numbers; new ones continue after them.
SELECT setval('case_number_seq', coalesce((SELECT max(substring("case_number" from '([0-9]+)$')::bigint) FROM "cases"), 0) + 1, false);
