-- The buyer's e-mails about a purchase (issue 24, decision 0054): its receipt once paid, and each refund once made. Those paid or refunded before this migration count as told.
ALTER TABLE "purchases" ADD COLUMN "receipt_sent_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "purchases" SET "receipt_sent_at" = "paid_at" WHERE "paid_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "purchases_receipt_due_idx" ON "purchases" USING btree ("paid_at","id") WHERE "purchases"."paid_at" is not null and "purchases"."receipt_sent_at" is null;
--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD COLUMN "notified_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "purchase_refunds" SET "notified_at" = "updated_at" WHERE "status" = 'succeeded';
--> statement-breakpoint
CREATE INDEX "purchase_refunds_notice_due_idx" ON "purchase_refunds" USING btree ("id") WHERE "purchase_refunds"."status" = 'succeeded' and "purchase_refunds"."notified_at" is null;
