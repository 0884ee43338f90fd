CREATE TABLE "purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" varchar(20) NOT NULL,
	"method" varchar(10) NOT NULL,
	"total_cents" integer NOT NULL,
	"currency" varchar(3) DEFAULT 'brl' NOT NULL,
	"idempotency_key" varchar(64) NOT NULL,
	"stripe_payment_intent_id" varchar(255),
	"stripe_checkout_session_id" varchar(255),
	"pix_data" text,
	"pix_expires_at" timestamp with time zone,
	"pix_instructions_url" text,
	"checkout_url" text,
	"checkout_expires_at" timestamp with time zone,
	"failure_code" varchar(100),
	"failure_message" varchar(500),
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_status_check" CHECK ("purchases"."status" in ('pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded')),
	CONSTRAINT "purchases_method_check" CHECK ("purchases"."method" in ('card', 'pix')),
	CONSTRAINT "purchases_total_check" CHECK ("purchases"."total_cents" > 0 and "purchases"."total_cents" <= 99999999),
	CONSTRAINT "purchases_currency_check" CHECK ("purchases"."currency" = 'brl'),
	CONSTRAINT "purchases_refunded_check" CHECK ("purchases"."refunded_cents" >= 0 and "purchases"."refunded_cents" <= "purchases"."total_cents"),
	CONSTRAINT "purchases_paid_check" CHECK ("purchases"."status" not in ('paid', 'refunded') or "purchases"."paid_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "purchase_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"product_type" varchar(30) NOT NULL,
	"name" jsonb NOT NULL,
	"quantity" integer NOT NULL,
	"unit_cents" integer NOT NULL,
	"line_cents" integer NOT NULL,
	"consultations" integer,
	"professional_id" integer,
	CONSTRAINT "purchase_items_quantity_check" CHECK ("purchase_items"."quantity" between 1 and 10),
	CONSTRAINT "purchase_items_unit_check" CHECK ("purchase_items"."unit_cents" > 0),
	CONSTRAINT "purchase_items_line_check" CHECK ("purchase_items"."line_cents" = "purchase_items"."unit_cents" * "purchase_items"."quantity"),
	CONSTRAINT "purchase_items_type_check" CHECK ("purchase_items"."product_type" in ('consultation_package', 'program', 'course', 'digital_material'))
);
--> statement-breakpoint
CREATE TABLE "purchase_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"from_status" varchar(20),
	"to_status" varchar(20) NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"source" varchar(20) NOT NULL,
	"stripe_event_id" varchar(255),
	CONSTRAINT "purchase_transitions_source_check" CHECK ("purchase_transitions"."source" in ('create', 'webhook', 'refresh', 'cancel', 'expiry', 'reconcile', 'renew'))
);
--> statement-breakpoint
CREATE TABLE "stripe_webhook_events" (
	"event_id" varchar(255) PRIMARY KEY NOT NULL,
	"type" varchar(100) NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "purchase_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"purchase_id" integer NOT NULL,
	"kind" varchar(30) NOT NULL,
	"available_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_grants_kind_check" CHECK ("purchase_grants"."kind" in ('course', 'material', 'program', 'consultation_credits'))
);
--> statement-breakpoint
CREATE TABLE "consultation_credits" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purchase_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"professional_id" integer,
	"total" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_credits_total_check" CHECK ("consultation_credits"."total" >= 0 and "consultation_credits"."total" <= 1000),
	CONSTRAINT "consultation_credits_used_check" CHECK ("consultation_credits"."used" >= 0 and "consultation_credits"."used" <= "consultation_credits"."total")
);
--> statement-breakpoint
CREATE TABLE "purchase_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"purchase_id" integer NOT NULL,
	"payment_intent_id" varchar(255) NOT NULL,
	"amount_cents" integer NOT NULL,
	"reason" varchar(20) NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"stripe_refund_id" varchar(255),
	"failure_message" varchar(500),
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_refunds_amount_check" CHECK ("purchase_refunds"."amount_cents" > 0),
	CONSTRAINT "purchase_refunds_reason_check" CHECK ("purchase_refunds"."reason" in ('cancel', 'late_payment', 'double_payment')),
	CONSTRAINT "purchase_refunds_status_check" CHECK ("purchase_refunds"."status" in ('pending', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_professional_id_users_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_transitions" ADD CONSTRAINT "purchase_transitions_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_grants" ADD CONSTRAINT "purchase_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_grants" ADD CONSTRAINT "purchase_grants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_grants" ADD CONSTRAINT "purchase_grants_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_credits" ADD CONSTRAINT "consultation_credits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_credits" ADD CONSTRAINT "consultation_credits_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_credits" ADD CONSTRAINT "consultation_credits_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_credits" ADD CONSTRAINT "consultation_credits_professional_id_users_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD CONSTRAINT "purchase_refunds_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_user_idempotency_key_unique" ON "purchases" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_payment_intent_unique" ON "purchases" USING btree ("stripe_payment_intent_id") WHERE "purchases"."stripe_payment_intent_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_checkout_session_unique" ON "purchases" USING btree ("stripe_checkout_session_id") WHERE "purchases"."stripe_checkout_session_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_user_created_idx" ON "purchases" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "purchases_pending_idx" ON "purchases" USING btree ("checked_at","id") WHERE "purchases"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_items_purchase_product_unique" ON "purchase_items" USING btree ("purchase_id","product_id");--> statement-breakpoint
CREATE INDEX "purchase_transitions_purchase_idx" ON "purchase_transitions" USING btree ("purchase_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_grants_purchase_product_unique" ON "purchase_grants" USING btree ("purchase_id","product_id");--> statement-breakpoint
CREATE INDEX "purchase_grants_user_idx" ON "purchase_grants" USING btree ("user_id","available_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "consultation_credits_purchase_product_unique" ON "consultation_credits" USING btree ("purchase_id","product_id");--> statement-breakpoint
CREATE INDEX "consultation_credits_user_idx" ON "consultation_credits" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_refunds_payment_reason_unique" ON "purchase_refunds" USING btree ("payment_intent_id","reason");--> statement-breakpoint
CREATE INDEX "purchase_refunds_pending_idx" ON "purchase_refunds" USING btree ("updated_at","id") WHERE "purchase_refunds"."status" = 'pending';
