CREATE TABLE "billable_second_carries" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"counted_alone" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billable_seconds_daily" (
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"day" date NOT NULL,
	"seconds" integer NOT NULL,
	"log_count" integer NOT NULL,
	"continued_count" integer NOT NULL,
	CONSTRAINT "billable_seconds_daily_case_id_day_pk" PRIMARY KEY("case_id","day")
);
--> statement-breakpoint
ALTER TABLE "billable_second_carries" ADD CONSTRAINT "billable_second_carries_record_id_case_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."case_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_second_carries" ADD CONSTRAINT "billable_second_carries_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_second_carries" ADD CONSTRAINT "billable_second_carries_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_seconds_daily" ADD CONSTRAINT "billable_seconds_daily_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_seconds_daily" ADD CONSTRAINT "billable_seconds_daily_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billable_second_carries_client_idx" ON "billable_second_carries" USING btree ("client_id","last_day","first_day","case_id","counted_alone");--> statement-breakpoint
CREATE INDEX "billable_seconds_daily_client_idx" ON "billable_seconds_daily" USING btree ("client_id","day","case_id","seconds","log_count","continued_count");--> statement-breakpoint
-- The figures of the logs already written (db/billable-figures.ts keeps them from here on; same split).
INSERT INTO "billable_seconds_daily" ("case_id", "client_id", "day", "seconds", "log_count", "continued_count")
SELECT case_id, client_id, day, sum(seconds)::int, count(*)::int, count(*) FILTER (WHERE continued)::int
FROM (
	SELECT p.*, coalesce(p.seconds >= 1 AND lag(p.seconds) OVER (PARTITION BY p.record_id ORDER BY p.day) >= 1, false) AS continued
	FROM (
		SELECT l.record_id, l.case_id, c.client_id, d.day,
			floor(extract(epoch FROM least(l.ended_at, (d.day + 1)::timestamp AT TIME ZONE k.timezone)
				- greatest(l.started_at, d.day::timestamp AT TIME ZONE k.timezone)))::int AS seconds
		FROM case_time_logs l JOIN cases c ON c.id = l.case_id JOIN clients k ON k.id = c.client_id
		CROSS JOIN LATERAL (
			SELECT g::date AS day FROM generate_series(
				(l.started_at AT TIME ZONE k.timezone)::date::timestamp,
				((l.ended_at - interval '1 microsecond') AT TIME ZONE k.timezone)::date::timestamp,
				interval '1 day') g) d
		WHERE l.billable AND NOT l.deleted AND l.ended_at IS NOT NULL
	) p
) pieces
WHERE seconds >= 1
GROUP BY case_id, client_id, day;--> statement-breakpoint
INSERT INTO "billable_second_carries" ("record_id", "case_id", "client_id", "first_day", "last_day", "counted_alone")
SELECT l.record_id, l.case_id, c.client_id, min(d.day), max(d.day),
	sum(floor(extract(epoch FROM least(l.ended_at, (d.day + 1)::timestamp AT TIME ZONE k.timezone)
		- greatest(l.started_at, d.day::timestamp AT TIME ZONE k.timezone)))) = 0
FROM case_time_logs l JOIN cases c ON c.id = l.case_id JOIN clients k ON k.id = c.client_id
CROSS JOIN LATERAL (
	SELECT g::date AS day FROM generate_series(
		(l.started_at AT TIME ZONE k.timezone)::date::timestamp,
		((l.ended_at - interval '1 microsecond') AT TIME ZONE k.timezone)::date::timestamp,
		interval '1 day') g) d
WHERE l.billable AND NOT l.deleted AND l.ended_at IS NOT NULL
GROUP BY l.record_id, l.case_id, c.client_id, l.started_at, l.ended_at
HAVING floor(extract(epoch FROM l.ended_at - l.started_at)) > sum(floor(extract(epoch FROM least(l.ended_at, (d.day + 1)::timestamp AT TIME ZONE k.timezone)
		- greatest(l.started_at, d.day::timestamp AT TIME ZONE k.timezone))));
