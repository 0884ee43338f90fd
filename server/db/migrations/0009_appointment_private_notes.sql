ALTER TABLE "appointments" ADD COLUMN "private_notes" text DEFAULT '' NOT NULL;
