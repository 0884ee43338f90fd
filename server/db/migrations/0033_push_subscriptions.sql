-- Web Push (issue 44, decision 0087): the browsers a user opted in on, each a push service's
-- endpoint with the keys its messages are encrypted for. Unique by endpoint: a browser is one
-- subscription, whoever last subscribed on it; at most 10 per user (the oldest goes).
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"endpoint" text NOT NULL,
	"p256dh" varchar(100) NOT NULL,
	"auth" varchar(40) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_check" CHECK (char_length("push_subscriptions"."endpoint") between 12 and 1024)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_unique" ON "push_subscriptions" USING btree ("endpoint");
--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id","created_at");
--> statement-breakpoint
-- The VAPID key pair the provider signs its pushes with, made at the first start unless the
-- operator gives VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: one row, kept in the database so every
-- provider process sharing it signs with the same key (a subscription is bound to it).
CREATE TABLE "push_vapid_keys" (
	"id" integer PRIMARY KEY NOT NULL,
	"public_key" varchar(100) NOT NULL,
	"private_key" varchar(100) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_vapid_keys_one_check" CHECK ("push_vapid_keys"."id" = 1)
);
--> statement-breakpoint
-- The fake push service's subscriptions (only with FAKE_PUSH): the key pair a browser would hold,
-- so the fake can decrypt what it receives and show it, and whether the endpoint is gone (410).
CREATE TABLE "fake_push_subscriptions" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"application_server_key" varchar(100) NOT NULL,
	"private_key" varchar(100) NOT NULL,
	"public_key" varchar(100) NOT NULL,
	"auth" varchar(40) NOT NULL,
	"gone" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fake_push_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" varchar(40) NOT NULL REFERENCES "public"."fake_push_subscriptions"("id") ON DELETE cascade,
	"body" text NOT NULL,
	"ttl" integer NOT NULL,
	"urgency" varchar(10),
	"topic" varchar(32),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "fake_push_messages_subscription_idx" ON "fake_push_messages" USING btree ("subscription_id","id");
