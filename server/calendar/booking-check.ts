/**
 * A patient's live calendar check at the booking's confirm step (decision 0025, issue 22): whether
 * one consultation's time is free in the professional's Google Calendar, and nothing more. Pure:
 * instants are ms since the epoch.
 */
export type Interval = { start: number; end: number }

/** What is left of an interval once another is taken out of it: none, one or two pieces. */
function without(piece: Interval, taken: Interval): Interval[] {
  if (taken.end <= piece.start || taken.start >= piece.end) return [piece]
  return [
    { start: piece.start, end: Math.min(piece.end, taken.start) },
    { start: Math.max(piece.start, taken.end), end: piece.end },
  ].filter((rest) => rest.end > rest.start)
}

/**
 * Whether `window` is free of `busy` time (Google's freeBusy periods, merged, so a patient's own
 * appointment event may be fused with a neighbouring one), once the caller's `own` appointments
 * with the professional are taken out: rescheduling into a time that overlaps one's own current
 * time is no conflict, as the booking rules themselves count it free.
 */
export function isWindowFree(window: Interval, busy: readonly Interval[], own: readonly Interval[] = []): boolean {
  for (const period of busy) {
    let pieces: Interval[] = [{ start: Math.max(period.start, window.start), end: Math.min(period.end, window.end) }].filter((piece) => piece.end > piece.start)
    for (const appointment of own) pieces = pieces.flatMap((piece) => without(piece, appointment))
    if (pieces.length > 0) return false
  }
  return true
}
