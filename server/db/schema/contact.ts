import { boolean, index, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core'
import { createdAt } from '#server/db/schema/columns.ts'

/** What visitors write through the contact form; admins read it and mark it handled. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 150 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    subject: varchar('subject', { length: 20 }).$type<'patient' | 'professional' | 'company' | 'partnership' | 'other'>().notNull(),
    message: text('message').notNull(),
    handled: boolean('handled').notNull().default(false),
    handledAt: timestamp('handled_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('contact_messages_created_idx').on(table.createdAt), index('contact_messages_handled_idx').on(table.handled)],
)
