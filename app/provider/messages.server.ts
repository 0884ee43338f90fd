import { type SignedInCaller } from './fetch.server.ts'
import { conversationPageSchema, conversationSchema, messageSchema, readMarkSchema, threadSchema, unreadSchema } from './message-schemas.ts'

/** Messages between a patient and their professional (issue 44, decision 0085); admins get 403 on every call. */

/** A page of the caller's conversations, the latest message first. */
export const listConversations = (auth: SignedInCaller, page: number | 'last' = 1, pageSize?: number) =>
  auth.call('/messages/conversations/', conversationPageSchema, { query: { page, page_size: pageSize } })

/** The pair's conversation, made now when they have none (201) or the existing one (200); 404 without a care link. */
export const startConversation = (auth: SignedInCaller, withUser: number) =>
  auth.call('/messages/conversations/', conversationSchema, { method: 'POST', json: { with: withUser } })

/**
 * The 30 messages before `before` (the newest without it), oldest first, and the cursor of the page
 * before. `markNewestRead` on the newest page moves the caller's read mark to its newest message in
 * the same call (decision 0088).
 */
export const getThread = (auth: SignedInCaller, conversationId: number, before?: number, { markNewestRead = false } = {}) =>
  auth.call(`/messages/conversations/${conversationId}/`, threadSchema, { query: { before, mark_read: markNewestRead && before === undefined ? 1 : undefined } })

/**
 * Sends a message, with its files as multipart when it has some (decision 0086: up to five, the
 * text then optional); a resent key answers the message it sent (the same message, its files once).
 */
export function sendMessage(auth: SignedInCaller, conversationId: number, message: { text: string; idempotency_key: string }, files: readonly File[] = []) {
  const path = `/messages/conversations/${conversationId}/messages/`
  if (files.length === 0) return auth.call(path, messageSchema, { method: 'POST', json: message })
  const formData = new FormData()
  formData.set('text', message.text)
  formData.set('idempotency_key', message.idempotency_key)
  for (const file of files) formData.append('attachments', file)
  return auth.call(path, messageSchema, { method: 'POST', formData })
}

/** Moves the caller's read mark up to this message (never back). */
export const markRead = (auth: SignedInCaller, conversationId: number, upTo: number) =>
  auth.call(`/messages/conversations/${conversationId}/read/`, readMarkSchema, { method: 'POST', json: { up_to: upTo } })

/** Deletes one's own message (within 15 minutes): its text is emptied, its place kept. */
export const deleteMessage = (auth: SignedInCaller, conversationId: number, messageId: number) =>
  auth.call(`/messages/conversations/${conversationId}/messages/${messageId}/delete/`, messageSchema, { method: 'POST' })

/** How many messages from others came after the caller's read marks. */
export async function unreadCount(auth: SignedInCaller) {
  return (await auth.call('/messages/unread/', unreadSchema)).unread
}

/**
 * The caller's live stream of one conversation (server-sent events, passed on as they come): what
 * came after message `after` first (the newest at connect without it), then each message and read
 * mark as it happens; ends after 5 minutes. 404 for a conversation not the caller's.
 */
export const openMessageStream = (auth: SignedInCaller, conversationId: number, after: number | undefined) =>
  auth.stream('/messages/stream/', { query: { conversation: conversationId, after } })
