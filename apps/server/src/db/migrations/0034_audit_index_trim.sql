DROP INDEX "audit_events_actor_idx";--> statement-breakpoint
DROP INDEX "audit_events_repeat_key_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_repeat_key_idx" ON "audit_events" USING btree ("repeat_key") WHERE "audit_events"."repeat_key" is not null;