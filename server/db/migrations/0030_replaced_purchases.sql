-- A buyer's other checkouts of a course, digital material or program they now own are cancelled
-- (decision 0076): once a purchase is paid and holds its claims (decision 0072), every other
-- pending, failed or expired purchase of the buyer with one of those products is `cancelled` in
-- the same transaction, naming the purchase that holds the product now, and its Checkout Session
-- expired or its PIX PaymentIntent cancelled at Stripe once that has committed (retried by the
-- purchases' tick until Stripe answers: `stripe_closed_at` stays null until then). A payment that
-- still reaches one is refunded in full (`superseded`), as before.
ALTER TABLE "purchases" ADD COLUMN "replaced_by_purchase_id" integer REFERENCES "public"."purchases"("id");
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "stripe_closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_replaced_check" CHECK ("purchases"."replaced_by_purchase_id" is null or ("purchases"."replaced_by_purchase_id" <> "purchases"."id" and "purchases"."status" in ('cancelled', 'refunded')));
--> statement-breakpoint
CREATE INDEX "purchases_stripe_close_due_idx" ON "purchases" USING btree ("updated_at","id") WHERE "purchases"."replaced_by_purchase_id" is not null and "purchases"."stripe_closed_at" is null;
--> statement-breakpoint
ALTER TABLE "purchase_transitions" DROP CONSTRAINT "purchase_transitions_source_check";
--> statement-breakpoint
ALTER TABLE "purchase_transitions" ADD CONSTRAINT "purchase_transitions_source_check" CHECK ("purchase_transitions"."source" in ('create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew', 'replaced'));
