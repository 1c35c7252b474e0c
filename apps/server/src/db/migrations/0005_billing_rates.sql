CREATE TABLE "billing_rate_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"month" text NOT NULL,
	"hourly_rate" numeric(12, 2) NOT NULL,
	"previous_rate" numeric(12, 2),
	"version" integer NOT NULL,
	"invoiced" boolean NOT NULL,
	"reason" text,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_by_sub" uuid,
	"changed_by_username" text NOT NULL,
	"changed_by_name" text
);
--> statement-breakpoint
CREATE TABLE "billing_rates" (
	"client_id" uuid NOT NULL,
	"month" text NOT NULL,
	"hourly_rate" numeric(12, 2) NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"set_by_sub" uuid,
	"set_by_username" text NOT NULL,
	"set_by_name" text,
	"reason" text
);
--> statement-breakpoint
ALTER TABLE "billing_rate_changes" ADD CONSTRAINT "billing_rate_changes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_rates" ADD CONSTRAINT "billing_rates_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_rate_changes_client_month_idx" ON "billing_rate_changes" USING btree ("client_id","month","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_rates_client_month_idx" ON "billing_rates" USING btree ("client_id","month");