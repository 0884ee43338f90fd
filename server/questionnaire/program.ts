import { daysBetween } from '#server/dates.ts'
import { GOAL_LEVELS } from '#server/questionnaire/goal-library.ts'
import { rankPillars, type Scores } from '#server/questionnaire/scoring.ts'

/**
 * The personalised program (pure): which pillar gets which goal level in which week.
 *
 * - Focus pillars come first, the others after them (lowest score first when there are scores).
 * - Length: the patient's choice (8-12 weeks), or 8 weeks plus 2 per focus pillar beyond the
 *   first, at most 12 (1 → 8, 2 → 10, 3+ → 12).
 * - Focus pillars start staggered, so the patient does not begin everything at once: with the
 *   default length each starts 2 weeks after the previous one (weeks 1, 3, 5); a shorter chosen
 *   length pulls the starts closer (all at week 1 in 8 weeks). Each focus pillar then climbs the
 *   8 levels of its goal library over its remaining weeks (some levels last two weeks when there
 *   are more than 8), one goal every week.
 * - One of the other pillars also gets a goal each week, in turn, at its next level, so nothing
 *   is forgotten but the week stays light: at most (focus pillars + 1) goals a week.
 */
export const MIN_WEEKS = 8
export const MAX_WEEKS = 12
const WEEKS_PER_EXTRA_FOCUS = 2

type PlannedGoal = { pillar: string; level: number; focus: boolean }
type PlannedWeek = { week: number; goals: PlannedGoal[] }
type ProgramPlan = { weeks: number; focusPillars: string[]; pillarsOrder: string[]; schedule: PlannedWeek[] }

export function defaultWeeks(focusCount: number): number {
  return Math.min(MAX_WEEKS, MIN_WEEKS + WEEKS_PER_EXTRA_FOCUS * Math.max(0, focusCount - 1))
}

/** Focus pillars in their given order, then the rest: lowest score first, else in pillar order. */
export function orderPillars(focus: string[], allPillars: string[], scores?: Scores): string[] {
  const others = allPillars.filter((pillar) => !focus.includes(pillar))
  const ranked = scores ? rankPillars(scores, others) : []
  return [...focus, ...ranked, ...others.filter((pillar) => !ranked.includes(pillar))]
}

/** The week (1-based) in which the index-th of `count` focus pillars starts. */
export function focusStartWeek(index: number, count: number, weeks: number): number {
  if (count <= 1) return 1
  return 1 + Math.floor((index * (weeks - MIN_WEEKS)) / (count - 1))
}

/** The goal level (1..GOAL_LEVELS) of a focus pillar in a week, or undefined before it starts. */
export function focusLevel(week: number, startWeek: number, weeks: number): number | undefined {
  if (week < startWeek) return undefined
  const span = weeks - startWeek + 1
  return 1 + Math.floor(((week - startWeek) * GOAL_LEVELS) / span)
}

export function planProgram({ focusPillars, allPillars, scores, weeks }: { focusPillars: string[]; allPillars: string[]; scores?: Scores; weeks?: number }): ProgramPlan {
  if (focusPillars.length === 0) throw new Error('a program needs at least one focus pillar')
  const length = weeks ?? defaultWeeks(focusPillars.length)
  if (!Number.isInteger(length) || length < MIN_WEEKS || length > MAX_WEEKS) throw new Error(`weeks must be ${MIN_WEEKS}-${MAX_WEEKS}`)
  const pillarsOrder = orderPillars(focusPillars, allPillars, scores)
  const others = pillarsOrder.slice(focusPillars.length)
  const starts = focusPillars.map((_, index) => focusStartWeek(index, focusPillars.length, length))
  const appearances = new Map<string, number>()

  const schedule: PlannedWeek[] = []
  for (let week = 1; week <= length; week += 1) {
    const goals: PlannedGoal[] = []
    focusPillars.forEach((pillar, index) => {
      const level = focusLevel(week, starts[index]!, length)
      if (level !== undefined) goals.push({ pillar, level, focus: true })
    })
    if (others.length > 0) {
      const pillar = others[(week - 1) % others.length]!
      const seen = (appearances.get(pillar) ?? 0) + 1
      appearances.set(pillar, seen)
      goals.push({ pillar, level: Math.min(GOAL_LEVELS, seen), focus: false })
    }
    schedule.push({ week, goals })
  }
  return { weeks: length, focusPillars, pillarsOrder, schedule }
}

/** Where a program stands on a given São Paulo date: the week in progress, or finished. */
export function programProgress(startsOn: string, weeks: number, today: string): { currentWeek: number; finished: boolean } {
  const days = daysBetween(startsOn, today)
  const week = Math.floor(Math.max(0, days) / 7) + 1
  return { currentWeek: Math.min(week, weeks), finished: week > weeks }
}
