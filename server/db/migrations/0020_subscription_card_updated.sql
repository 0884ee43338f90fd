-- When the subscriber last saved a new card for a subscription renewing by card (issue 24, decision 0055).
ALTER TABLE "subscriptions" ADD COLUMN "card_updated_at" timestamp with time zone;
