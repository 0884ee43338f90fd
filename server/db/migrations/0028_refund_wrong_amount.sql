-- A payment of a purchase in another amount or currency than its total in BRL (issue 41, decision
-- 0074) grants nothing and is given back: its refund's reason. The list keeps 0027's `superseded`.
ALTER TABLE "purchase_refunds" DROP CONSTRAINT "purchase_refunds_reason_check";
--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD CONSTRAINT "purchase_refunds_reason_check" CHECK ("purchase_refunds"."reason" in ('cancel', 'late_payment', 'double_payment', 'superseded', 'wrong_amount'));
