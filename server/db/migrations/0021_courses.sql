-- Courses, their video lessons and each user's progress (issue 25, decision 0057).
CREATE TABLE "courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(80) NOT NULL,
	"pillar_slug" varchar(50) NOT NULL REFERENCES "pillars"("slug"),
	"product_id" integer REFERENCES "products"("id"),
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "courses_slug_unique" UNIQUE("slug"),
	CONSTRAINT "courses_slug_check" CHECK ("courses"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "courses_title_check" CHECK (coalesce(jsonb_typeof("courses"."title" -> 'pt') = 'string' and char_length("courses"."title" ->> 'pt') between 1 and 120, false) and coalesce(jsonb_typeof("courses"."title" -> 'en') = 'string' and char_length("courses"."title" ->> 'en') between 1 and 120, false) and coalesce(jsonb_typeof("courses"."title" -> 'es') = 'string' and char_length("courses"."title" ->> 'es') between 1 and 120, false)),
	CONSTRAINT "courses_description_check" CHECK (coalesce(jsonb_typeof("courses"."description" -> 'pt') = 'string' and char_length("courses"."description" ->> 'pt') between 1 and 2000, false) and coalesce(jsonb_typeof("courses"."description" -> 'en') = 'string' and char_length("courses"."description" ->> 'en') between 1 and 2000, false) and coalesce(jsonb_typeof("courses"."description" -> 'es') = 'string' and char_length("courses"."description" ->> 'es') between 1 and 2000, false)),
	CONSTRAINT "courses_sort_order_check" CHECK ("courses"."sort_order" between 0 and 1000000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "courses_product_unique" ON "courses" USING btree ("product_id") WHERE "courses"."product_id" is not null;
--> statement-breakpoint
CREATE INDEX "courses_listing_idx" ON "courses" USING btree ("pillar_slug", "sort_order", "id") WHERE "courses"."active";
--> statement-breakpoint
CREATE TABLE "lessons" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL REFERENCES "courses"("id") ON DELETE cascade,
	"number" integer NOT NULL,
	"slug" varchar(120) NOT NULL,
	"title" jsonb NOT NULL,
	"summary" jsonb NOT NULL,
	"free" boolean DEFAULT false NOT NULL,
	"duration_ms" integer NOT NULL,
	"video_bytes" integer NOT NULL,
	"cues" jsonb NOT NULL,
	CONSTRAINT "lessons_slug_unique" UNIQUE("slug"),
	CONSTRAINT "lessons_slug_check" CHECK ("lessons"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "lessons_number_check" CHECK ("lessons"."number" between 1 and 200),
	CONSTRAINT "lessons_duration_check" CHECK ("lessons"."duration_ms" between 1000 and 14400000),
	CONSTRAINT "lessons_video_bytes_check" CHECK ("lessons"."video_bytes" > 0),
	CONSTRAINT "lessons_title_check" CHECK (coalesce(jsonb_typeof("lessons"."title" -> 'pt') = 'string' and char_length("lessons"."title" ->> 'pt') between 1 and 120, false) and coalesce(jsonb_typeof("lessons"."title" -> 'en') = 'string' and char_length("lessons"."title" ->> 'en') between 1 and 120, false) and coalesce(jsonb_typeof("lessons"."title" -> 'es') = 'string' and char_length("lessons"."title" ->> 'es') between 1 and 120, false)),
	CONSTRAINT "lessons_summary_check" CHECK (coalesce(jsonb_typeof("lessons"."summary" -> 'pt') = 'string' and char_length("lessons"."summary" ->> 'pt') between 1 and 2000, false) and coalesce(jsonb_typeof("lessons"."summary" -> 'en') = 'string' and char_length("lessons"."summary" ->> 'en') between 1 and 2000, false) and coalesce(jsonb_typeof("lessons"."summary" -> 'es') = 'string' and char_length("lessons"."summary" ->> 'es') between 1 and 2000, false))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lessons_course_number_unique" ON "lessons" USING btree ("course_id", "number");
--> statement-breakpoint
CREATE TABLE "lesson_progress" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"lesson_id" integer NOT NULL REFERENCES "lessons"("id") ON DELETE cascade,
	"position_ms" integer DEFAULT 0 NOT NULL,
	"watched_ms" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"reported_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lesson_progress_pk" PRIMARY KEY ("user_id", "lesson_id"),
	CONSTRAINT "lesson_progress_position_check" CHECK ("lesson_progress"."position_ms" between 0 and 14400000),
	CONSTRAINT "lesson_progress_watched_check" CHECK ("lesson_progress"."watched_ms" between 0 and 14400000)
);
--> statement-breakpoint
CREATE INDEX "lesson_progress_lesson_idx" ON "lesson_progress" USING btree ("lesson_id");
