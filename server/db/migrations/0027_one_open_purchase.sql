-- One open or paid purchase per buyer and one-time product (issue 41, decision 0072). A course,
-- digital material or program is bought once: `purchase_claims` holds, per buyer and product, the
-- one purchase that may give it (pending, or paid with its access in force). Its primary key is
-- the rule, so the database decides between two checkouts at once, from any process. A claim is
-- written with its purchase, released when the purchase fails, expires or is cancelled, or when
-- the product's access ends (a refund); a payment of a purchase that holds no claim and cannot
-- take it (another purchase holds it) is refunded (`superseded`), never granted.
CREATE TABLE "purchase_claims" (
	"user_id" integer NOT NULL REFERENCES "public"."users"("id"),
	"product_id" integer NOT NULL REFERENCES "public"."products"("id"),
	"purchase_id" integer NOT NULL REFERENCES "public"."purchases"("id") ON DELETE cascade,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "purchase_claims_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
CREATE INDEX "purchase_claims_purchase_idx" ON "purchase_claims" USING btree ("purchase_id","product_id");
--> statement-breakpoint
-- What the purchases hold today. First the products bought: the first purchase that granted each
-- one (by the grant's id) keeps it. A buyer who paid twice for one product before this rule keeps
-- both payments until someone decides (an admin's refund, decision 0061): no money moves here;
-- "my products" lists the claimed one only.
INSERT INTO "purchase_claims" ("user_id", "product_id", "purchase_id", "claimed_at")
SELECT DISTINCT ON ("user_id", "product_id") "user_id", "product_id", "purchase_id", "created_at"
FROM "purchase_grants"
WHERE "revoked_at" IS NULL AND "kind" IN ('course', 'material', 'program')
ORDER BY "user_id", "product_id", "id";
--> statement-breakpoint
-- Then the open checkouts of what nobody bought: the newest pending purchase of each (the page the
-- buyer opened last). An older one paid after all is refunded as superseded, as any from now on.
INSERT INTO "purchase_claims" ("user_id", "product_id", "purchase_id", "claimed_at")
SELECT DISTINCT ON (p."user_id", i."product_id") p."user_id", i."product_id", p."id", p."created_at"
FROM "purchases" p JOIN "purchase_items" i ON i."purchase_id" = p."id"
WHERE p."status" = 'pending' AND i."product_type" IN ('course', 'digital_material', 'program') AND i."product_id" IS NOT NULL
ORDER BY p."user_id", i."product_id", p."created_at" DESC, p."id" DESC
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The refund of a payment that lost its claim (the checkout left open in another tab, a late PIX
-- code of a failed purchase whose product another purchase holds now).
ALTER TABLE "purchase_refunds" DROP CONSTRAINT "purchase_refunds_reason_check";
--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD CONSTRAINT "purchase_refunds_reason_check" CHECK ("purchase_refunds"."reason" in ('cancel', 'late_payment', 'double_payment', 'superseded'));
--> statement-breakpoint
-- One live subscription per user, whatever the plan: every plan gives the same access (courses,
-- live classes, habit tools), so a second one is paying twice for it. Subscriptions already
-- running side by side (paid for, or with a checkout open at Stripe) are left as they are, to end
-- on their own: all but the newest of a user are marked `legacy_overlap` and left out of the rule.
ALTER TABLE "subscriptions" ADD COLUMN "legacy_overlap" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "subscriptions" s SET "legacy_overlap" = true
WHERE s."status" IN ('incomplete', 'trialing', 'active', 'past_due')
	AND EXISTS (SELECT 1 FROM "subscriptions" o WHERE o."user_id" = s."user_id" AND o."id" > s."id" AND o."status" IN ('incomplete', 'trialing', 'active', 'past_due'));
--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_one_live_per_user_unique" ON "subscriptions" USING btree ("user_id") WHERE "subscriptions"."status" in ('incomplete', 'trialing', 'active', 'past_due') and not "subscriptions"."legacy_overlap";
