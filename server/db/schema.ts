/**
 * The database's tables, one file per feature in schema/ (issue 43): accounts (users, groups,
 * sessions), content (pillars, drafts), mail (the outbox), contact, questionnaire, programs,
 * appointments (profiles, schedules, reminders, feeds), calendar (Google's connection and
 * events), habits, commerce (products, carts, purchases, subscriptions, refunds), courses,
 * live classes, messages (conversations, messages, reports), push (subscriptions, VAPID keys), privacy (audit, consents, deletions) and the fakes' own tables. This index is
 * what the code imports and what drizzle is given; the column helpers stay in schema/columns.ts.
 */
export { SLUG_PATTERN, SORT_ORDER_MAX, type LocalizedText } from '#server/db/schema/columns.ts'
export * from '#server/db/schema/accounts.ts'
export * from '#server/db/schema/content.ts'
export * from '#server/db/schema/mail.ts'
export * from '#server/db/schema/contact.ts'
export * from '#server/db/schema/questionnaire.ts'
export * from '#server/db/schema/programs.ts'
export * from '#server/db/schema/appointments.ts'
export * from '#server/db/schema/calendar.ts'
export * from '#server/db/schema/habits.ts'
export * from '#server/db/schema/commerce.ts'
export * from '#server/db/schema/courses.ts'
export * from '#server/db/schema/live-classes.ts'
export * from '#server/db/schema/privacy.ts'
export * from '#server/db/schema/fakes.ts'
export * from '#server/db/schema/messages.ts'
export * from '#server/db/schema/push.ts'
