-- The embedded fakes' own secrets (issue 41, decision 0073): the fake Stripe's API key and webhook
-- signing secret, the fake Zoom's and the fake Google's client secrets, made at a first start with
-- the fake on unless the environment gives them (FAKE_STRIPE_SECRET_KEY, …). Kept here rather than
-- in a file so that every provider process sharing the database accepts and signs with the same
-- ones; the embedded PGlite lives in the data folder. Never exported, never reset.
CREATE TABLE "fake_secrets" (
	"name" varchar(40) PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fake_secrets_name_check" CHECK ("fake_secrets"."name" in ('stripe_secret_key', 'stripe_webhook_secret', 'zoom_client_secret', 'google_client_secret')),
	CONSTRAINT "fake_secrets_value_check" CHECK (length("fake_secrets"."value") between 32 and 200)
);
