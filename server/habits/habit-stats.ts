import { addDays, weekdayOf } from '#server/dates.ts'
import { WEEKDAYS, type HabitEntryStatus, type HabitFrequency } from '#server/db/schema.ts'

/**
 * A habit's statistics (issue 14) without I/O: dates are the user's local dates ("YYYY-MM-DD",
 * see localDateOf) and `today` is an argument, so the same answers come whatever the server's
 * clock or zone. Weeks run Monday to Sunday.
 *
 * The rules shared by every figure:
 * - a day counts as done when its status is 'done' or its amount reaches the target (a 'done'
 *   below the target is still done: the user says so);
 * - a day with no entry is not done; a skipped day is not due (it neither breaks nor extends);
 * - no day before createdOn or after archivedOn is due, nor any day after today;
 * - the period in progress (today, or the current week of a weekly habit) never counts against
 *   the habit: it counts once done (met), and is otherwise left out, since it is not over yet.
 */

export type HabitEntry = { date: string; status: HabitEntryStatus; amount?: number | null }
export type HabitFacts = { frequency: HabitFrequency; target?: number | null; createdOn: string; archivedOn?: string | null }
type Streak = { length: number; unit: 'day' | 'week' }
type Completion = { due: number; done: number; rate: number | null }
type WeekCompletion = Completion & { weekStart: string }
type PillarHabit = HabitFacts & { pillar: string; entries: HabitEntry[] }
type HeatLevel = 0 | 1 | 2 | 3 | 4
type HeatStatus = HabitEntryStatus | 'not_due' | 'none' | 'future'
type HeatMapDay = { date: string; level: HeatLevel; status: HeatStatus }

type Entries = Map<string, HabitEntry>
const indexed = (entries: HabitEntry[]): Entries => new Map(entries.map((entry) => [entry.date, entry]))

/** Whether the frequency asks for the date; a weekly habit may be done any day, so every day is. */
export function isDue(frequency: HabitFrequency, date: string): boolean {
  return frequency.kind !== 'weekdays' || frequency.days.includes(weekdayOf(date))
}

/** The Monday of the date's week. */
export function weekStartOf(date: string): string {
  return addDays(date, -WEEKDAYS.indexOf(weekdayOf(date)))
}

export function countsDone(habit: HabitFacts, entry: HabitEntry | undefined): boolean {
  if (!entry) return false
  if (entry.status === 'done') return true
  return habit.target != null && entry.amount != null && entry.amount >= habit.target
}

const alive = (habit: HabitFacts, date: string) => date >= habit.createdOn && (!habit.archivedOn || date <= habit.archivedOn)
const lastCounted = (habit: HabitFacts, today: string) => (habit.archivedOn && habit.archivedOn < today ? habit.archivedOn : today)
const roundedRate = (done: number, due: number) => (due === 0 ? null : Math.round((done / due) * 1000) / 1000)
const completion = (due: number, done: number): Completion => ({ due, done, rate: roundedRate(done, due) })

function* datesBetween(from: string, to: string): Generator<string> {
  for (let date = from; date <= to; date = addDays(date, 1)) yield date
}

function* weeksBetween(from: string, to: string): Generator<string> {
  for (let monday = weekStartOf(from); monday <= to; monday = addDays(monday, 7)) yield monday
}

/** What one day says about a daily or weekdays habit. */
type DayOutcome = 'done' | 'missed' | 'skipped' | 'pending' | 'not_due'

function dayOutcome(habit: HabitFacts, entries: Entries, date: string, today: string): DayOutcome {
  if (date > today || !alive(habit, date) || !isDue(habit.frequency, date)) return 'not_due'
  const entry = entries.get(date)
  if (countsDone(habit, entry)) return 'done'
  if (entry?.status === 'skipped') return 'skipped'
  return date === today ? 'pending' : 'missed'
}

type WeekTally = { due: number; done: number; met: boolean; over: boolean }

/**
 * One week of an "N times a week" habit. Each skipped day lowers the requirement by one (never
 * below 0): a skip says "this day does not count", so it must not make the rest of the week
 * harder. A week the habit lives only part of (created or archived mid-week) asks for at most
 * as many days as it lived, so a habit made on a Sunday can meet its first week. Done days
 * beyond the requirement add nothing.
 */
function weekTally(habit: HabitFacts, entries: Entries, weekStart: string, today: string): WeekTally {
  // Only weekly habits are judged by week; the fallback keeps the type narrow, not a rule.
  const times = habit.frequency.kind === 'weekly' ? habit.frequency.times : 7
  let living = 0
  let skipped = 0
  let done = 0
  for (let day = 0; day < 7; day++) {
    const date = addDays(weekStart, day)
    if (!alive(habit, date)) continue
    living += 1
    if (date > today) continue
    const entry = entries.get(date)
    if (countsDone(habit, entry)) done += 1
    else if (entry?.status === 'skipped') skipped += 1
  }
  const due = Math.max(0, Math.min(times, living) - skipped)
  return { due, done: Math.min(done, due), met: due > 0 && done >= due, over: addDays(weekStart, 6) < today }
}

/** Due and done days of a daily or weekdays habit over [from, to]. */
function daysTally(habit: HabitFacts, entries: Entries, from: string, to: string, today: string): { due: number; done: number } {
  let due = 0
  let done = 0
  for (const date of datesBetween(from, to)) {
    const outcome = dayOutcome(habit, entries, date, today)
    if (outcome === 'done') done += 1
    if (outcome === 'done' || outcome === 'missed') due += 1
  }
  return { due, done }
}

/**
 * The current and best streaks. Days (or weeks) that are not due, skipped or still in progress
 * are transparent: the run goes on across them. An archived habit keeps the streak it had when
 * archived, since nothing after archivedOn is due.
 */
function streaks(habit: HabitFacts, entries: HabitEntry[], today: string): { current: Streak; best: Streak } {
  const byDate = indexed(entries)
  const unit = habit.frequency.kind === 'weekly' ? 'week' : 'day'
  let run = 0
  let best = 0
  const last = lastCounted(habit, today)
  if (unit === 'week') {
    for (const monday of weeksBetween(habit.createdOn, last)) {
      const week = weekTally(habit, byDate, monday, today)
      if (week.met) run += 1
      else if (week.due > 0 && week.over) run = 0
      best = Math.max(best, run)
    }
  } else {
    for (const date of datesBetween(habit.createdOn, last)) {
      const outcome = dayOutcome(habit, byDate, date, today)
      if (outcome === 'done') run += 1
      else if (outcome === 'missed') run = 0
      best = Math.max(best, run)
    }
  }
  return { current: { length: run, unit }, best: { length: best, unit } }
}

export const currentStreak = (habit: HabitFacts, entries: HabitEntry[], today: string): Streak => streaks(habit, entries, today).current
export const bestStreak = (habit: HabitFacts, entries: HabitEntry[], today: string): Streak => streaks(habit, entries, today).best

/**
 * The last `weeks` weeks, oldest first, the current one last. A weekly habit's current week
 * shows its progress towards the week's requirement (2 of 3 is 0.667 until Sunday); a daily
 * habit's counts the days so far.
 */
export function weeklyCompletion(habit: HabitFacts, entries: HabitEntry[], today: string, weeks: number): WeekCompletion[] {
  const byDate = indexed(entries)
  const current = weekStartOf(today)
  return Array.from({ length: Math.max(0, weeks) }, (_, index) => {
    const weekStart = addDays(current, (index - weeks + 1) * 7)
    const { due, done } = habit.frequency.kind === 'weekly' ? weekTally(habit, byDate, weekStart, today) : daysTally(habit, byDate, weekStart, addDays(weekStart, 6), today)
    return { weekStart, ...completion(due, done) }
  })
}

/**
 * Per pillar (in the order they first appear), the share of due days done over the last `days`
 * days, today included, or null when nothing was due. A weekly habit is only judged per week,
 * so each week overlapping the window counts whole; the current week counts once met, like today.
 */
export function completionByPillar(habits: PillarHabit[], today: string, days: number): Record<string, number | null> {
  const from = addDays(today, 1 - days)
  const totals = new Map<string, { due: number; done: number }>()
  for (const { pillar, entries, ...habit } of habits) {
    const byDate = indexed(entries)
    const total = totals.get(pillar) ?? { due: 0, done: 0 }
    totals.set(pillar, total)
    if (days <= 0) continue
    if (habit.frequency.kind === 'weekly') {
      for (const monday of weeksBetween(from, today)) {
        const week = weekTally(habit, byDate, monday, today)
        if (!week.over && !week.met) continue
        total.due += week.due
        total.done += week.done
      }
    } else {
      const tally = daysTally(habit, byDate, from, today, today)
      total.due += tally.due
      total.done += tally.done
    }
  }
  return Object.fromEntries([...totals].map(([pillar, { due, done }]) => [pillar, roundedRate(done, due)]))
}

// Exponential moving average, like Loop Habit Tracker's score: after 13 due days (4 weeks) an
// old value weighs half, so a long run survives a missed day and a new habit grows in weeks.
const DAY_DECAY = 0.5 ** (1 / 13)
const WEEK_DECAY = 0.5 ** (1 / 4)

/**
 * A 0-100 strength. Each due day (each judged week, for a weekly habit, by the share of its
 * requirement met) moves the score towards 1 when done and towards 0 when not; skipped days,
 * days not due and the period in progress leave it where it is.
 */
export function habitStrength(habit: HabitFacts, entries: HabitEntry[], today: string): number {
  const byDate = indexed(entries)
  const last = lastCounted(habit, today)
  let score = 0
  const add = (value: number, decay: number) => {
    score = score * decay + value * (1 - decay)
  }
  if (habit.frequency.kind === 'weekly') {
    for (const monday of weeksBetween(habit.createdOn, last)) {
      const week = weekTally(habit, byDate, monday, today)
      if (week.due > 0 && (week.over || week.met)) add(week.done / week.due, WEEK_DECAY)
    }
  } else {
    for (const date of datesBetween(habit.createdOn, last)) {
      const outcome = dayOutcome(habit, byDate, date, today)
      if (outcome === 'done' || outcome === 'missed') add(outcome === 'done' ? 1 : 0, DAY_DECAY)
    }
  }
  return Math.round(score * 100)
}

/** 4 when done; for a numeric habit, 1-3 by the share of the target reached; else 0. */
function levelOf(habit: HabitFacts, entry: HabitEntry | undefined): HeatLevel {
  if (countsDone(habit, entry)) return 4
  if (!entry?.amount || entry.amount <= 0 || !habit.target || habit.target <= 0) return 0
  return (1 + Math.min(2, Math.floor((entry.amount / habit.target) * 3))) as HeatLevel
}

function heatStatus(habit: HabitFacts, entry: HabitEntry | undefined, date: string, today: string): HeatStatus {
  if (date > today) return 'future'
  if (!alive(habit, date) || !isDue(habit.frequency, date)) return 'not_due'
  if (countsDone(habit, entry)) return 'done'
  return entry?.status ?? 'none'
}

/**
 * One item per date of the `days` days ending on `end` (today unless a calendar wants its last
 * week filled to Sunday), oldest first. The level shows what was recorded, even on a day that was
 * not due (an extra session is still effort); the status says whether and how the day was due.
 */
export function heatMap(habit: HabitFacts, entries: HabitEntry[], today: string, days: number, end = today): HeatMapDay[] {
  const byDate = indexed(entries)
  if (days <= 0) return []
  return [...datesBetween(addDays(end, 1 - days), end)].map((date) => {
    const entry = byDate.get(date)
    return { date, level: date > today ? 0 : levelOf(habit, entry), status: heatStatus(habit, entry, date, today) }
  })
}
