-- LGPD self-service (issue 26, decision 0060): the consent record (append-only, purged only past its
-- retention), account deletions (the account closed at once, the rest finished by whoever holds the
-- lease) and the daily retention runs (one per day, whichever process inserts the day first).
CREATE TABLE "consent_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"document" varchar(20) NOT NULL,
	"version" varchar(16) NOT NULL,
	"granted" boolean NOT NULL,
	"source" varchar(20) NOT NULL,
	"categories" jsonb,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consent_records_document_check" CHECK ("consent_records"."document" in ('terms', 'privacy', 'cookies', 'marketing')),
	CONSTRAINT "consent_records_version_check" CHECK ("consent_records"."version" ~ '^[0-9]{1,3}(\.[0-9]{1,3}){0,2}$'),
	CONSTRAINT "consent_records_source_check" CHECK ("consent_records"."source" in ('signup', 'settings', 'cookie-banner', 'deletion')),
	CONSTRAINT "consent_records_categories_check" CHECK (("consent_records"."document" = 'cookies') = ("consent_records"."categories" is not null) and ("consent_records"."categories" is null or jsonb_typeof("consent_records"."categories") = 'object'))
);
--> statement-breakpoint
CREATE INDEX "consent_records_user_idx" ON "consent_records" USING btree ("user_id", "recorded_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "consent_records_marketing_idx" ON "consent_records" USING btree ("user_id", "recorded_at" DESC, "id" DESC) WHERE "consent_records"."document" = 'marketing';
--> statement-breakpoint
-- Never changed: refuse_change() of migration 0023, as for the audit log.
CREATE TRIGGER "consent_records_append_only" BEFORE UPDATE ON "consent_records" FOR EACH ROW EXECUTE FUNCTION "refuse_change"();
--> statement-breakpoint
-- Removed only past its retention, whoever asks: marketing records 2 years old, any record 5 years
-- old (the retention job removes only a closed account's, docs/decisions/0060). The database's
-- clock decides, so no caller's clock can make a younger record go.
CREATE TRIGGER "consent_records_kept" BEFORE DELETE ON "consent_records" FOR EACH ROW
	WHEN (NOT ((OLD."document" = 'marketing' AND OLD."recorded_at" < now() - interval '2 years') OR OLD."recorded_at" < now() - interval '5 years'))
	EXECUTE FUNCTION "refuse_change"();
--> statement-breakpoint
CREATE TABLE "account_deletions" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"reason" varchar(20) NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" varchar(500),
	"finished_at" timestamp with time zone,
	"report" jsonb,
	CONSTRAINT "account_deletions_reason_check" CHECK ("account_deletions"."reason" in ('request', 'inactivity'))
);
--> statement-breakpoint
CREATE INDEX "account_deletions_pending_idx" ON "account_deletions" USING btree ("requested_at", "user_id") WHERE "account_deletions"."finished_at" is null;
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb
);
