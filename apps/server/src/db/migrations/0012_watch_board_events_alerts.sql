CREATE TABLE "case_clocks" (
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"client_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"priority" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"window_minutes" integer NOT NULL,
	"owner_sub" uuid,
	"owner_username" text,
	"owner_name" text,
	"is_next" boolean NOT NULL,
	CONSTRAINT "case_clocks_case_id_kind_pk" PRIMARY KEY("case_id","kind")
);
--> statement-breakpoint
CREATE TABLE "case_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"change" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clock_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_username" text NOT NULL,
	"case_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"emailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"username" text PRIMARY KEY NOT NULL,
	"email_clock_alerts" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_clocks" ADD CONSTRAINT "case_clocks_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clock_alerts" ADD CONSTRAINT "clock_alerts_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_clocks_next_due_idx" ON "case_clocks" USING btree ("due_at") WHERE "case_clocks"."is_next";--> statement-breakpoint
CREATE INDEX "case_clocks_kind_due_idx" ON "case_clocks" USING btree ("kind","due_at");--> statement-breakpoint
CREATE INDEX "case_clocks_owner_due_idx" ON "case_clocks" USING btree ("owner_username","due_at");--> statement-breakpoint
CREATE INDEX "case_clocks_client_due_idx" ON "case_clocks" USING btree ("client_id","due_at");--> statement-breakpoint
CREATE INDEX "case_events_at_idx" ON "case_events" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "clock_alerts_once_idx" ON "clock_alerts" USING btree ("recipient_username","case_id","kind","due_at","state");--> statement-breakpoint
CREATE INDEX "clock_alerts_recipient_idx" ON "clock_alerts" USING btree ("recipient_username","created_at");