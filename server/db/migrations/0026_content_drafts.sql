-- The admin content editor's drafts (issue 26, decision 0064): an unpublished edit of a pillar,
-- product, course, lesson, live class or questionnaire version, any language possibly still empty.
-- Published rows keep their CHECKs (all three languages); publishing removes the draft.
CREATE TABLE "content_drafts" (
	"kind" varchar(20) NOT NULL,
	"key" varchar(120) NOT NULL,
	"body" jsonb NOT NULL,
	"updated_by" integer REFERENCES "users"("id") ON DELETE set null,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_drafts_pk" PRIMARY KEY("kind","key"),
	CONSTRAINT "content_drafts_kind_check" CHECK ("content_drafts"."kind" in ('pillar', 'product', 'course', 'lesson', 'live_class', 'questionnaire')),
	CONSTRAINT "content_drafts_body_check" CHECK (jsonb_typeof("content_drafts"."body") = 'object' and octet_length("content_drafts"."body"::text) <= 262144)
);
