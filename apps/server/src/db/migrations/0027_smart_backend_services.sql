CREATE TABLE "smart_access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"smart_client_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "smart_assertion_jtis" (
	"system_client_id" text NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "smart_assertion_jtis_pkey" PRIMARY KEY("system_client_id","jti")
);
--> statement-breakpoint
CREATE TABLE "smart_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"system_client_id" text NOT NULL,
	"name" text NOT NULL,
	"jwks_url" text,
	"jwks" jsonb,
	"scopes" text[] NOT NULL,
	"enabled" boolean NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"fetched_jwks" jsonb,
	"fetched_at" timestamp with time zone,
	"updated_by_sub" uuid,
	"updated_by_username" text NOT NULL,
	"updated_by_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "smart_clients_system_client_id_key" UNIQUE("system_client_id"),
	CONSTRAINT "smart_clients_one_key_source" CHECK (("smart_clients"."jwks_url" is null) <> ("smart_clients"."jwks" is null))
);
--> statement-breakpoint
ALTER TABLE "smart_access_tokens" ADD CONSTRAINT "smart_access_tokens_smart_client_id_smart_clients_id_fk" FOREIGN KEY ("smart_client_id") REFERENCES "public"."smart_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smart_clients" ADD CONSTRAINT "smart_clients_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "smart_access_tokens_client_idx" ON "smart_access_tokens" USING btree ("smart_client_id");--> statement-breakpoint
CREATE INDEX "smart_access_tokens_expires_idx" ON "smart_access_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "smart_assertion_jtis_expires_idx" ON "smart_assertion_jtis" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "smart_clients_client_idx" ON "smart_clients" USING btree ("client_id");