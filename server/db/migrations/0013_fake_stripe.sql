CREATE TABLE "fake_stripe_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" varchar(255) NOT NULL,
	"url" text NOT NULL,
	"duplicate" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"sending_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" varchar(200),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_stripe_idempotency_keys" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"status" integer,
	"body" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_stripe_objects" (
	"id" varchar(255) PRIMARY KEY NOT NULL,
	"type" varchar(40) NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fake_stripe_deliveries_pending_idx" ON "fake_stripe_deliveries" USING btree ("next_attempt_at","id") WHERE "fake_stripe_deliveries"."delivered_at" is null and "fake_stripe_deliveries"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "fake_stripe_deliveries_event_idx" ON "fake_stripe_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "fake_stripe_objects_type_created_idx" ON "fake_stripe_objects" USING btree ("type","created_at","id");
