/**
 * Messages about one appointment to one person collapse while they wait in the outbox (issue 22,
 * decision 0035): a newer one replaces the pending one, and what it says is the latest state as
 * the recipient last heard it. Pure: the outbox (outbox.ts) stores the state beside the message
 * and asks here what a newer message makes of it.
 */

/** What a collapsible message tells: booked, moved (from where the recipient last knew it) or cancelled. */
export type NoticeState = { kind: 'confirmation' } | { kind: 'moved'; previousStart: string } | { kind: 'cancelled' }

/** The collapse key of the messages about one appointment to one of its two people. */
export const appointmentCollapseKey = (appointmentId: number, recipient: 'patient' | 'professional') => `appointment:${appointmentId}:${recipient}`

/**
 * The state a pending message and a newer one about the same appointment collapse into:
 * - a cancellation is the last word;
 * - a move of a booking the recipient has not heard of yet is that booking, at its new time;
 * - a move of a move still says where it was when the recipient last heard: the first one's old time;
 * - anything else is the newer message.
 */
export function collapseNotices(pending: NoticeState | undefined, next: NoticeState): NoticeState {
  if (!pending || next.kind !== 'moved') return next
  if (pending.kind === 'confirmation') return pending
  if (pending.kind === 'moved') return pending
  return next
}

/** A stored state, as read back from the outbox's jsonb column: undefined when it is not one. */
export function readNoticeState(value: unknown): NoticeState | undefined {
  if (!value || typeof value !== 'object') return undefined
  const { kind, previousStart } = value as { kind?: unknown; previousStart?: unknown }
  if (kind === 'confirmation' || kind === 'cancelled') return { kind }
  if (kind === 'moved' && typeof previousStart === 'string' && !Number.isNaN(Date.parse(previousStart))) return { kind, previousStart }
  return undefined
}
