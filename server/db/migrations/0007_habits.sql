CREATE TABLE "habit_entries" (
	"habit_id" integer NOT NULL,
	"date" date NOT NULL,
	"status" varchar(10) NOT NULL,
	"amount" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "habit_entries_habit_id_date_pk" PRIMARY KEY("habit_id","date"),
	CONSTRAINT "habit_entries_status_check" CHECK ("habit_entries"."status" in ('done', 'not_done', 'skipped'))
);
--> statement-breakpoint
CREATE TABLE "habit_reminders" (
	"habit_id" integer NOT NULL,
	"date" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "habit_reminders_habit_id_date_pk" PRIMARY KEY("habit_id","date")
);
--> statement-breakpoint
CREATE TABLE "habits" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"pillar_slug" varchar(50) NOT NULL,
	"name" varchar(120) NOT NULL,
	"frequency" jsonb NOT NULL,
	"target" double precision,
	"unit" varchar(30) DEFAULT '' NOT NULL,
	"reminder_time" varchar(5),
	"created_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "habit_entries" ADD CONSTRAINT "habit_entries_habit_id_habits_id_fk" FOREIGN KEY ("habit_id") REFERENCES "public"."habits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "habit_reminders" ADD CONSTRAINT "habit_reminders_habit_id_habits_id_fk" FOREIGN KEY ("habit_id") REFERENCES "public"."habits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "habits" ADD CONSTRAINT "habits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "habits_user_idx" ON "habits" USING btree ("user_id","archived_at");