CREATE SEQUENCE "public"."fake_google_event_changes" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "calendar_connections" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"google_email" varchar(254),
	"primary_calendar_id" varchar(1024),
	"calendar_time_zone" varchar(64),
	"refresh_token_sealed" text NOT NULL,
	"access_token_sealed" text,
	"access_token_expires_at" timestamp with time zone,
	"scope" text DEFAULT '' NOT NULL,
	"token_valid" boolean DEFAULT true NOT NULL,
	"sync_token" text,
	"last_sync_at" timestamp with time zone,
	"sync_started_at" timestamp with time zone,
	"sync_lease_id" varchar(64),
	"sync_lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"google_event_id" varchar(1024) NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"start" jsonb NOT NULL,
	"end" jsonb NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"all_day" boolean NOT NULL,
	"status" varchar(20) NOT NULL,
	"transparency" varchar(20) DEFAULT 'opaque' NOT NULL,
	"attendees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"self_response_status" varchar(20),
	"html_link" text,
	"color_id" varchar(20),
	"innera_appointment_id" integer,
	"created_by_innera" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_google_calendars" (
	"subject" varchar(255) PRIMARY KEY NOT NULL,
	"email" varchar(254) NOT NULL,
	"time_zone" varchar(64) DEFAULT 'America/Sao_Paulo' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_google_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject" varchar(255) NOT NULL,
	"event_id" varchar(1024) NOT NULL,
	"resource" jsonb NOT NULL,
	"status" varchar(20) NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"change_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_google_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject" varchar(255) NOT NULL,
	"email" varchar(254) NOT NULL,
	"client_id" varchar(255) NOT NULL,
	"scope" text NOT NULL,
	"refresh_token_hash" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fake_google_sync_tokens" (
	"token" varchar(64) PRIMARY KEY NOT NULL,
	"subject" varchar(255) NOT NULL,
	"watermark" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "google_event_id" varchar(1024);--> statement-breakpoint
ALTER TABLE "fake_google_codes" ADD COLUMN "access_type" varchar(20);--> statement-breakpoint
ALTER TABLE "calendar_connections" ADD CONSTRAINT "calendar_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_events" ADD CONSTRAINT "calendar_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_connections_last_sync_idx" ON "calendar_connections" USING btree ("last_sync_at") WHERE "calendar_connections"."token_valid";--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_events_user_event_unique" ON "calendar_events" USING btree ("user_id","google_event_id");--> statement-breakpoint
CREATE INDEX "calendar_events_user_start_idx" ON "calendar_events" USING btree ("user_id","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "fake_google_events_subject_event_unique" ON "fake_google_events" USING btree ("subject","event_id");--> statement-breakpoint
CREATE INDEX "fake_google_events_subject_start_idx" ON "fake_google_events" USING btree ("subject","start_at","id");--> statement-breakpoint
CREATE INDEX "fake_google_events_subject_change_idx" ON "fake_google_events" USING btree ("subject","change_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "fake_google_grants_refresh_token_hash_unique" ON "fake_google_grants" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "fake_google_grants_subject_idx" ON "fake_google_grants" USING btree ("subject");