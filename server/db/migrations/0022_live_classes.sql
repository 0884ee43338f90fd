-- Live classes on Zoom, their seats and reminders, and the fake Zoom's meetings (issue 25, decision 0058).
CREATE TABLE "live_classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(120) NOT NULL,
	"pillar_slug" varchar(50) NOT NULL REFERENCES "pillars"("slug"),
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"teacher_id" integer NOT NULL REFERENCES "users"("id"),
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"seats" integer NOT NULL,
	"seats_taken" integer DEFAULT 0 NOT NULL,
	"access" varchar(10) NOT NULL,
	"zoom_meeting_id" varchar(32),
	"join_url" varchar(1000),
	"start_url" varchar(2000),
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_classes_slug_unique" UNIQUE("slug"),
	CONSTRAINT "live_classes_slug_check" CHECK ("live_classes"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "live_classes_title_check" CHECK (coalesce(jsonb_typeof("live_classes"."title" -> 'pt') = 'string' and char_length("live_classes"."title" ->> 'pt') between 1 and 120, false) and coalesce(jsonb_typeof("live_classes"."title" -> 'en') = 'string' and char_length("live_classes"."title" ->> 'en') between 1 and 120, false) and coalesce(jsonb_typeof("live_classes"."title" -> 'es') = 'string' and char_length("live_classes"."title" ->> 'es') between 1 and 120, false)),
	CONSTRAINT "live_classes_description_check" CHECK (coalesce(jsonb_typeof("live_classes"."description" -> 'pt') = 'string' and char_length("live_classes"."description" ->> 'pt') between 1 and 2000, false) and coalesce(jsonb_typeof("live_classes"."description" -> 'en') = 'string' and char_length("live_classes"."description" ->> 'en') between 1 and 2000, false) and coalesce(jsonb_typeof("live_classes"."description" -> 'es') = 'string' and char_length("live_classes"."description" ->> 'es') between 1 and 2000, false)),
	CONSTRAINT "live_classes_duration_check" CHECK ("live_classes"."duration_minutes" between 15 and 240),
	CONSTRAINT "live_classes_seats_check" CHECK ("live_classes"."seats" between 1 and 1000),
	CONSTRAINT "live_classes_seats_taken_check" CHECK ("live_classes"."seats_taken" between 0 and "live_classes"."seats"),
	CONSTRAINT "live_classes_access_check" CHECK ("live_classes"."access" in ('free', 'members')),
	CONSTRAINT "live_classes_meeting_check" CHECK (("live_classes"."zoom_meeting_id" is null) = ("live_classes"."join_url" is null) and ("live_classes"."join_url" is null) = ("live_classes"."start_url" is null))
);
--> statement-breakpoint
CREATE INDEX "live_classes_starts_idx" ON "live_classes" USING btree ("starts_at", "id") WHERE "live_classes"."cancelled_at" is null;
--> statement-breakpoint
CREATE TABLE "live_class_seats" (
	"class_id" integer NOT NULL REFERENCES "live_classes"("id") ON DELETE cascade,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"reserved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reminded_24h_at" timestamp with time zone,
	"reminded_15m_at" timestamp with time zone,
	CONSTRAINT "live_class_seats_pk" PRIMARY KEY ("class_id", "user_id")
);
--> statement-breakpoint
CREATE INDEX "live_class_seats_user_idx" ON "live_class_seats" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "fake_zoom_meetings" (
	"id" bigint PRIMARY KEY NOT NULL,
	"uuid" varchar(40) NOT NULL,
	"account_id" varchar(100) NOT NULL,
	"topic" varchar(200) NOT NULL,
	"start_time" timestamp with time zone,
	"duration" integer NOT NULL,
	"timezone" varchar(64) NOT NULL,
	"password" varchar(10) NOT NULL,
	"zak" varchar(64) NOT NULL,
	"settings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
