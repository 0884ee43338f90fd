-- Paid consultations (issue 24, decision 0051): a booking paid with a package's credit, or held
-- while its payment (PIX or card) is open and confirmed when it is paid.
ALTER TABLE "appointments" DROP CONSTRAINT "appointments_status_check";
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('awaiting_payment', 'scheduled', 'confirmed', 'completed', 'cancelled', 'no_show'));
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "price_cents" integer;
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "hold_expires_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "purchase_id" integer REFERENCES "purchases"("id");
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "credit_id" integer REFERENCES "consultation_credits"("id");
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_price_check" CHECK ("appointments"."price_cents" is null or ("appointments"."price_cents" > 0 and "appointments"."price_cents" <= 99999999));
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_payment_check" CHECK ("appointments"."purchase_id" is null or "appointments"."credit_id" is null);
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_hold_check" CHECK ("appointments"."status" <> 'awaiting_payment' or ("appointments"."hold_expires_at" is not null and "appointments"."purchase_id" is not null));
--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_purchase_unique" ON "appointments" USING btree ("purchase_id") WHERE "appointments"."purchase_id" is not null;
--> statement-breakpoint
CREATE INDEX "appointments_credit_idx" ON "appointments" USING btree ("credit_id") WHERE "appointments"."credit_id" is not null;
--> statement-breakpoint
ALTER TABLE "purchase_items" ALTER COLUMN "product_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "purchase_items" DROP CONSTRAINT "purchase_items_type_check";
--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_type_check" CHECK ("purchase_items"."product_type" in ('consultation_package', 'program', 'course', 'digital_material', 'consultation') and (("purchase_items"."product_type" = 'consultation') = ("purchase_items"."product_id" is null)));
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "holds_time" boolean DEFAULT false NOT NULL;
