ALTER TABLE "outbox" ADD COLUMN "collapse_key" varchar(64);--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "collapse_state" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "caused_by" integer;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_caused_by_users_id_fk" FOREIGN KEY ("caused_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_collapse_pending_unique" ON "outbox" USING btree ("collapse_key") WHERE "outbox"."collapse_key" is not null and "outbox"."sent_at" is null and "outbox"."failed_at" is null and "outbox"."attempts" = 0;--> statement-breakpoint
CREATE INDEX "outbox_caused_by_created_idx" ON "outbox" USING btree ("caused_by","created_at") WHERE "outbox"."caused_by" is not null;
