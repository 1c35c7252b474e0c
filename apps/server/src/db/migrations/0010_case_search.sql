-- The case search's trigram index needs pg_trgm (a trusted extension since PostgreSQL 13: the database owner may
-- create it; PGlite loads its bundle in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "cases_case_number_prefix_idx";--> statement-breakpoint
DROP INDEX "cases_patient_mrn_idx";--> statement-breakpoint
DROP INDEX "cases_patient_last_name_idx";--> statement-breakpoint
DROP INDEX "cases_patient_first_name_idx";--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "search_text" text GENERATED ALWAYS AS (' ' || regexp_replace(lower(replace(replace(replace(replace(replace(replace(replace(replace(translate(regexp_replace(normalize(coalesce("case_number", '') || ' ' || coalesce("patient_mrn", '') || ' ' || coalesce("patient_first_name", '') || ' ' || coalesce("patient_last_name", ''), NFD), '[\u0300-\u036f]', '', 'g'), 'łŁøØđĐħĦŧŦıðÐŀĿ', 'lLoOdDhHtTidDlL'), 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'), 'þ', 'th'), 'Þ', 'th')), '[^[:alnum:]]+', ' ', 'g') || ' ') STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "cases_search_idx" ON "cases" USING gin ("search_text" gin_trgm_ops);