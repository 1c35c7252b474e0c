CREATE INDEX "audit_events_actor_username_idx" ON "audit_events" USING btree (lower("actor_username"),"at");--> statement-breakpoint
CREATE INDEX "audit_events_details_case_idx" ON "audit_events" USING btree (("details"->>'caseId')) WHERE "audit_events"."details"->>'caseId' is not null;--> statement-breakpoint
CREATE INDEX "audit_events_details_client_idx" ON "audit_events" USING btree (("details"->>'clientId')) WHERE "audit_events"."details"->>'clientId' is not null;--> statement-breakpoint
CREATE INDEX "case_time_logs_duration_idx" ON "case_time_logs" USING btree (("ended_at" - "started_at")) WHERE "case_time_logs"."ended_at" is not null;--> statement-breakpoint
CREATE INDEX "case_time_logs_running_start_idx" ON "case_time_logs" USING btree ("started_at") WHERE "case_time_logs"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "cases_open_client_idx" ON "cases" USING btree ("client_id") WHERE "cases"."stage" <> 'closed' and "cases"."archived_at" is null;