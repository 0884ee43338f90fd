CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" varchar(80) NOT NULL,
	"product_type" varchar(30) NOT NULL,
	"category" varchar(40) NOT NULL,
	"pillar_slug" varchar(50),
	"name" jsonb NOT NULL,
	"description" jsonb NOT NULL,
	"price_cents" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"consultations" integer,
	"professional_id" integer,
	"weeks" integer,
	"plan_interval" varchar(10),
	"trial_days" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_slug_unique" UNIQUE("slug"),
	CONSTRAINT "products_slug_check" CHECK ("products"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "products_type_check" CHECK ("products"."product_type" in ('consultation_package', 'program', 'course', 'digital_material', 'subscription')),
	CONSTRAINT "products_category_check" CHECK ("products"."category" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "products_name_check" CHECK (coalesce(jsonb_typeof("products"."name" -> 'pt') = 'string' and char_length("products"."name" ->> 'pt') between 1 and 120, false) and coalesce(jsonb_typeof("products"."name" -> 'en') = 'string' and char_length("products"."name" ->> 'en') between 1 and 120, false) and coalesce(jsonb_typeof("products"."name" -> 'es') = 'string' and char_length("products"."name" ->> 'es') between 1 and 120, false)),
	CONSTRAINT "products_description_check" CHECK (coalesce(jsonb_typeof("products"."description" -> 'pt') = 'string' and char_length("products"."description" ->> 'pt') between 1 and 2000, false) and coalesce(jsonb_typeof("products"."description" -> 'en') = 'string' and char_length("products"."description" ->> 'en') between 1 and 2000, false) and coalesce(jsonb_typeof("products"."description" -> 'es') = 'string' and char_length("products"."description" ->> 'es') between 1 and 2000, false)),
	CONSTRAINT "products_price_check" CHECK ("products"."price_cents" > 0 and "products"."price_cents" <= 10000000),
	CONSTRAINT "products_sort_order_check" CHECK ("products"."sort_order" between 0 and 1000000),
	CONSTRAINT "products_consultations_check" CHECK (("products"."product_type" = 'consultation_package' and "products"."consultations" is not null and "products"."consultations" in (1, 4, 8)) or ("products"."product_type" <> 'consultation_package' and "products"."consultations" is null)),
	CONSTRAINT "products_professional_check" CHECK ("products"."professional_id" is null or "products"."product_type" = 'consultation_package'),
	CONSTRAINT "products_plan_check" CHECK (("products"."product_type" = 'subscription' and "products"."plan_interval" is not null and "products"."trial_days" is not null and "products"."plan_interval" in ('monthly', 'yearly', 'trial', 'program') and "products"."trial_days" between 0 and 90 and ("products"."plan_interval" <> 'trial' or "products"."trial_days" >= 1)) or ("products"."product_type" <> 'subscription' and "products"."plan_interval" is null and "products"."trial_days" is null)),
	CONSTRAINT "products_weeks_check" CHECK ((("products"."product_type" = 'program' or "products"."plan_interval" is not distinct from 'program') and "products"."weeks" is not null and "products"."weeks" between 8 and 12) or ("products"."product_type" <> 'program' and "products"."plan_interval" is distinct from 'program' and "products"."weeks" is null))
);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_pillar_slug_pillars_slug_fk" FOREIGN KEY ("pillar_slug") REFERENCES "public"."pillars"("slug") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_professional_id_users_id_fk" FOREIGN KEY ("professional_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_listing_idx" ON "products" USING btree ("sort_order","id") WHERE "products"."active";--> statement-breakpoint
CREATE INDEX "products_pillar_idx" ON "products" USING btree ("pillar_slug");--> statement-breakpoint
CREATE INDEX "products_professional_idx" ON "products" USING btree ("professional_id");