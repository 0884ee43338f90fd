-- Files sent with a message (issue 44, decision 0086): images (re-encoded without their metadata) and
-- PDFs, at most 5 a message and 10 MB each, kept in the database like the profile photos. A message
-- with files may have no text.
ALTER TABLE "messages" ADD COLUMN "attachment_count" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_body_check";
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_body_check" CHECK (char_length("messages"."body") <= 4000 and ("messages"."deleted_at" is not null or char_length("messages"."body") >= 1 or "messages"."attachment_count" > 0));
--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_attachment_count_check" CHECK ("messages"."attachment_count" between 0 and 5);
--> statement-breakpoint
CREATE TABLE "message_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" bigint NOT NULL REFERENCES "public"."messages"("id") ON DELETE cascade,
	"conversation_id" integer NOT NULL REFERENCES "public"."conversations"("id") ON DELETE cascade,
	"uploader_id" integer NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"position" smallint NOT NULL,
	"name" varchar(255) NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"bytes" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_type_check" CHECK ("message_attachments"."content_type" in ('image/jpeg', 'image/png', 'image/webp', 'application/pdf')),
	CONSTRAINT "message_attachments_size_check" CHECK ("message_attachments"."size" between 1 and 10485760),
	CONSTRAINT "message_attachments_position_check" CHECK ("message_attachments"."position" between 0 and 4)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "message_attachments_message_position_unique" ON "message_attachments" USING btree ("message_id","position");
--> statement-breakpoint
CREATE INDEX "message_attachments_uploader_idx" ON "message_attachments" USING btree ("uploader_id","created_at");
