CREATE TABLE "appointments" (
	"id" serial PRIMARY KEY NOT NULL,
	"professional_id" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL,
	"status" varchar(20) DEFAULT 'scheduled' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"shared_notes" text DEFAULT '' NOT NULL,
	"meeting_link" varchar(255) NOT NULL,
	"payment_reference" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" varchar(20),
	"cancellation_reason" text DEFAULT '' NOT NULL,
	"refund" varchar(10),
	CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('scheduled', 'confirmed', 'completed', 'cancelled', 'no_show')),
	CONSTRAINT "appointments_times_check" CHECK ("appointments"."end_time" > "appointments"."start_time" and "appointments"."blocked_until" >= "appointments"."end_time"),
	CONSTRAINT "appointments_cancelled_by_check" CHECK ("appointments"."cancelled_by" is null or "appointments"."cancelled_by" in ('patient', 'professional', 'admin')),
	CONSTRAINT "appointments_refund_check" CHECK ("appointments"."refund" is null or "appointments"."refund" in ('full', 'none'))
);
--> statement-breakpoint
CREATE TABLE "professional_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"profession" varchar(150) DEFAULT '' NOT NULL,
	"registration_number" varchar(50) DEFAULT '' NOT NULL,
	"pillars" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"languages" jsonb DEFAULT '["pt"]'::jsonb NOT NULL,
	"consultation_minutes" integer DEFAULT 50 NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"buffer_minutes" integer DEFAULT 0 NOT NULL,
	"minimum_notice_hours" integer DEFAULT 12 NOT NULL,
	"horizon_days" integer DEFAULT 60 NOT NULL,
	"time_zone" varchar(64) DEFAULT 'America/Sao_Paulo' NOT NULL,
	"availability" jsonb NOT NULL,
	"accredited" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"professional_id" integer NOT NULL,
	"date" date NOT NULL,
	"slots" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "time_zone" varchar(64) DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_professional_id_users_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "professional_profiles" ADD CONSTRAINT "professional_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_professional_id_professional_profiles_user_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."professional_profiles"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_professional_start_idx" ON "appointments" USING btree ("professional_id","start_time");--> statement-breakpoint
CREATE INDEX "appointments_patient_start_idx" ON "appointments" USING btree ("patient_id","start_time");--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_exceptions_professional_date_unique" ON "schedule_exceptions" USING btree ("professional_id","date");--> statement-breakpoint
-- Hand-written (drizzle cannot express it): no two live appointments of one professional overlap
-- on [start_time, blocked_until). Both are range types of core PostgreSQL, so GiST needs no extension.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_overlap" EXCLUDE USING gist (int4range("professional_id", "professional_id", '[]') WITH &&, tstzrange("start_time", "blocked_until") WITH &&) WHERE ("status" <> 'cancelled');
