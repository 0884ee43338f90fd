-- Subscriptions (issue 24, decision 0052): a plan paid by card through Stripe Billing or by PIX one
-- period at a time; each payment is a purchase of the subscription's period.
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"product_id" integer NOT NULL REFERENCES "products"("id"),
	"method" varchar(10) NOT NULL,
	"status" varchar(20) NOT NULL,
	"price_cents" integer NOT NULL,
	"idempotency_key" varchar(64) NOT NULL,
	"current_period_start" timestamp with time zone,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"next_price_cents" integer,
	"next_price_from" timestamp with time zone,
	"reminded_for" timestamp with time zone,
	"past_due_since" timestamp with time zone,
	"renewal_retries" integer DEFAULT 0 NOT NULL,
	"stripe_subscription_id" varchar(255),
	"stripe_checkout_session_id" varchar(255),
	"checkout_url" text,
	"first_paid_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_reason" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_status_check" CHECK ("subscriptions"."status" in ('incomplete', 'trialing', 'active', 'past_due', 'ended')),
	CONSTRAINT "subscriptions_method_check" CHECK ("subscriptions"."method" in ('card', 'pix')),
	CONSTRAINT "subscriptions_price_check" CHECK ("subscriptions"."price_cents" > 0 and "subscriptions"."price_cents" <= 99999999 and ("subscriptions"."next_price_cents" is null or ("subscriptions"."next_price_cents" > 0 and "subscriptions"."next_price_cents" <= 99999999 and "subscriptions"."next_price_from" is not null))),
	CONSTRAINT "subscriptions_period_check" CHECK (("subscriptions"."current_period_start" is null) = ("subscriptions"."current_period_end" is null) and ("subscriptions"."current_period_end" is null or "subscriptions"."current_period_end" > "subscriptions"."current_period_start")),
	CONSTRAINT "subscriptions_live_period_check" CHECK ("subscriptions"."status" not in ('trialing', 'active', 'past_due') or "subscriptions"."current_period_end" is not null),
	CONSTRAINT "subscriptions_ended_check" CHECK (("subscriptions"."status" = 'ended') = ("subscriptions"."ended_at" is not null and "subscriptions"."ended_reason" is not null)),
	CONSTRAINT "subscriptions_retries_check" CHECK ("subscriptions"."renewal_retries" between 0 and 10)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_idempotency_key_unique" ON "subscriptions" USING btree ("user_id","idempotency_key");
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_live_unique" ON "subscriptions" USING btree ("user_id","product_id") WHERE "subscriptions"."status" in ('incomplete', 'trialing', 'active', 'past_due');
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_stripe_unique" ON "subscriptions" USING btree ("stripe_subscription_id") WHERE "subscriptions"."stripe_subscription_id" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_checkout_session_unique" ON "subscriptions" USING btree ("stripe_checkout_session_id") WHERE "subscriptions"."stripe_checkout_session_id" is not null;
--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id","created_at","id");
--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end","id") WHERE "subscriptions"."status" in ('trialing', 'active', 'past_due');
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "subscription_id" integer REFERENCES "subscriptions"("id");
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "period_start" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "period_end" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "stripe_invoice_id" varchar(255);
--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_invoice_unique" ON "purchases" USING btree ("stripe_invoice_id") WHERE "purchases"."stripe_invoice_id" is not null;
--> statement-breakpoint
CREATE INDEX "purchases_subscription_idx" ON "purchases" USING btree ("subscription_id","id") WHERE "purchases"."subscription_id" is not null;
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_period_check" CHECK (("purchases"."period_start" is null) = ("purchases"."period_end" is null) and ("purchases"."period_end" is null or "purchases"."period_end" > "purchases"."period_start"));
--> statement-breakpoint
ALTER TABLE "purchase_items" DROP CONSTRAINT "purchase_items_type_check";
--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_type_check" CHECK ("purchase_items"."product_type" in ('consultation_package', 'program', 'course', 'digital_material', 'subscription', 'consultation') and (("purchase_items"."product_type" = 'consultation') = ("purchase_items"."product_id" is null)));
