CREATE TABLE "case_orders" (
	"case_id" uuid PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"source" text NOT NULL,
	"placer_order_number" text NOT NULL,
	"filler_order_number" text NOT NULL,
	"visit_number" text,
	"ordering_provider" text,
	"mrn_assigning_authority" text,
	"reason" text,
	"location" text,
	"discharged_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hl7_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"direction" text NOT NULL,
	"client_id" uuid,
	"message_type" text NOT NULL,
	"control_id" text NOT NULL,
	"sending_application" text NOT NULL,
	"sending_facility" text NOT NULL,
	"patient_mrn" text,
	"order_number" text,
	"case_id" uuid,
	"report_version_id" uuid,
	"text" text NOT NULL,
	"status" text NOT NULL,
	"ack_code" text,
	"ack" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"replay_of" uuid,
	"peer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "interface_profile_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"sending_application" text NOT NULL,
	"sending_facility" text NOT NULL,
	"mrn_assigning_authority" text NOT NULL,
	"visit_number_source" text NOT NULL,
	"receiving_application" text NOT NULL,
	"receiving_facility" text NOT NULL,
	"destination" jsonb,
	"result_style" text NOT NULL,
	"hl7_version" text NOT NULL,
	"order_status_updates" boolean NOT NULL,
	"change_note" text,
	"author_sub" uuid,
	"author_username" text NOT NULL,
	"author_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "case_orders" ADD CONSTRAINT "case_orders_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_orders" ADD CONSTRAINT "case_orders_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_messages" ADD CONSTRAINT "hl7_messages_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hl7_messages" ADD CONSTRAINT "hl7_messages_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interface_profile_revisions" ADD CONSTRAINT "interface_profile_revisions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_orders_client_placer_idx" ON "case_orders" USING btree ("client_id","placer_order_number");--> statement-breakpoint
CREATE INDEX "case_orders_visit_idx" ON "case_orders" USING btree ("client_id","visit_number");--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_messages_inbound_control_idx" ON "hl7_messages" USING btree ("sending_application","sending_facility","control_id") WHERE "hl7_messages"."direction" = 'inbound' and "hl7_messages"."replay_of" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "hl7_messages_outbound_version_idx" ON "hl7_messages" USING btree ("report_version_id","message_type") WHERE "hl7_messages"."direction" = 'outbound' and "hl7_messages"."report_version_id" is not null and "hl7_messages"."replay_of" is null;--> statement-breakpoint
CREATE INDEX "hl7_messages_created_idx" ON "hl7_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "hl7_messages_client_idx" ON "hl7_messages" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "hl7_messages_case_idx" ON "hl7_messages" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "hl7_messages_mrn_idx" ON "hl7_messages" USING btree ("patient_mrn");--> statement-breakpoint
CREATE INDEX "hl7_messages_order_idx" ON "hl7_messages" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "interface_profile_revisions_client_revision_idx" ON "interface_profile_revisions" USING btree ("client_id","revision");--> statement-breakpoint
CREATE INDEX "interface_profile_revisions_identity_idx" ON "interface_profile_revisions" USING btree (lower("sending_application"),lower("sending_facility"));