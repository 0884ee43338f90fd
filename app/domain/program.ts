/** The program of docs/product.md §1, §9: 8 to 12 weeks. */
export const MIN_WEEKS = 8
export const MAX_WEEKS = 12

type Week<Goal> = { week: number; goals: Goal[] }

/** This week's entry of a schedule (the last week once the program is over). */
export function weekOf<Goal>(schedule: readonly Week<Goal>[], currentWeek: number): Week<Goal> | undefined {
  return schedule.find((entry) => entry.week === currentWeek) ?? schedule.at(-1)
}

/** Progress as a whole percentage, safe for an empty program. */
export function progressPercent({ done, total }: { done: number; total: number }): number {
  return total === 0 ? 0 : Math.round((100 * done) / total)
}
