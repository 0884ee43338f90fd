import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { products, subscriptions, users } from '#server/db/schema.ts'
import { escapeHtml } from '#server/http/html.ts'
import { habitReminderMessage } from '#server/habits/reminders.ts'
import { liveClassCancelledMessage, liveClassMovedMessage } from '#server/live-classes/notices.ts'
import { liveClassReminder } from '#server/live-classes/reminders.ts'
import { receiptMail, refundMail } from '#server/purchases/messages.ts'
import { subscriptionMail, type SubscriptionMailKind } from '#server/subscriptions/messages.ts'
import { createMemoryDatabase } from '#server/testing/harness.ts'
import { appointmentMessage, type AppointmentMailKind } from '#server/mail/appointment-messages.ts'
import { contactNotificationMessage } from '#server/mail/contact-notification.ts'
import { accountExistsMessage, confirmationMessage, type MailMessage, passwordResetMessage } from '#server/mail/messages.ts'

/**
 * Issue 41: the HTML part of every e-mail the provider sends is a whole document in its reader's
 * language, with the text part beside it. Every message the provider writes is here, each kind
 * of each. All are written in Brazilian Portuguese (the house style: an English line beneath,
 * marked lang="en"); the product keeps no other language for a recipient.
 */

const start = new Date('2026-12-02T12:00:00Z')
const person = { email: 'ana@example.com', firstName: 'Ana', timeZone: 'America/Manaus' }
const link = 'http://app.test/x'

const APPOINTMENT_KINDS: AppointmentMailKind[] = ['confirmation', 'reminder_24h', 'reminder_1h', 'moved', 'cancelled']
const SUBSCRIPTION_KINDS: SubscriptionMailKind[] = ['pix_reminder', 'lapsed', 'renewal_failed', 'ended_unpaid', 'price_change', 'price_change_withdrawn']

const pureMessages = (): [string, MailMessage][] => [
  ['confirmation', confirmationMessage({ to: person.email, firstName: 'Ana', link })],
  ['password reset', passwordResetMessage({ to: person.email, firstName: 'Ana', link })],
  ['account exists', accountExistsMessage({ to: person.email, firstName: 'Ana', link })],
  ...APPOINTMENT_KINDS.map((kind): [string, MailMessage] => [`appointment ${kind}`, appointmentMessage({ kind, to: person, otherFirstName: 'Paula', start, previousStart: new Date('2026-12-01T12:00:00Z'), link })]),
  ['contact notification', contactNotificationMessage({ id: 3, name: 'Ana <b>', email: 'ana@example.com', phone: '', subject: 'patient', message: 'Olá\ntudo bem?', adminUrl: 'http://app.test/admin/messages' })],
  ['receipt', receiptMail({ to: person.email, firstName: 'Ana', purchaseId: 7, method: 'pix', totalCents: 19_700, paidAt: start, items: [{ name: { pt: 'Curso', en: 'Course', es: 'Curso' }, quantity: 1 }], timeZone: person.timeZone, appUrl: 'http://app.test' })],
  ['refund', refundMail({ to: person.email, firstName: 'Ana', purchaseId: 7, method: 'card', amountCents: 19_700, reason: 'cancel', appUrl: 'http://app.test' })],
  ...(['24h', '15m'] as const).map((kind): [string, MailMessage] => [`live class reminder ${kind}`, liveClassReminder(kind, { to: person, title: 'Yoga "para" <dormir>', teacherFirstName: 'Paula', startsAt: start, link })]),
  ['live class moved', liveClassMovedMessage({ to: person, title: 'Yoga', teacherFirstName: 'Paula', startsAt: start, durationMinutes: 60, previousStartsAt: new Date('2026-12-01T12:00:00Z'), link })],
  ['live class cancelled', liveClassCancelledMessage({ to: person, title: 'Yoga', teacherFirstName: 'Paula', startsAt: start, link })],
  ['habit reminder', habitReminderMessage({ to: person.email, firstName: 'Ana', reminderTime: '08:00', link })],
]

const WHOLE_DOCUMENT = /^<!doctype html>\n<html lang="([^"]+)">\n<head>\n<meta charset="utf-8">\n<title>([^<]*)<\/title>\n<\/head>\n<body>\n([\s\S]*)\n<\/body>\n<\/html>\n$/

/** Checks one message: its HTML part a whole pt-BR document titled with its subject, its text part plain text. */
function expectWholeDocument(name: string, message: MailMessage) {
  const match = WHOLE_DOCUMENT.exec(message.html)
  expect(match, `${name}: ${message.html.slice(0, 80)}`).not.toBeNull()
  const [, lang, title, body] = match!
  expect(lang, name).toBe('pt-BR')
  expect(title, name).toBe(escapeHtml(message.subject))
  expect(body, name).toMatch(/^<p>/)
  expect(body, name).not.toMatch(/<\/?(html|head|body|title|meta)\b/)
  // The English line keeps its own language inside the Portuguese document.
  expect(body, name).toMatch(/<p lang="en">/)
  // The text part is still there, beside it, and still text.
  expect(message.text.length, name).toBeGreaterThan(0)
  expect(message.text, name).not.toMatch(/<\/?(p|a|html|body)\b/)
}

describe('every e-mail’s HTML part', () => {
  it('is a whole document in the recipient’s language, with the text part beside it', () => {
    const messages = pureMessages()
    expect(messages).toHaveLength(16)
    for (const [name, message] of messages) expectWholeDocument(name, message)
  })

  describe('the subscription messages (read from the database)', () => {
    let database: DatabaseHandle
    beforeAll(async () => {
      database = await createMemoryDatabase()
    })
    afterAll(async () => {
      await database.close()
    })

    it('are whole documents too, every kind', async () => {
      const db = database.db
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
      const [product] = await db.select({ id: products.id }).from(products).limit(1)
      // A real row (its columns' defaults included), read back as the billing jobs read it.
      const [subscription] = await db
        .insert(subscriptions)
        .values({ userId: user!.id, productId: product!.id, method: 'pix', status: 'active', priceCents: 4990, idempotencyKey: 'message-documents', currentPeriodStart: new Date('2026-11-02T12:00:00Z'), currentPeriodEnd: start, nextPriceCents: 5990, nextPriceFrom: start })
        .returning()
      for (const kind of SUBSCRIPTION_KINDS) {
        const message = await subscriptionMail(db, { kind, subscription: subscription!, appUrl: 'http://app.test' })
        expect(message, kind).toBeDefined()
        expectWholeDocument(`subscription ${kind}`, message!)
      }
    })
  })
})
