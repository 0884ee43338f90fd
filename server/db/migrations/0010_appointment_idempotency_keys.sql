ALTER TABLE "appointments" ADD COLUMN "idempotency_key" varchar(64);--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "reschedule_key" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_patient_idempotency_key_unique" ON "appointments" USING btree ("patient_id","idempotency_key") WHERE "appointments"."idempotency_key" is not null;
