import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database } from '#server/db/client.ts'
import { conversations, messages, notificationSettings, outbox, users } from '#server/db/schema.ts'
import { messageNoticeMessage } from '#server/mail/message-notice.ts'
import { inQuietHours, NOTICE_AFTER_MS, NOTICE_EVERY_MS } from '#server/messages/rules.ts'
import type { Side } from '#server/messages/repository.ts'
import type { PushNotice } from '#server/push/sender.ts'

/** Conversations looked at per side and tick; the next tick takes the rest. */
const NOTICES_PER_TICK = 100

export type MessageNoticeReport = { sent: number; quiet: number }

/**
 * The e-mails of messages waiting (decision 0085): a recipient with a message unread for 15
 * minutes, from the other of a conversation, newer than the last e-mail about it, is told once,
 * at most once an hour per conversation, unless they turned e-mail off, muted the conversation (a
 * patient) or are in their quiet hours (then at their end). Exactly once whatever the number of
 * processes: the e-mail is queued in the transaction whose conditional update of the conversation's
 * `…_notified_at` claims it, and a second claimant finds the condition false.
 *
 * With `push` (decision 0087), a recipient whose push channel is on is told by Web Push too (or
 * alone, with e-mail off), with the same words, after the claim commits: the same claim makes it
 * once per conversation an hour, whatever the number of processes. A push that fails is not tried
 * again (the e-mail is the channel that waits for delivery).
 */
export async function dispatchMessageNotices(
  db: Database,
  { now, appPublicUrl, push }: { now: number; appPublicUrl: string; push?: (notice: PushNotice) => Promise<unknown> },
): Promise<MessageNoticeReport> {
  const report: MessageNoticeReport = { sent: 0, quiet: 0 }
  for (const side of ['patient', 'professional'] as const) {
    for (const due of await dueNotices(db, side, now)) {
      if (inQuietHours(now, due.recipient.timeZone, due.quiet)) {
        report.quiet += 1
        continue
      }
      const claimed = await claimAndQueue(db, side, due, { now, appPublicUrl })
      if (!claimed) continue
      report.sent += 1
      if (due.push && push) {
        const notice = { userId: due.recipient.id, title: 'Innera', body: claimed.subject, url: claimed.link, tag: `conversation-${due.conversationId}` }
        await push(notice).catch(() => undefined)
      }
    }
  }
  return report
}

type DueNotice = {
  conversationId: number
  recipient: { id: number; email: string; firstName: string; timeZone: string }
  fromFirstName: string
  quiet: { start: string; end: string } | null
  /** The channels on: e-mail unless turned off, push once opted in. */
  email: boolean
  push: boolean
}

const columnsOf = (side: Side) =>
  side === 'patient'
    ? { me: conversations.patientId, other: conversations.professionalId, read: conversations.patientReadId, notified: conversations.patientNotifiedAt }
    : { me: conversations.professionalId, other: conversations.patientId, read: conversations.professionalReadId, notified: conversations.professionalNotifiedAt }

/** One side's conversations with a message due to be told of, with the recipient and their settings. */
async function dueNotices(db: Database, side: Side, now: number): Promise<DueNotice[]> {
  const { me, other, read, notified } = columnsOf(side)
  const recipient = alias(users, 'recipient')
  const sender = alias(users, 'sender')
  const waiting = db
    .select({ one: sql`1` })
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversations.id),
        gt(messages.id, read),
        eq(messages.senderId, other),
        isNull(messages.deletedAt),
        lte(messages.createdAt, new Date(now - NOTICE_AFTER_MS)),
        or(isNull(notified), gt(messages.createdAt, notified)),
      ),
    )
  const rows = await db
    .select({ id: conversations.id, recipient, sender, settings: notificationSettings })
    .from(conversations)
    .innerJoin(recipient, eq(recipient.id, me))
    .innerJoin(sender, eq(sender.id, other))
    .leftJoin(notificationSettings, eq(notificationSettings.userId, me))
    .where(
      and(
        // Something unread at all (a cheap test first: one's own message moves one's own mark).
        gt(conversations.lastMessageId, read),
        or(isNull(notified), lte(notified, new Date(now - NOTICE_EVERY_MS))),
        side === 'patient' ? eq(conversations.patientMuted, false) : undefined,
        eq(recipient.isActive, true),
        or(isNull(notificationSettings.email), eq(notificationSettings.email, true), eq(notificationSettings.push, true)),
        sql`exists (${waiting})`,
      ),
    )
    .orderBy(conversations.id)
    .limit(NOTICES_PER_TICK)
  return rows.map(({ id, recipient, sender, settings }) => ({
    conversationId: id,
    recipient: { id: recipient.id, email: recipient.email, firstName: recipient.firstName, timeZone: recipient.timeZone },
    fromFirstName: sender.firstName,
    quiet: settings?.quietStart && settings.quietEnd ? { start: settings.quietStart, end: settings.quietEnd } : null,
    email: settings ? settings.email : true,
    push: settings ? settings.push : false,
  }))
}

/** Claims the notice (the conversation's mark for that side, if still due) and queues its e-mail (e-mail on), in one transaction; the notice's words, or null when another claimed it. */
async function claimAndQueue(db: Database, side: Side, due: DueNotice, { now, appPublicUrl }: { now: number; appPublicUrl: string }): Promise<{ subject: string; link: string } | null> {
  const { notified } = columnsOf(side)
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(conversations)
      .set(side === 'patient' ? { patientNotifiedAt: new Date(now) } : { professionalNotifiedAt: new Date(now) })
      .where(and(eq(conversations.id, due.conversationId), or(isNull(notified), lte(notified, new Date(now - NOTICE_EVERY_MS)))))
      .returning({ id: conversations.id })
    if (!claimed) return null
    const link = `${appPublicUrl}/mensagens/${due.conversationId}`
    const message = messageNoticeMessage({ to: due.recipient.email, firstName: due.recipient.firstName, fromFirstName: due.fromFirstName, link })
    if (due.email) await tx.insert(outbox).values({ to: message.to, subject: message.subject, textBody: message.text, htmlBody: message.html, createdAt: new Date(now), nextAttemptAt: new Date(now) })
    return { subject: message.subject, link }
  })
}
