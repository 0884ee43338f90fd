-- The admins' user search (issue 26, decision 0063): a trigram index over the username, e-mail and
-- names as one lower-case text, so a search of 3 characters or more reads the index, not every
-- user. pg_trgm is in PostgreSQL's contrib (a trusted extension) and PGlite's; it lives in
-- "public", so one install serves every schema of the database (the tests' schemas too).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower("username" || ' ' || "email" || ' ' || "first_name" || ' ' || "last_name")) public.gin_trgm_ops);
--> statement-breakpoint
-- A group's members by id (the list's group filter): the primary key starts with the user.
CREATE INDEX "user_groups_group_idx" ON "user_groups" USING btree ("group_id", "user_id");
