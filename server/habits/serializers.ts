import { addDays, localDateOf } from '#server/dates.ts'
import { completionByPillar, currentStreak, bestStreak, habitStrength, heatMap, isDue, weeklyCompletion, type HabitFacts } from '#server/habits/habit-stats.ts'
import type { HabitEntryRow, HabitRow } from '#server/habits/repository.ts'

/** Today and the six days before it can be tracked (issue 14: "today, or a day of the past week"). */
export const TRACKABLE_DAYS = 7
/** The heat map covers about six months. */
export const HEAT_MAP_DAYS = 182
/** Weekly completion rates shown for the last twelve weeks. */
const WEEKS_SHOWN = 12
/** Completion per pillar over the last four weeks. */
const PILLAR_RATE_DAYS = 28

/** Where the figures are read: the user's today and time zone. */
type Day = { today: string; timeZone: string }

/** The habit as the stats module sees it (archived on the user's own date). */
function factsOf(habit: HabitRow, timeZone: string): HabitFacts {
  return {
    frequency: habit.frequency,
    target: habit.target,
    createdOn: habit.createdOn,
    archivedOn: habit.archivedAt ? localDateOf(habit.archivedAt.getTime(), timeZone) : null,
  }
}

const entryView = (entry: HabitEntryRow) => ({ date: entry.date, status: entry.status, amount: entry.amount })

export function serializeHabit(habit: HabitRow) {
  const { frequency } = habit
  return {
    id: habit.id,
    name: habit.name,
    pillar: habit.pillarSlug,
    frequency: frequency.kind,
    weekdays: frequency.kind === 'weekdays' ? frequency.days : [],
    times_per_week: frequency.kind === 'weekly' ? frequency.times : null,
    target: habit.target,
    unit: habit.unit,
    reminder_time: habit.reminderTime,
    created_on: habit.createdOn,
    archived: habit.archivedAt !== null,
    archived_at: habit.archivedAt?.toISOString() ?? null,
  }
}

/** A habit as lists show it: its days of the trackable week, today's answer, streak and strength. */
export function habitSummary(habit: HabitRow, entries: HabitEntryRow[], { today, timeZone }: Day) {
  const facts = factsOf(habit, timeZone)
  const byDate = new Map(entries.map((entry) => [entry.date, entry]))
  const days = Array.from({ length: TRACKABLE_DAYS }, (_, index) => addDays(today, index - (TRACKABLE_DAYS - 1)))
  const dayView = (date: string) => {
    const entry = byDate.get(date)
    return { date, due: date >= habit.createdOn && isDue(habit.frequency, date), trackable: date >= habit.createdOn, status: entry?.status ?? null, amount: entry?.amount ?? null }
  }
  return {
    ...serializeHabit(habit),
    today: dayView(today),
    week: days.map(dayView),
    current_streak: currentStreak(facts, entries, today),
    strength: habitStrength(facts, entries, today),
  }
}

/** A habit with everything its page shows: the summary, best streak, weekly rates and the heat map. */
export function habitDetail(habit: HabitRow, entries: HabitEntryRow[], day: Day, { heatMap: withHeatMap = true } = {}) {
  const { today, timeZone } = day
  const facts = factsOf(habit, timeZone)
  return {
    ...habitSummary(habit, entries, day),
    best_streak: bestStreak(facts, entries, today),
    weeks: weeklyCompletion(facts, entries, today, WEEKS_SHOWN).map((week) => ({ week_start: week.weekStart, due: week.due, done: week.done, rate: week.rate })),
    ...(withHeatMap && { heat_map: heatMap(facts, entries, today, HEAT_MAP_DAYS), entries: entries.filter((entry) => entry.date > addDays(today, -HEAT_MAP_DAYS)).map(entryView) }),
  }
}

/** Completion per pillar over the last four weeks, the pillars with habits only. */
export function pillarRates(list: { habit: HabitRow; entries: HabitEntryRow[] }[], { today, timeZone }: Day) {
  const rates = completionByPillar(
    list.map(({ habit, entries }) => ({ ...factsOf(habit, timeZone), pillar: habit.pillarSlug, entries })),
    today,
    PILLAR_RATE_DAYS,
  )
  return Object.entries(rates).map(([pillar, rate]) => ({ pillar, rate, days: PILLAR_RATE_DAYS }))
}
