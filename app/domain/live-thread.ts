/**
 * The thread as a page with JavaScript keeps it (issue 44, decision 0088): the messages the
 * loader brought and those the live stream or a send brought since, one entry per message, in the
 * order they were written; the other side's read mark; and the messages on their way. No imports,
 * no I/O: the browser runs it.
 */

/** A message as the thread page draws it (the loader's, the live stream's and a send's alike). */
/** A file of a message as the thread draws it: its link is this site's /media/ with the provider's signature (decision 0086). */
export type AttachmentView = { id: number; name: string; image: boolean; size: string; url: string; width: number | null; height: number | null }

export type ThreadMessageView = {
  id: number
  mine: boolean
  text: string
  attachments: AttachmentView[]
  deleted: boolean
  removed: boolean
  read: boolean
  canDelete: boolean
  when: string
  at: string
}

/** A message typed and sent, not yet answered: its idempotency key, its text, when it left and how many files it carries. */
export type PendingMessage = { key: string; text: string; at: string; files?: number }

/**
 * Two views of one message, from answers of different moments: a message only ever becomes
 * deleted (its text gone), read and no longer deletable, never back, so whichever came last the
 * result is the same.
 */
export function combineViews(a: ThreadMessageView, b: ThreadMessageView): ThreadMessageView {
  const deleted = a.deleted || b.deleted
  return {
    ...b,
    text: deleted ? '' : b.text,
    attachments: deleted ? [] : b.attachments,
    deleted,
    removed: a.removed || b.removed,
    read: a.read || b.read,
    canDelete: !deleted && a.canDelete && b.canDelete,
  }
}

/** The list with the incoming messages in it: each id once (the two views combined), oldest first. */
export function mergeMessages(current: readonly ThreadMessageView[], incoming: readonly ThreadMessageView[]): ThreadMessageView[] {
  if (incoming.length === 0) return current as ThreadMessageView[]
  const byId = new Map(current.map((message) => [message.id, message]))
  for (const message of incoming) {
    const known = byId.get(message.id)
    byId.set(message.id, known ? combineViews(known, message) : message)
  }
  return [...byId.values()].sort((a, b) => a.id - b.id)
}

/** Mine up to the other side's read mark are read ("Lida"). */
export function withReadMark(messages: readonly ThreadMessageView[], readUpTo: number): ThreadMessageView[] {
  return messages.map((message) => (message.mine && !message.read && message.id <= readUpTo ? { ...message, read: true } : message))
}

/** The newest message's id (0 for none): where the live stream takes up. */
export const newestId = (messages: readonly ThreadMessageView[]) => messages.reduce((newest, message) => Math.max(newest, message.id), 0)

/** The newest message of the other side's, past `seen`: the one to mark read, or null. */
export function unseenFromOther(messages: readonly ThreadMessageView[], seen: number): number | null {
  let newest: number | null = null
  for (const message of messages) if (!message.mine && message.id > seen && (newest === null || message.id > newest)) newest = message.id
  return newest
}

/**
 * The messages still on their way once these arrived: a message of mine that the stream brings
 * before its send answered stands for the first pending one with the same text (the provider
 * keeps the text trimmed), so it is never drawn twice.
 */
export function stillPending(pending: readonly PendingMessage[], arrived: readonly ThreadMessageView[]): PendingMessage[] {
  const left = [...pending]
  for (const message of arrived) {
    if (!message.mine || message.deleted) continue
    const index = left.findIndex((waiting) => waiting.text.trim() === message.text)
    if (index >= 0) left.splice(index, 1)
  }
  return left.length === pending.length ? (pending as PendingMessage[]) : left
}
