import type { Entitlements } from '#server/courses/access.ts'
import type { LiveClassAccess } from '#server/db/schema.ts'

/**
 * The live classes' rules (docs/product.md §9, decision 0058), pure: every time is an instant
 * (epoch milliseconds), never a wall clock, so the server's own time zone and daylight saving
 * change nothing. The join window opens 10 minutes before the start and closes at the end.
 */
const JOIN_OPENS_MINUTES_BEFORE = 10
/** The reminders by e-mail, this long before the start. */
export const REMINDER_24H_MS = 24 * 3600_000
export const REMINDER_15M_MS = 15 * 60_000
/** A meeting is created for classes starting within this, by the jobs' tick (else at the first join). */
export const MEETING_AHEAD_MS = 48 * 3600_000

type ClassTimes = { startsAt: number; durationMinutes: number; cancelledAt?: number | null }

type JoinState = 'too_early' | 'open' | 'ended' | 'cancelled'

export const endOf = (cls: ClassTimes) => cls.startsAt + cls.durationMinutes * 60_000

/** When the meeting's link may be handed out: [opensAt, closesAt). */
export function joinWindow(cls: ClassTimes): { opensAt: number; closesAt: number } {
  return { opensAt: cls.startsAt - JOIN_OPENS_MINUTES_BEFORE * 60_000, closesAt: endOf(cls) }
}

export function joinState(now: number, cls: ClassTimes): JoinState {
  if (cls.cancelledAt != null) return 'cancelled'
  const { opensAt, closesAt } = joinWindow(cls)
  if (now < opensAt) return 'too_early'
  if (now >= closesAt) return 'ended'
  return 'open'
}

type ClassAccessReason = 'free' | 'staff' | 'program' | 'subscription'

/**
 * Why the user may take part, or null when the class is locked to them: a free class is open to
 * everyone signed in; a members' class to patients with a program or a live plan (as paid courses,
 * server/courses/access.ts; a single course bought does not count); staff always see it.
 */
export function classAccess(entitlements: Entitlements, cls: { access: LiveClassAccess }): ClassAccessReason | null {
  if (cls.access === 'free') return 'free'
  if (entitlements.role !== 'paciente') return 'staff'
  if (entitlements.hasProgram) return 'program'
  if (entitlements.hasLiveSubscription) return 'subscription'
  return null
}

export type ReminderKind = '24h' | '15m'

/** When each reminder is due. */
export function reminderDueAt(cls: ClassTimes): Record<ReminderKind, number> {
  return { '24h': cls.startsAt - REMINDER_24H_MS, '15m': cls.startsAt - REMINDER_15M_MS }
}

/**
 * The reminders a seat reserved at `reservedAt` no longer needs: those already due then (the
 * reservation itself says it), so only reminders still ahead are sent.
 */
export function remindersSettledAtReservation(reservedAt: number, cls: ClassTimes): Record<ReminderKind, boolean> {
  const due = reminderDueAt(cls)
  return { '24h': reservedAt >= due['24h'], '15m': reservedAt >= due['15m'] }
}

/** A reminder found due late (the provider was down) is sent only while it still makes sense: the 24-hour one not within 15 minutes, neither after the start. */
export function reminderStillUseful(kind: ReminderKind, now: number, cls: ClassTimes): boolean {
  if (now >= cls.startsAt) return false
  return kind === '15m' || now < reminderDueAt(cls)['15m']
}
