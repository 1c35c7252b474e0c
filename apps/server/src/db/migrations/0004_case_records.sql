CREATE TABLE "case_record_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"record_id" uuid NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"revision" integer NOT NULL,
	"change" text NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"reason" text,
	"data" jsonb NOT NULL,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"author_sub" uuid,
	"author_username" text NOT NULL,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"revision" integer DEFAULT 1 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"data" jsonb NOT NULL,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by_sub" uuid,
	"created_by_username" text NOT NULL,
	"created_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_sub" uuid,
	"updated_by_username" text NOT NULL,
	"updated_by_name" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "case_time_logs" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"technologist_sub" uuid,
	"technologist_username" text NOT NULL,
	"technologist_name" text,
	"activity" text NOT NULL,
	"mode" text NOT NULL,
	"video" boolean NOT NULL,
	"billable" boolean NOT NULL,
	"channels" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_patient_details" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "case_record_revisions" ADD CONSTRAINT "case_record_revisions_record_id_case_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."case_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_record_revisions" ADD CONSTRAINT "case_record_revisions_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_records" ADD CONSTRAINT "case_records_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_time_logs" ADD CONSTRAINT "case_time_logs_record_id_case_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."case_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_time_logs" ADD CONSTRAINT "case_time_logs_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_record_revisions_record_revision_idx" ON "case_record_revisions" USING btree ("record_id","revision");--> statement-breakpoint
CREATE INDEX "case_records_case_kind_idx" ON "case_records" USING btree ("case_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "case_time_logs_case_idx" ON "case_time_logs" USING btree ("case_id","started_at");--> statement-breakpoint
CREATE INDEX "case_time_logs_technologist_idx" ON "case_time_logs" USING btree ("technologist_username","started_at");--> statement-breakpoint
CREATE INDEX "case_time_logs_running_idx" ON "case_time_logs" USING btree ("technologist_username") WHERE "case_time_logs"."ended_at" is null and not "case_time_logs"."deleted";--> statement-breakpoint
CREATE INDEX "case_time_logs_billable_idx" ON "case_time_logs" USING btree ("started_at") WHERE "case_time_logs"."billable" and not "case_time_logs"."deleted";