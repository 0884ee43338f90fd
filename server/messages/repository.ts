import { and, asc, count, desc, eq, gt, inArray, isNull, lt, or, sql, type AnyColumn } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Database, Writer } from '#server/db/client.ts'
import { sessionLookupWith } from '#server/auth/session-users.ts'
import { HOLD_RELEASED_REASON } from '#server/appointments/holds.ts'
import { appointments, conversations, messageAttachments, messageReports, messages, notificationSettings, professionalPatients, questionnaireResults, questionnaireShares, users } from '#server/db/schema.ts'
import { notifyMessageEvent, type MessageEvent } from '#server/messages/bus.ts'
import { ATTACHMENT_DAY_MS, boundsProblem, type AttachmentProblemCode } from '#server/messages/attachment-rules.ts'
import type { PreparedAttachment } from '#server/messages/attachments.ts'
import type { CareFacts } from '#server/messages/rules.ts'
import type { UserRow } from '#server/users/repository.ts'

export type ConversationRow = typeof conversations.$inferSelect
export type MessageRow = typeof messages.$inferSelect
export type { UserRow }
const eventOf = (conversation: ConversationRow): Pick<MessageEvent, 'conversation_id' | 'patient_id' | 'professional_id'> => ({
  conversation_id: conversation.id,
  patient_id: conversation.patientId,
  professional_id: conversation.professionalId,
})

/** Which of the two the caller is in a conversation. */
export type Side = 'patient' | 'professional'

/** What the care-link rule needs about a patient and a professional, in one statement. */
export async function careFactsOf(db: Database, patientId: number, professionalId: number): Promise<CareFacts> {
  const pair = and(eq(appointments.patientId, patientId), eq(appointments.professionalId, professionalId))
  const [row] = await db
    .select({
      booked: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(appointments)
        .where(and(pair, sql`not (${appointments.status} = 'cancelled' and ${appointments.cancellationReason} = ${HOLD_RELEASED_REASON})`))})`,
      anyAppointment: sql<boolean>`exists (${db.select({ one: sql`1` }).from(appointments).where(pair)})`,
      shared: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(questionnaireShares)
        .innerJoin(questionnaireResults, eq(questionnaireResults.id, questionnaireShares.resultId))
        .where(and(eq(questionnaireResults.userId, patientId), eq(questionnaireShares.professionalId, professionalId)))})`,
      listed: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(professionalPatients)
        .where(and(eq(professionalPatients.patientId, patientId), eq(professionalPatients.professionalId, professionalId)))})`,
    })
    .from(sql`(select 1) as one`)
  return { booked: Boolean(row?.booked), anyAppointment: Boolean(row?.anyAppointment), shared: Boolean(row?.shared), listed: Boolean(row?.listed) }
}

/** The pair's conversation, made now if it is not there yet: the unique index decides two starting it at once. */
export async function openConversation(db: Database, patientId: number, professionalId: number): Promise<{ conversation: ConversationRow; created: boolean }> {
  const [created] = await db.insert(conversations).values({ patientId, professionalId }).onConflictDoNothing().returning()
  if (created) return { conversation: created, created: true }
  const [existing] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.patientId, patientId), eq(conversations.professionalId, professionalId)))
  return { conversation: existing!, created: false }
}

/** A conversation with the caller as one of its two, and which one; undefined for anyone else. */
export async function conversationOf(db: Writer, id: number, userId: number): Promise<{ conversation: ConversationRow; side: Side } | undefined> {
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.id, id), or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId))))
  if (!conversation) return undefined
  return { conversation, side: conversation.patientId === userId ? 'patient' : 'professional' }
}

const sideColumn = (side: Side) => (side === 'patient' ? conversations.patientId : conversations.professionalId)
const readColumn = (side: Side) => (side === 'patient' ? conversations.patientReadId : conversations.professionalReadId)

/** Messages a side has not seen: from the other, after its read mark, not deleted. */
const unreadOf = (side: Side, userId: number) =>
  sql<number>`(select count(*)::int from ${messages} m where m.conversation_id = ${conversations.id} and m.id > ${readColumn(side)} and m.sender_id is distinct from ${userId} and m.deleted_at is null)`

export async function countConversationsOf(db: Database, userId: number, side: Side): Promise<number> {
  const [row] = await db.select({ total: count() }).from(conversations).where(eq(sideColumn(side), userId))
  return row?.total ?? 0
}

export type ConversationListItem = { conversation: ConversationRow; other: UserRow; last: MessageRow | null; unread: number }

/**
 * A page of the caller's conversations, the most recent message first (a conversation with none
 * yet by when it was started), each with the other person, its last message and the caller's unread count.
 */
export async function conversationsPage(db: Database, userId: number, side: Side, { limit, offset }: { limit: number; offset: number }): Promise<ConversationListItem[]> {
  const other = alias(users, 'other')
  const last = alias(messages, 'last')
  const rows = await db
    .select({ conversation: conversations, other, last, unread: unreadOf(side, userId) })
    .from(conversations)
    .innerJoin(other, eq(other.id, side === 'patient' ? conversations.professionalId : conversations.patientId))
    .leftJoin(last, eq(last.id, conversations.lastMessageId))
    .where(eq(sideColumn(side), userId))
    .orderBy(sql`${conversations.lastMessageAt} desc nulls last`, desc(conversations.id))
    .limit(limit)
    .offset(offset)
  return rows.map((row) => ({ conversation: row.conversation, other: row.other, last: row.last, unread: row.unread }))
}

/** The messages (joined with their conversation) that wait unread for the user of a `users` row's id column. */
const unreadBy = (userId: AnyColumn) =>
  and(
    or(
      and(eq(conversations.patientId, userId), gt(messages.id, conversations.patientReadId)),
      and(eq(conversations.professionalId, userId), gt(messages.id, conversations.professionalReadId)),
    ),
    sql`${messages.senderId} is distinct from ${userId}`,
    isNull(messages.deletedAt),
  )

/**
 * The session lookup of `/messages/unread/`, asked on every member page: the caller and how many
 * messages wait unread for them in all their conversations (`extra`, the navigation's count), in
 * one statement, as the professional's home reads its context.
 */
export const findSessionUserWithUnread = sessionLookupWith(
  'session_user_with_unread',
  sql<number>`(select count(*)::int from ${messages} inner join ${conversations} on ${eq(conversations.id, messages.conversationId)} where ${unreadBy(users.id)})`,
)

/**
 * One page of a thread by keyset: the `limit` messages before `before` (the newest when absent),
 * oldest first, and whether older ones remain. Never an offset: a page 9,000 messages back costs
 * what the newest does (the index on conversation and id).
 */
export async function threadPage(db: Database, conversationId: number, { before, limit }: { before?: number; limit: number }): Promise<{ messages: MessageRow[]; hasOlder: boolean }> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), before === undefined ? undefined : lt(messages.id, before)))
    .orderBy(desc(messages.id))
    .limit(limit + 1)
  return { messages: rows.slice(0, limit).reverse(), hasOlder: rows.length > limit }
}

export async function findMessageByKey(db: Writer, senderId: number, key: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.senderId, senderId), eq(messages.idempotencyKey, key)))
  return row
}

/** A message's files would pass one of the sender's bounds (decision 0086): nothing was written. */
export class AttachmentBoundsError extends Error {
  constructor(readonly code: AttachmentProblemCode) {
    super(code)
    this.name = 'AttachmentBoundsError'
  }
}

/**
 * Writes a message with its files and moves its conversation's last message and the sender's read
 * mark, in one transaction. A key the sender used already is that message again (`created` false),
 * whoever won, and no file is written twice. The sender's bounds (files in 24 hours, bytes stored)
 * are counted under a lock on their user row, so two sends at once cannot both pass the last room:
 * past a bound, AttachmentBoundsError and nothing written.
 */
export async function insertMessage(
  db: Database,
  { conversation, senderId, side, body, key, now, attachments = [] }: { conversation: ConversationRow; senderId: number; side: Side; body: string; key?: string; now: Date; attachments?: PreparedAttachment[] },
): Promise<{ message: MessageRow; created: boolean }> {
  const conversationId = conversation.id
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(messages)
      .values({ conversationId, senderId, body, createdAt: now, idempotencyKey: key ?? null, attachmentCount: attachments.length })
      .onConflictDoNothing()
      .returning()
    if (!created) return { message: (await findMessageByKey(tx, senderId, key!))!, created: false }
    if (attachments.length > 0) {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, senderId)).for('no key update')
      const problem = boundsProblem({ ...(await attachmentUsageOf(tx, senderId, now.getTime())), adding: attachments.length, addingBytes: attachments.reduce((sum, file) => sum + file.size, 0) })
      if (problem) throw new AttachmentBoundsError(problem)
      await tx.insert(messageAttachments).values(
        attachments.map((file, position) => ({ messageId: created.id, conversationId, uploaderId: senderId, position, name: file.name, contentType: file.contentType, size: file.size, width: file.width, height: file.height, bytes: file.bytes, createdAt: now })),
      )
    }
    await tx
      .update(conversations)
      .set({ lastMessageId: created.id, lastMessageAt: now, [side === 'patient' ? 'patientReadId' : 'professionalReadId']: created.id })
      .where(eq(conversations.id, conversationId))
    await notifyMessageEvent(tx, { ...eventOf(conversation), kind: 'message', message_id: created.id })
    return { message: created, created: true }
  })
}

/** What a sender used of their bounds at `nowMs`: files sent in the last 24 hours, bytes stored. */
export async function attachmentUsageOf(db: Writer, uploaderId: number, nowMs: number): Promise<{ sentToday: number; storedBytes: number }> {
  const [row] = await db
    .select({
      sentToday: sql<number>`count(*) filter (where ${messageAttachments.createdAt} > ${new Date(nowMs - ATTACHMENT_DAY_MS)})`.mapWith(Number),
      storedBytes: sql<number>`coalesce(sum(${messageAttachments.size}), 0)`.mapWith(Number),
    })
    .from(messageAttachments)
    .where(eq(messageAttachments.uploaderId, uploaderId))
  return { sentToday: row?.sentToday ?? 0, storedBytes: row?.storedBytes ?? 0 }
}

/** An attachment as a thread lists it: everything but its bytes. */
const attachmentColumns = {
  id: messageAttachments.id,
  messageId: messageAttachments.messageId,
  position: messageAttachments.position,
  name: messageAttachments.name,
  contentType: messageAttachments.contentType,
  size: messageAttachments.size,
  width: messageAttachments.width,
  height: messageAttachments.height,
}
export type AttachmentMeta = { id: number; messageId: number; position: number; name: string; contentType: string; size: number; width: number | null; height: number | null }

/** The files of these messages (those that have some and are not deleted), without their bytes, by message. */
export async function attachmentsOf(db: Writer, rows: readonly MessageRow[]): Promise<Map<number, AttachmentMeta[]>> {
  const ids = rows.filter((row) => row.attachmentCount > 0 && row.deletedAt === null).map((row) => row.id)
  const byMessage = new Map<number, AttachmentMeta[]>()
  if (ids.length === 0) return byMessage
  const found = await db.select(attachmentColumns).from(messageAttachments).where(inArray(messageAttachments.messageId, ids)).orderBy(asc(messageAttachments.messageId), asc(messageAttachments.position))
  for (const attachment of found) byMessage.set(attachment.messageId, [...(byMessage.get(attachment.messageId) ?? []), attachment])
  return byMessage
}

/** One attachment with its bytes and the two of its conversation (who may see it), or undefined. */
export async function findAttachmentToServe(db: Database, id: number) {
  const [row] = await db
    .select({ attachment: messageAttachments, patientId: conversations.patientId, professionalId: conversations.professionalId, deletedAt: messages.deletedAt })
    .from(messageAttachments)
    .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
    .innerJoin(conversations, eq(conversations.id, messageAttachments.conversationId))
    .where(eq(messageAttachments.id, id))
  return row
}

/** The files one person sent, deleted (their account's deletion): the other side keeps the messages' text. */
export async function deleteAttachmentsOf(db: Writer, uploaderId: number): Promise<number> {
  const gone = await db.delete(messageAttachments).where(eq(messageAttachments.uploaderId, uploaderId)).returning({ id: messageAttachments.id })
  return gone.length
}

/** Moves a side's read mark up to `upTo` (never back, never past the last message); the mark now. The other side hears of a move. */
export async function markRead(db: Database, conversation: ConversationRow, side: Side, upTo: number): Promise<number> {
  const column = readColumn(side)
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ mark: column }).from(conversations).where(eq(conversations.id, conversation.id)).for('update')
    const [row] = await tx
      .update(conversations)
      .set({ [side === 'patient' ? 'patientReadId' : 'professionalReadId']: sql`greatest(${column}, least(${upTo}, coalesce(${conversations.lastMessageId}, 0)))` })
      .where(eq(conversations.id, conversation.id))
      .returning({ mark: column })
    const mark = row?.mark ?? 0
    if (before && mark !== before.mark) await notifyMessageEvent(tx, { ...eventOf(conversation), kind: 'read' })
    return mark
  })
}

/** The other side's read mark: the caller's messages up to it were seen ("Lida"). */
export const otherReadMark = (conversation: ConversationRow, side: Side) => (side === 'patient' ? conversation.professionalReadId : conversation.patientReadId)

/** Empties a message its sender deletes within the window (its files deleted); the row, or undefined when it cannot be. */
export async function deleteOwnMessage(db: Database, { messageId, conversation, senderId, since, now }: { messageId: number; conversation: ConversationRow; senderId: number; since: Date; now: Date }): Promise<MessageRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ body: '', deletedAt: now })
      .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversation.id), eq(messages.senderId, senderId), isNull(messages.deletedAt), gt(messages.createdAt, since)))
      .returning()
    if (row) {
      // Its files go with its text (decision 0086): no link to them works any more.
      await tx.delete(messageAttachments).where(eq(messageAttachments.messageId, row.id))
      await notifyMessageEvent(tx, { ...eventOf(conversation), kind: 'changed', message_id: row.id })
    }
    return row
  })
}

export async function findMessage(db: Writer, conversationId: number, messageId: number): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)))
  return row
}

export async function setClosed(db: Database, conversationId: number, closedAt: Date | null): Promise<ConversationRow> {
  const [row] = await db.update(conversations).set({ closedAt }).where(eq(conversations.id, conversationId)).returning()
  return row!
}

export async function setMuted(db: Database, conversationId: number, muted: boolean): Promise<ConversationRow> {
  const [row] = await db.update(conversations).set({ patientMuted: muted }).where(eq(conversations.id, conversationId)).returning()
  return row!
}

/** A new appointment between the two reopens their conversation, if the professional had closed it. */
export async function reopenConversationOf(db: Writer, patientId: number, professionalId: number): Promise<void> {
  await db
    .update(conversations)
    .set({ closedAt: null })
    .where(and(eq(conversations.patientId, patientId), eq(conversations.professionalId, professionalId), sql`${conversations.closedAt} is not null`))
}

/** A report of one message by one of the two (once per message and reporter); the report, new or as made before. */
export async function reportMessage(db: Database, { message, reporterId, reason, now }: { message: MessageRow; reporterId: number; reason: string; now: Date }) {
  const [created] = await db
    .insert(messageReports)
    .values({ messageId: message.id, reporterId, reason, reportedText: message.body, createdAt: now })
    .onConflictDoNothing()
    .returning()
  if (created) return { report: created, created: true }
  const [existing] = await db
    .select()
    .from(messageReports)
    .where(and(eq(messageReports.messageId, message.id), eq(messageReports.reporterId, reporterId)))
  return { report: existing!, created: false }
}

export type ReportRow = typeof messageReports.$inferSelect

export async function countReports(db: Database, open: boolean): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(messageReports)
    .where(open ? isNull(messageReports.handledAt) : sql`${messageReports.handledAt} is not null`)
  return row?.total ?? 0
}

/** A page of the admins' queue: open reports oldest first, or handled ones newest first. Each with who reported and who wrote it. */
export async function reportsPage(db: Database, open: boolean, { limit, offset }: { limit: number; offset: number }) {
  const reporter = alias(users, 'reporter')
  const author = alias(users, 'author')
  return db
    .select({ report: messageReports, reporter, author, sentAt: messages.createdAt })
    .from(messageReports)
    .innerJoin(messages, eq(messages.id, messageReports.messageId))
    .innerJoin(reporter, eq(reporter.id, messageReports.reporterId))
    .leftJoin(author, eq(author.id, messages.senderId))
    .where(open ? isNull(messageReports.handledAt) : sql`${messageReports.handledAt} is not null`)
    .orderBy(...(open ? [messageReports.createdAt, messageReports.id] : [desc(messageReports.handledAt), desc(messageReports.id)]))
    .limit(limit)
    .offset(offset)
}

/**
 * An admin's decision on an open report, in one transaction with its audit entry: dismissed, or the
 * message removed (emptied for both, shown as removed by the moderation). Undefined when the report
 * is not open (handled meanwhile by another admin) or does not exist.
 */
export async function resolveReport(db: Database, { reportId, outcome, adminId, now, audit }: { reportId: number; outcome: 'dismissed' | 'removed'; adminId: number; now: Date; audit: (tx: Writer, report: ReportRow) => Promise<void> }): Promise<ReportRow | undefined> {
  return db.transaction(async (tx) => {
    const [report] = await tx
      .update(messageReports)
      .set({ handledAt: now, handledBy: adminId, outcome })
      .where(and(eq(messageReports.id, reportId), isNull(messageReports.handledAt)))
      .returning()
    if (!report) return undefined
    if (outcome === 'removed') {
      const [removed] = await tx
        .update(messages)
        .set({ body: '', deletedAt: now, removedByAdmins: true })
        .where(and(eq(messages.id, report.messageId), isNull(messages.deletedAt)))
        .returning({ conversationId: messages.conversationId })
      if (removed) await tx.delete(messageAttachments).where(eq(messageAttachments.messageId, report.messageId))
      const [conversation] = removed ? await tx.select().from(conversations).where(eq(conversations.id, removed.conversationId)) : []
      if (conversation) await notifyMessageEvent(tx, { ...eventOf(conversation), kind: 'changed', message_id: report.messageId })
      // Every open report of that message is answered by this one decision.
      await tx
        .update(messageReports)
        .set({ handledAt: now, handledBy: adminId, outcome })
        .where(and(eq(messageReports.messageId, report.messageId), isNull(messageReports.handledAt)))
    }
    await audit(tx, report)
    return report
  })
}

export type NotificationSettings = { email: boolean; push: boolean; quiet: { start: string; end: string } | null }

/** A user's notification settings, the defaults when they never saved any: e-mail on, push off, no quiet hours. */
export async function notificationSettingsOf(db: Database, userId: number): Promise<NotificationSettings> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId))
  return { email: row?.email ?? true, push: row?.push ?? false, quiet: row?.quietStart && row.quietEnd ? { start: row.quietStart, end: row.quietEnd } : null }
}

export async function saveNotificationSettings(db: Database, userId: number, settings: NotificationSettings, now: Date): Promise<void> {
  const values = { email: settings.email, push: settings.push, quietStart: settings.quiet?.start ?? null, quietEnd: settings.quiet?.end ?? null, updatedAt: now }
  await db.insert(notificationSettings).values({ userId, ...values }).onConflictDoUpdate({ target: notificationSettings.userId, set: values })
}

/** A user's messages after `after` in all their conversations, oldest first, each with its conversation: a stream's catch-up. */
export async function messagesForUserAfter(db: Database, userId: number, after: number, limit: number, conversationId?: number): Promise<{ message: MessageRow; conversation: ConversationRow }[]> {
  return db
    .select({ message: messages, conversation: conversations })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .where(and(or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId)), gt(messages.id, after), conversationId === undefined ? undefined : eq(messages.conversationId, conversationId)))
    .orderBy(messages.id)
    .limit(limit)
}

/** The newest message id of a user's conversations, or of one of them (0 with none): where a stream with no cursor starts. */
export async function latestMessageIdOf(db: Database, userId: number, conversationId?: number): Promise<number> {
  const [row] = await db
    .select({ id: sql<number | null>`max(${conversations.lastMessageId})` })
    .from(conversations)
    .where(and(or(eq(conversations.patientId, userId), eq(conversations.professionalId, userId)), conversationId === undefined ? undefined : eq(conversations.id, conversationId)))
  return Number(row?.id ?? 0)
}

export async function findConversation(db: Database, id: number): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id))
  return row
}
