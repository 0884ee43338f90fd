import { localDate } from '#app/domain/appointments.ts'
import { PILLAR_ORDER, inPillarOrder } from '#app/domain/pillars.ts'
import { addDays } from '#app/domain/calendar-dates.ts'
import { WEEKDAY_KEYS, dayMonth, formatAmount, heatMapGrid, heatMapTally, longDate, percent, shortDate, weekdayNames } from '#app/domain/habits.ts'
import { type Language } from '#app/i18n/config.ts'
import { type HabitDetail, type HabitList, type HabitSummary } from '#app/provider/habit-schemas.ts'
import { type Pillar } from '#app/provider/schemas.ts'

/**
 * Provider habits (decision 0027) turned into what the habit pages show, in the reader's
 * language: pillar names, dates and amounts worded, days labelled. Built in loaders, so the
 * browser gets finished texts; every figure is the provider's.
 */

type PillarNames = Record<string, string>

export function pillarNames(pillars: readonly Pillar[], language: Language): PillarNames {
  return Object.fromEntries(pillars.map((pillar) => [pillar.slug, pillar.name[language] ?? pillar.name.en]))
}

/**
 * The habit form's pillar choices, in the product's order (docs/product.md §1): the provider's names or, while a failed
 * submission is answered without them (`pillars` null), the names the app's own pages use, so
 * the form comes back whole with what was chosen.
 */
export function pillarOptions(pillars: readonly Pillar[] | null, language: Language, t: (key: string) => string) {
  if (pillars) {
    const names = pillarNames(pillars, language)
    return inPillarOrder(pillars).map((pillar) => ({ slug: pillar.slug, name: names[pillar.slug]! }))
  }
  return PILLAR_ORDER.map((slug) => ({ slug, name: t(`pages:lifestyleMedicine.pillars.items.${slug}.name`) }))
}

/** What a frequency says: "Todos os dias", "seg., qua., sex.", "3 vezes por semana" (the words are the page's). */
export function frequencyView(habit: Pick<HabitSummary, 'frequency' | 'weekdays' | 'times_per_week'>, language: Language) {
  const names = weekdayNames(language)
  return {
    kind: habit.frequency,
    days: WEEKDAY_KEYS.flatMap((day, index) => (habit.weekdays.includes(day) ? [names[index]!] : [])).join(', '),
    times: habit.times_per_week ?? 0,
  }
}

export type DayView = {
  date: string
  label: string
  relative: 'today' | 'yesterday' | null
  due: boolean
  trackable: boolean
  status: 'done' | 'not_done' | 'skipped' | null
  amount: number | null
  amountText: string
}

export function habitCardView(habit: HabitSummary, { language, names, today, timeZone }: { language: Language; names: PillarNames; today: string; timeZone: string }) {
  const day = (item: HabitSummary['week'][number]): DayView => ({
    date: item.date,
    label: shortDate(item.date, language),
    relative: item.date === today ? 'today' : item.date === addDays(today, -1) ? 'yesterday' : null,
    due: item.due,
    trackable: item.trackable,
    status: item.status,
    amount: item.amount,
    amountText: item.amount === null ? '' : formatAmount(item.amount, language),
  })
  return {
    id: habit.id,
    name: habit.name,
    pillar: habit.pillar,
    pillarName: names[habit.pillar] ?? habit.pillar,
    frequency: frequencyView(habit, language),
    target: habit.target,
    targetText: habit.target === null ? '' : formatAmount(habit.target, language),
    unit: habit.unit,
    reminderTime: habit.reminder_time,
    streak: habit.current_streak,
    strength: habit.strength,
    archived: habit.archived,
    archivedOn: habit.archived_at ? longDate(localDate(habit.archived_at, timeZone), language) : null,
    // Today first, then the days before it, most recent first.
    days: [...habit.week].reverse().map(day),
  }
}
export type HabitCardView = ReturnType<typeof habitCardView>

/** A pillar's completion over its recent days, as the provider's stats give it (`GET /habits/stats/`). */
type PillarRate = { pillar: string; rate: number | null; days: number }

/**
 * Active habits grouped under their pillars, in the pillars' order (pillars without habits left
 * out), each pillar with its completion rate when the stats could be read (else `rate` is undefined).
 */
export function habitsByPillar(habits: readonly HabitCardView[], pillars: readonly Pillar[], names: PillarNames, rates: readonly PillarRate[] | null = null) {
  const known = inPillarOrder(pillars).map((pillar) => pillar.slug)
  const slugs = [...known, ...new Set(habits.map((habit) => habit.pillar).filter((slug) => !known.includes(slug)))]
  return slugs.flatMap((slug) => {
    const list = habits.filter((habit) => habit.pillar === slug)
    const found = rates?.find((rate) => rate.pillar === slug)
    const rate = found ? { percent: found.rate === null ? null : percent(found.rate), days: found.days } : undefined
    return list.length ? [{ pillar: slug, name: names[slug] ?? slug, habits: list, rate }] : []
  })
}

/** The habit page: the card's figures, best streak, heat map and the twelve weeks. */
export function habitDetailView(habit: HabitDetail, context: { language: Language; names: PillarNames; today: string; timeZone: string }) {
  const { language } = context
  const grid = heatMapGrid(
    habit.heat_map.map((day) => ({ ...day, label: longDate(day.date, language) })),
    language,
  )
  return {
    ...habitCardView(habit, context),
    createdOn: longDate(habit.created_on, language),
    bestStreak: habit.best_streak,
    heatMap: { ...grid, tally: heatMapTally(habit.heat_map), from: longDate(habit.heat_map[0]?.date ?? habit.created_on, language), to: longDate(context.today, language) },
    weeks: habit.weeks.map((week) => ({
      start: dayMonth(week.week_start, language),
      due: week.due,
      done: week.done,
      rate: week.rate,
      percent: week.rate === null ? null : percent(week.rate),
    })),
  }
}
export type HabitDetailView = ReturnType<typeof habitDetailView>

/**
 * The dashboard's "today" (issue 14): each active habit whose today is due or already answered,
 * with its form for today; `total` tells "no habits yet" from "none due today".
 */
export function todayHabitViews(list: HabitList, language: Language) {
  const context = { language, names: {}, today: list.today, timeZone: list.time_zone }
  const items = list.results.flatMap((habit) => {
    const view = habitCardView(habit, context)
    const today = view.days[0]
    return today && today.date === list.today && today.trackable && (today.due || today.status !== null) ? [{ habit: view, today }] : []
  })
  return { total: list.results.length, items }
}
export type TodayHabitsView = ReturnType<typeof todayHabitViews>
