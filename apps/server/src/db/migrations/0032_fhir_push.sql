CREATE TABLE "fhir_push_settings" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"base_url" text NOT NULL,
	"token_url" text,
	"system_client_id" text NOT NULL,
	"scopes" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_by_sub" uuid,
	"updated_by_username" text NOT NULL,
	"updated_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vigil_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"alg" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk" jsonb NOT NULL,
	"active" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "fhir_push_settings" ADD CONSTRAINT "fhir_push_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vigil_signing_keys_one_active_idx" ON "vigil_signing_keys" USING btree ("active") WHERE "vigil_signing_keys"."active";