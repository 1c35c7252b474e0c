ALTER TABLE "users" ADD COLUMN "family_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "given_names" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "credentials" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "board_certifications" text[] DEFAULT '{}'::text[] NOT NULL;