-- A plan's new price told to its subscribers (issue 24, decision 0053): what the subscription's Stripe Price charges at its next renewal (card), so the change is made at Stripe once, in the period before it applies.
ALTER TABLE "subscriptions" ADD COLUMN "stripe_price_cents" integer;
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_stripe_price_check" CHECK ("subscriptions"."stripe_price_cents" is null or ("subscriptions"."stripe_price_cents" > 0 and "subscriptions"."stripe_price_cents" <= 99999999));
