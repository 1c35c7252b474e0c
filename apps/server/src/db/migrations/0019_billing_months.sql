-- Filled from the kept days and carries (the same sums db/billable-figures.ts keeps from here on): the days are
-- already the client's calendar days, so no time zone is involved.
CREATE TABLE "billable_seconds_monthly" (
	"case_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"month" date NOT NULL,
	"seconds" integer NOT NULL,
	"log_count" integer NOT NULL,
	CONSTRAINT "billable_seconds_monthly_case_id_month_pk" PRIMARY KEY("case_id","month")
);
--> statement-breakpoint
ALTER TABLE "billable_seconds_monthly" ADD CONSTRAINT "billable_seconds_monthly_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billable_seconds_monthly" ADD CONSTRAINT "billable_seconds_monthly_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billable_seconds_monthly_client_idx" ON "billable_seconds_monthly" USING btree ("client_id","month","case_id","seconds","log_count");--> statement-breakpoint
CREATE INDEX "cases_archived_idx" ON "cases" USING btree ("id") WHERE "cases"."archived_at" is not null;--> statement-breakpoint
INSERT INTO "billable_seconds_monthly" ("case_id", "client_id", "month", "seconds", "log_count")
SELECT "case_id", "client_id", "month", sum("seconds")::int, sum("logs")::int FROM (
  SELECT "case_id", "client_id", ("day" - extract(day from "day")::int + 1) AS "month", "seconds",
      "log_count" - CASE WHEN extract(day from "day") > 1 THEN "continued_count" ELSE 0 END AS "logs"
    FROM "billable_seconds_daily"
  UNION ALL
  SELECT "case_id", "client_id", ("first_day" - extract(day from "first_day")::int + 1), 1,
      CASE WHEN "counted_alone" THEN 1 ELSE 0 END
    FROM "billable_second_carries"
    WHERE ("first_day" - extract(day from "first_day")::int + 1) = ("last_day" - extract(day from "last_day")::int + 1)
) "parts"
GROUP BY "case_id", "client_id", "month";
