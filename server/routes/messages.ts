import { streamSSE } from 'hono/streaming'
import { z } from 'zod'
import { authenticate, roleOf, type Caller } from '#server/auth/authenticate.ts'
import { idParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields, readRequestData } from '#server/http/body.ts'
import { apiError, fieldError, notFound, permissionDenied } from '#server/http/errors.ts'
import { booleanField, charField, idempotencyKeyField, idField, integerField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { signedAttachmentMedia, mediaSigningKey } from '#server/media/signed-urls.ts'
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE, PROBLEM_DETAIL, PROBLEM_STATUS, boundsProblem, type AttachmentProblemCode } from '#server/messages/attachment-rules.ts'
import { prepareAttachment, type PreparedAttachment } from '#server/messages/attachments.ts'
import {
  AttachmentBoundsError,
  attachmentsOf,
  attachmentUsageOf,
  careFactsOf,
  conversationOf,
  conversationsPage,
  countConversationsOf,
  deleteOwnMessage,
  findMessage,
  findMessageByKey,
  findConversation,
  latestMessageIdOf,
  messagesForUserAfter,
  insertMessage,
  markRead,
  notificationSettingsOf,
  openConversation,
  otherReadMark,
  reportMessage,
  saveNotificationSettings,
  setClosed,
  setMuted,
  threadPage,
  findSessionUserWithUnread,
  type ConversationRow,
  type MessageRow,
  type NotificationSettings,
  type Side,
} from '#server/messages/repository.ts'
import { DELETE_WINDOW_MS, hasCareLink, messageText } from '#server/messages/rules.ts'
import { serializeConversation, serializeConversationItem, serializeMessage } from '#server/messages/serializers.ts'
import type { MessageEvent } from '#server/messages/bus.ts'
import type { Services } from '#server/services.ts'
import { findUserById, groupNamesOf } from '#server/users/repository.ts'
import { enforceThrottle } from '#server/routes/throttling.ts'

/** A stream lives at most this long (an access token's life): the client opens it again with its cursor. */
export const STREAM_MAX_MS = 5 * 60_000
const STREAM_HEARTBEAT_MS = 25_000
/** Messages one flush of a stream sends at most; the next event or reconnect sends the rest. */
const STREAM_BATCH = 200
const streamSchema = z.object({ after: integerField({ min: 0, max: Number.MAX_SAFE_INTEGER }).optional(), conversation: idField().optional() })

/** A thread's page: this many messages (the newest, or those before a cursor). */
export const THREAD_PAGE_SIZE = 30
const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const CLOSED = 'This conversation is closed: it can be read, not written to, until a new appointment.'
const TOO_LATE_TO_DELETE = `A message can be deleted by its sender within ${DELETE_WINDOW_MS / 60_000} minutes.`

/** A message's text; with files (`blankAllowed`) it may be blank (missing is read as blank), and is then empty. */
const textField = ({ blankAllowed = false } = {}) =>
  z.unknown().transform((value, context) => {
    if (blankAllowed && typeof value === 'string' && value.trim() === '') return ''
    if (typeof value !== 'string') {
      context.addIssue({ code: 'custom', message: value === undefined ? 'This field is required.' : value === null ? 'This field may not be null.' : 'Not a valid string.' })
      return z.NEVER
    }
    const checked = messageText(value)
    if ('problem' in checked) {
      context.addIssue({ code: 'custom', message: checked.problem })
      return z.NEVER
    }
    return checked.text
  })

const startSchema = z.object({ with: idField() })
const sendSchema = z.object({ text: textField(), idempotency_key: idempotencyKeyField().optional() })
const sendWithFilesSchema = z.object({ text: textField({ blankAllowed: true }), idempotency_key: idempotencyKeyField().optional() })

/** A refusal of a message's files (decision 0086): 413 or 422, its code, and which file (its place among those sent) when one is to blame. */
const attachmentRefusal = (code: AttachmentProblemCode, index?: number) => apiError(PROBLEM_STATUS[code], PROBLEM_DETAIL[code], { code, ...(index !== undefined && { attachment: index }) })
const readSchema = z.object({ up_to: idField() })
const reportSchema = z.object({ reason: charField({ maxLength: 1000 }) })
const closeSchema = z.object({ closed: booleanField() })
const muteSchema = z.object({ muted: booleanField() })
const beforeSchema = z.object({ before: idField().optional(), mark_read: booleanField().optional() })
const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$/
const settingsSchema = z
  .object({
    email: booleanField(),
    push: booleanField(),
    quiet_start: z.union([z.literal(''), z.null(), charField({ maxLength: 5 }).regex(CLOCK, 'Enter a time as HH:MM.')]).optional(),
    quiet_end: z.union([z.literal(''), z.null(), charField({ maxLength: 5 }).regex(CLOCK, 'Enter a time as HH:MM.')]).optional(),
  })
  .superRefine((value, context) => {
    const start = value.quiet_start || null
    const end = value.quiet_end || null
    if ((start === null) !== (end === null)) context.addIssue({ code: 'custom', path: [start === null ? 'quiet_start' : 'quiet_end'], message: 'Quiet hours need a start and an end.' })
    else if (start !== null && start === end) context.addIssue({ code: 'custom', path: ['quiet_end'], message: 'The end must differ from the start.' })
  })

const serializeSettings = ({ email, push, quiet }: NotificationSettings) => ({ email, push, quiet_start: quiet?.start ?? null, quiet_end: quiet?.end ?? null })

/** The side a caller talks from; admins never read messages (decision 0085). */
function sideOf(caller: Caller): Side {
  const role = roleOf(caller.groups)
  if (role === 'admin') throw permissionDenied()
  return role === 'profissional' ? 'professional' : 'patient'
}

/**
 * Messages between a patient and their professional (issue 44, decision 0085; docs/product.md
 * §4 "Messages"): a conversation per pair with a care link, its thread by keyset pages, read marks, a
 * sender's delete within 15 minutes, the professional's close, the patient's mute, and a report
 * of one message to the admins. Anyone but the two gets 404 for a conversation, as for none.
 */
export function registerMessageRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const photoBase = config.providerPublicUrl
  const mediaKey = mediaSigningKey(config.jwtSecret)

  /** The caller, their side, and the conversation in the path if they are one of its two (else 404). */
  async function conversationFor(c: AppContext) {
    const caller = await authenticate(c, services)
    const side = sideOf(caller)
    const found = await conversationOf(db, idParam(c, 'id'), caller.user.id)
    if (!found) throw notFound()
    return { caller, side, conversation: found.conversation }
  }

  const otherOf = async (conversation: ConversationRow, side: Side) => (await findUserById(db, side === 'patient' ? conversation.professionalId : conversation.patientId))!

  /** Messages as the caller sees them, each with its files and their links signed for the caller, now. */
  const messagesFor = async (caller: Caller, conversation: ConversationRow, side: Side, rows: readonly MessageRow[]) => {
    const files = await attachmentsOf(db, rows)
    const now = clock()
    const link = (attachmentId: number) => signedAttachmentMedia(photoBase, attachmentId, caller.user.id, mediaKey, now)
    return rows.map((message) => serializeMessage(message, { userId: caller.user.id, otherReadId: otherReadMark(conversation, side), now, attachments: files.get(message.id), link }))
  }
  const messageFor = (caller: Caller, conversation: ConversationRow, side: Side) => async (message: MessageRow) => (await messagesFor(caller, conversation, side, [message]))[0]!

  api.endpoint('/messages/conversations/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const side = sideOf(caller)
      const page = paginate(c, await countConversationsOf(db, caller.user.id, side))
      const items = await conversationsPage(db, caller.user.id, side, page)
      return c.json(page.envelope(items.map((item) => serializeConversationItem(item, side, caller.user.id, photoBase))), 200, PRIVATE)
    },
    // Either of the two may start it; the second start is the same conversation. No care link: 404.
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const side = sideOf(caller)
      const { with: otherId } = validate(startSchema, await readFields(c.req.raw))
      const other = await findUserById(db, otherId)
      const otherRole = other && other.isActive ? roleOf(await groupNamesOf(db, other.id)) : undefined
      if (!other || otherRole !== (side === 'patient' ? 'profissional' : 'paciente')) throw notFound()
      const [patientId, professionalId] = side === 'patient' ? [caller.user.id, other.id] : [other.id, caller.user.id]
      if (!hasCareLink(await careFactsOf(db, patientId, professionalId))) throw notFound()
      const { conversation, created } = await openConversation(db, patientId, professionalId)
      return c.json(serializeConversation(conversation, side, other, photoBase), created ? 201 : 200, PRIVATE)
    },
  })

  // How the caller hears of messages waiting: e-mail, push, quiet hours in their time zone (decision 0085).
  api.endpoint('/users/me/notification-settings/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      return c.json(serializeSettings(await notificationSettingsOf(db, caller.user.id)), 200, PRIVATE)
    },
    PUT: async (c) => {
      const caller = await authenticate(c, services)
      const input = validate(settingsSchema, await readFields(c.req.raw))
      const quiet = input.quiet_start && input.quiet_end ? { start: input.quiet_start, end: input.quiet_end } : null
      await saveNotificationSettings(db, caller.user.id, { email: input.email, push: input.push, quiet }, new Date(clock()))
      return c.json(serializeSettings(await notificationSettingsOf(db, caller.user.id)), 200, PRIVATE)
    },
  })

  api.endpoint('/messages/unread/', {
    GET: async (c) => {
      const caller = await authenticate(c, services, findSessionUserWithUnread)
      sideOf(caller)
      return c.json({ unread: caller.extra }, 200, PRIVATE)
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/', {
    GET: async (c) => {
      const { caller, side, conversation } = await conversationFor(c)
      const { before, mark_read: markNewest } = validate(beforeSchema, { before: c.req.query('before') || undefined, mark_read: c.req.query('mark_read') || undefined })
      const [other, page] = await Promise.all([otherOf(conversation, side), threadPage(db, conversation.id, { before, limit: THREAD_PAGE_SIZE })])
      // `mark_read` on the newest page: the caller has now seen its newest message (one call for
      // the page that opens a thread, instead of a read after the read; decision 0088).
      const newest = page.messages.at(-1)
      if (markNewest && before === undefined && newest) await markRead(db, conversation, side, newest.id)
      return c.json(
        {
          conversation: serializeConversation(conversation, side, other, photoBase),
          messages: await messagesFor(caller, conversation, side, page.messages),
          // The cursor of the page before this one: its oldest message's id.
          older: page.hasOlder ? page.messages[0]!.id : null,
        },
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/messages/', {
    // JSON or a form; multipart with up to five files under `attachments` (decision 0086), the text then optional.
    POST: async (c) => {
      const { caller, side, conversation } = await conversationFor(c)
      const data = await readRequestData(c.req.raw)
      const files = data.fileLists.attachments ?? []
      if (files.length > MAX_ATTACHMENTS_PER_MESSAGE) throw attachmentRefusal('too_many_attachments')
      const oversized = files.findIndex((file) => file.size > MAX_ATTACHMENT_BYTES)
      if (oversized >= 0) throw attachmentRefusal('attachment_too_large', oversized)
      const input = files.length > 0 ? validate(sendWithFilesSchema, { text: '', ...data.fields }) : validate(sendSchema, data.fields)
      const key = input.idempotency_key
      const reply = messageFor(caller, conversation, side)
      // The same form again (its answer lost): the message it sent, nothing sent twice.
      const earlier = key === undefined ? undefined : await findMessageByKey(db, caller.user.id, key)
      if (earlier && earlier.conversationId === conversation.id) return c.json(await reply(earlier), 200, PRIVATE)
      if (conversation.closedAt !== null) throw apiError(400, CLOSED, { code: 'conversation_closed' })
      await enforceThrottle(services, 'messagePerUser', String(caller.user.id))
      const now = clock()
      const attachments: PreparedAttachment[] = []
      if (files.length > 0) {
        // Said before any image is decoded; counted again, for certain, where the message is written.
        const early = boundsProblem({ ...(await attachmentUsageOf(db, caller.user.id, now)), adding: files.length, addingBytes: files.reduce((sum, file) => sum + file.size, 0) })
        if (early) throw attachmentRefusal(early)
        for (const [index, file] of files.entries()) {
          const prepared = await prepareAttachment(file)
          if ('problem' in prepared) throw attachmentRefusal(prepared.problem, index)
          attachments.push(prepared)
        }
      }
      let sent: Awaited<ReturnType<typeof insertMessage>>
      try {
        sent = await insertMessage(db, { conversation, senderId: caller.user.id, side, body: input.text, key, now: new Date(now), attachments })
      } catch (error) {
        if (error instanceof AttachmentBoundsError) throw attachmentRefusal(error.code)
        throw error
      }
      const { message, created } = sent
      if (message.conversationId !== conversation.id) throw fieldError('idempotency_key', 'This key was used for a message in another conversation.')
      return c.json(await reply(message), created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/read/', {
    POST: async (c) => {
      const { side, conversation } = await conversationFor(c)
      const { up_to: upTo } = validate(readSchema, await readFields(c.req.raw))
      return c.json({ read_up_to: await markRead(db, conversation, side, upTo) }, 200, PRIVATE)
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/messages/:message{[0-9]+}/delete/', {
    POST: async (c) => {
      const { caller, side, conversation } = await conversationFor(c)
      const message = await findMessage(db, conversation.id, idParam(c, 'message'))
      if (!message) throw notFound()
      if (message.senderId !== caller.user.id) throw permissionDenied()
      const now = clock()
      const deleted = await deleteOwnMessage(db, { messageId: message.id, conversation, senderId: caller.user.id, since: new Date(now - DELETE_WINDOW_MS), now: new Date(now) })
      if (!deleted) throw apiError(400, message.deletedAt ? 'This message is already deleted.' : TOO_LATE_TO_DELETE)
      return c.json(await messageFor(caller, conversation, side)(deleted), 200, PRIVATE)
    },
  })

  // One message, and only it, to the admins' queue with the reporter's reason (decision 0085).
  api.endpoint('/messages/conversations/:id{[0-9]+}/messages/:message{[0-9]+}/report/', {
    POST: async (c) => {
      const { caller, conversation } = await conversationFor(c)
      const message = await findMessage(db, conversation.id, idParam(c, 'message'))
      if (!message) throw notFound()
      if (message.senderId === caller.user.id) throw apiError(400, 'You cannot report your own message.')
      if (message.deletedAt) throw apiError(400, 'This message is deleted: there is nothing to report.')
      const { reason } = validate(reportSchema, await readFields(c.req.raw))
      const { report, created } = await reportMessage(db, { message, reporterId: caller.user.id, reason, now: new Date(clock()) })
      return c.json({ id: report.id, message_id: report.messageId, reason: report.reason, created_at: report.createdAt.toISOString() }, created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/close/', {
    POST: async (c) => {
      const { side, conversation } = await conversationFor(c)
      if (side !== 'professional') throw permissionDenied()
      const { closed } = validate(closeSchema, await readFields(c.req.raw))
      const row = await setClosed(db, conversation.id, closed ? (conversation.closedAt ?? new Date(clock())) : null)
      return c.json(serializeConversation(row, side, await otherOf(row, side), photoBase), 200, PRIVATE)
    },
  })

  api.endpoint('/messages/conversations/:id{[0-9]+}/mute/', {
    POST: async (c) => {
      const { side, conversation } = await conversationFor(c)
      if (side !== 'patient') throw permissionDenied()
      const { muted } = validate(muteSchema, await readFields(c.req.raw))
      const row = await setMuted(db, conversation.id, muted)
      return c.json(serializeConversation(row, side, await otherOf(row, side), photoBase), 200, PRIVATE)
    },
  })

  /**
   * The caller's live stream (server-sent events): each message written or deleted in their
   * conversations (`event: message`, the message as the thread shows it, `id` its id) and each
   * move of the other side's read mark (`event: read`). `after` is the last message id the client
   * has: what came since is sent first, so a reconnect misses nothing. `conversation` narrows it
   * to one of theirs (404 for any other; the cursor is then that conversation's: decision 0088).
   * Every provider process hears every other's commits (messages/bus.ts). Ends after
   * STREAM_MAX_MS; the client reconnects.
   */
  api.endpoint('/messages/stream/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      sideOf(caller)
      const userId = caller.user.id
      const { after, conversation: only } = validate(streamSchema, { after: c.req.query('after') || undefined, conversation: c.req.query('conversation') || undefined })
      if (only !== undefined && !(await conversationOf(db, only, userId))) throw notFound()
      const response = streamSSE(c, async (stream) => {
        let last = after ?? (await latestMessageIdOf(db, userId, only))
        let chain = Promise.resolve()
        const sideIn = (conversation: ConversationRow): Side => (conversation.patientId === userId ? 'patient' : 'professional')
        const sendMessage = async (message: MessageRow, conversation: ConversationRow) =>
          stream.writeSSE({ event: 'message', id: String(message.id), data: JSON.stringify(await messageFor(caller, conversation, sideIn(conversation))(message)) })
        const catchUp = async () => {
          for (const { message, conversation } of await messagesForUserAfter(db, userId, last, STREAM_BATCH, only)) {
            await sendMessage(message, conversation)
            last = Math.max(last, message.id)
          }
        }
        const handle = async (event: MessageEvent) => {
          const conversation = await findConversation(db, event.conversation_id)
          if (!conversation) return
          if (event.kind === 'read') {
            const side = sideIn(conversation)
            return stream.writeSSE({ event: 'read', data: JSON.stringify({ conversation_id: conversation.id, read_up_to: otherReadMark(conversation, side) }) })
          }
          if (event.message_id !== undefined && event.message_id <= last) {
            // A deleted (or removed) message the client already has: sent again as it is now. A
            // new one at or below the cursor was sent already, by the catch-up of an earlier
            // event that read it with its own (events queue behind one another): not twice.
            if (event.kind !== 'changed') return
            const message = await findMessage(db, conversation.id, event.message_id)
            if (message) await sendMessage(message, conversation)
            return
          }
          await catchUp()
        }
        const unsubscribe = await services.messageBus.subscribe((event) => {
          if (event.patient_id !== userId && event.professional_id !== userId) return
          if (only !== undefined && event.conversation_id !== only) return
          chain = chain.then(() => handle(event)).catch((error: unknown) => services.log({ level: 'warn', msg: 'message stream failed to send', error: error instanceof Error ? error.message : String(error) }))
        })
        const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => undefined), STREAM_HEARTBEAT_MS)
        let ends: ReturnType<typeof setTimeout> | undefined
        const closed = services.metrics.streamOpened()
        try {
          chain = chain.then(catchUp)
          // Until the client goes, or STREAM_MAX_MS; the timer is cleared either way, so a closed stream holds nothing.
          await new Promise<void>((resolve) => {
            stream.onAbort(resolve)
            ends = setTimeout(resolve, STREAM_MAX_MS)
          })
        } finally {
          clearTimeout(ends)
          clearInterval(heartbeat)
          closed()
          unsubscribe()
          await chain.catch(() => undefined)
        }
      })
      // Per user: never kept by a cache on the way, nor held back by a buffering proxy.
      response.headers.set('Cache-Control', PRIVATE_NO_STORE)
      response.headers.set('X-Accel-Buffering', 'no')
      return response
    },
  })
}
