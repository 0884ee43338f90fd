/**
 * A professional's weekly availability (docs/product.md §3: per weekday `enabled` and slots of `start`/`end`
 * as HH:MM) and the rules an edited one must keep: each time HH:MM, each start before its end, no
 * two slots of one day overlapping. Pure: the editor's schema and its tests use it.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export type Slot = { start: string; end: string }
type DayAvailability = { enabled: boolean; slots: Slot[] }
export type WeeklyAvailability = Record<Weekday, DayAvailability>

/** At most this many slots a day (the provider's bound). */
export const MAX_SLOTS_PER_DAY = 12

const TIME = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/

/** Minutes after midnight of an HH:MM time (24:00 is the end of the day), or null when malformed. */
export function minutesOf(time: string): number | null {
  const match = TIME.exec(time)
  if (!match) return null
  const hours = Number(match[1] ?? match[3])
  const minutes = Number(match[2] ?? match[4])
  return hours * 60 + minutes
}

export type SlotProblem = 'format' | 'order' | 'overlap'
type SlotIssue = { index: number; field: 'start' | 'end'; problem: SlotProblem }

/**
 * What is wrong with one day's slots, each problem on the row and field it belongs to: a malformed
 * time on that field (24:00 only as an end), an end not after its start on the end, and a slot that
 * starts inside an earlier one on its start. Rows are judged in the order given; the overlap check
 * looks at well-formed rows only, so one mistake is reported once.
 */
export function slotIssues(slots: readonly Slot[]): SlotIssue[] {
  const issues: SlotIssue[] = []
  const ranges: { index: number; start: number; end: number }[] = []
  slots.forEach((slot, index) => {
    const start = minutesOf(slot.start)
    const end = minutesOf(slot.end)
    if (start === null || start === 24 * 60) issues.push({ index, field: 'start', problem: 'format' })
    if (end === null) issues.push({ index, field: 'end', problem: 'format' })
    if (start === null || end === null || start === 24 * 60) return
    if (end <= start) issues.push({ index, field: 'end', problem: 'order' })
    else ranges.push({ index, start, end })
  })
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.index - b.index)
  for (let i = 1; i < sorted.length; i++) {
    const [previous, current] = [sorted[i - 1]!, sorted[i]!]
    if (current.start < previous.end) {
      // Reported on the later row of the two as the user reads them.
      const later = current.index > previous.index ? current : previous
      issues.push({ index: later.index, field: 'start', problem: 'overlap' })
    }
  }
  return issues.sort((a, b) => a.index - b.index || (a.field === 'start' ? -1 : 1))
}

/** Slots in time order (how the editor shows a saved day). */
export function sortedSlots(slots: readonly Slot[]): Slot[] {
  return [...slots].sort((a, b) => (minutesOf(a.start) ?? 0) - (minutesOf(b.start) ?? 0))
}
