-- Messages between a patient and their professional (issue 44, decision 0085): one conversation per
-- pair (the unique index decides a race between the two starting it), its messages by id (the
-- keyset the thread pages by), each side's read mark, and the reports of a message to the admins.
CREATE TABLE "conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"professional_id" integer NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_id" bigint,
	"last_message_at" timestamp with time zone,
	"patient_read_id" bigint DEFAULT 0 NOT NULL,
	"professional_read_id" bigint DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"patient_muted" boolean DEFAULT false NOT NULL,
	"patient_notified_at" timestamp with time zone,
	"professional_notified_at" timestamp with time zone,
	CONSTRAINT "conversations_two_people_check" CHECK ("conversations"."patient_id" <> "conversations"."professional_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_pair_unique" ON "conversations" USING btree ("patient_id","professional_id");
--> statement-breakpoint
CREATE INDEX "conversations_patient_recent_idx" ON "conversations" USING btree ("patient_id","last_message_at" desc nulls last,"id");
--> statement-breakpoint
CREATE INDEX "conversations_professional_recent_idx" ON "conversations" USING btree ("professional_id","last_message_at" desc nulls last,"id");
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL REFERENCES "public"."conversations"("id") ON DELETE cascade,
	"sender_id" integer REFERENCES "public"."users"("id") ON DELETE set null,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"removed_by_admins" boolean DEFAULT false NOT NULL,
	"idempotency_key" varchar(64),
	CONSTRAINT "messages_body_check" CHECK (char_length("messages"."body") <= 4000 and ("messages"."deleted_at" is not null or char_length("messages"."body") >= 1))
);
--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "messages_sender_key_unique" ON "messages" USING btree ("sender_id","idempotency_key") WHERE "messages"."idempotency_key" is not null;
--> statement-breakpoint
CREATE TABLE "message_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL REFERENCES "public"."messages"("id") ON DELETE cascade,
	"reporter_id" integer NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"reason" text NOT NULL,
	"reported_text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"handled_at" timestamp with time zone,
	"handled_by" integer REFERENCES "public"."users"("id") ON DELETE set null,
	"outcome" varchar(20),
	CONSTRAINT "message_reports_outcome_check" CHECK ("message_reports"."outcome" is null or "message_reports"."outcome" in ('dismissed', 'removed')),
	CONSTRAINT "message_reports_reason_check" CHECK (char_length("message_reports"."reason") between 1 and 1000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "message_reports_message_reporter_unique" ON "message_reports" USING btree ("message_id","reporter_id");
--> statement-breakpoint
CREATE INDEX "message_reports_open_idx" ON "message_reports" USING btree ("created_at","id") WHERE "message_reports"."handled_at" is null;
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" integer PRIMARY KEY NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"email" boolean DEFAULT true NOT NULL,
	"push" boolean DEFAULT false NOT NULL,
	"quiet_start" varchar(5),
	"quiet_end" varchar(5),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_quiet_check" CHECK (("notification_settings"."quiet_start" is null) = ("notification_settings"."quiet_end" is null) and ("notification_settings"."quiet_start" is null or ("notification_settings"."quiet_start" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "notification_settings"."quiet_end" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' and "notification_settings"."quiet_start" <> "notification_settings"."quiet_end")))
);
