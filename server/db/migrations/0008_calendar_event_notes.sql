CREATE TABLE "calendar_event_notes" (
	"user_id" integer NOT NULL,
	"google_event_id" varchar(1024) NOT NULL,
	"notes" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_event_notes_user_id_google_event_id_pk" PRIMARY KEY("user_id","google_event_id")
);
--> statement-breakpoint
ALTER TABLE "calendar_event_notes" ADD CONSTRAINT "calendar_event_notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;