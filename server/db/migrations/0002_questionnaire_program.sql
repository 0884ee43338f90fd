CREATE TABLE "program_goals" (
	"id" serial PRIMARY KEY NOT NULL,
	"program_id" integer NOT NULL,
	"week" integer NOT NULL,
	"position" integer NOT NULL,
	"pillar_slug" varchar(50) NOT NULL,
	"level" integer NOT NULL,
	"focus" boolean NOT NULL,
	"text" jsonb NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "programs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"result_id" integer,
	"source" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"starts_on" date NOT NULL,
	"weeks" integer NOT NULL,
	"focus_pillars" jsonb NOT NULL,
	"pillars_order" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaire_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" varchar(20) NOT NULL,
	"code" varchar(64) NOT NULL,
	"pillar_slug" varchar(50) NOT NULL,
	"order" integer NOT NULL,
	"text" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"reverse" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaire_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"version" varchar(20) NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answers" jsonb NOT NULL,
	"scores" jsonb NOT NULL,
	"focus_pillars" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questionnaire_shares" (
	"result_id" integer NOT NULL,
	"professional_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "questionnaire_shares_result_id_professional_id_pk" PRIMARY KEY("result_id","professional_id")
);
--> statement-breakpoint
CREATE TABLE "questionnaire_versions" (
	"version" varchar(20) PRIMARY KEY NOT NULL,
	"is_current" boolean DEFAULT false NOT NULL,
	"title" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"estimated_minutes" integer NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "program_goals" ADD CONSTRAINT "program_goals_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "programs" ADD CONSTRAINT "programs_result_id_questionnaire_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."questionnaire_results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_version_questionnaire_versions_version_fk" FOREIGN KEY ("version") REFERENCES "public"."questionnaire_versions"("version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_questions" ADD CONSTRAINT "questionnaire_questions_pillar_slug_pillars_slug_fk" FOREIGN KEY ("pillar_slug") REFERENCES "public"."pillars"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_results" ADD CONSTRAINT "questionnaire_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_results" ADD CONSTRAINT "questionnaire_results_version_questionnaire_versions_version_fk" FOREIGN KEY ("version") REFERENCES "public"."questionnaire_versions"("version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_shares" ADD CONSTRAINT "questionnaire_shares_result_id_questionnaire_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."questionnaire_results"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questionnaire_shares" ADD CONSTRAINT "questionnaire_shares_professional_id_users_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "program_goals_program_idx" ON "program_goals" USING btree ("program_id","week","position");--> statement-breakpoint
CREATE INDEX "programs_user_created_idx" ON "programs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_questions_version_code_unique" ON "questionnaire_questions" USING btree ("version","code");--> statement-breakpoint
CREATE INDEX "questionnaire_results_user_submitted_idx" ON "questionnaire_results" USING btree ("user_id","submitted_at");--> statement-breakpoint
CREATE INDEX "questionnaire_shares_professional_idx" ON "questionnaire_shares" USING btree ("professional_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questionnaire_versions_one_current" ON "questionnaire_versions" USING btree ("is_current") WHERE "questionnaire_versions"."is_current";