import { describe, expect, it } from 'vitest'
import { addDays, localDateOf, startOfLocalDay, wallTimeResolver } from '#server/dates.ts'
import type { HabitEntryStatus, HabitFrequency } from '#server/db/schema.ts'
import {
  bestStreak,
  completionByPillar,
  countsDone,
  currentStreak,
  habitStrength,
  heatMap,
  isDue,
  weekStartOf,
  weeklyCompletion,
  type HabitFacts,
  type HabitEntry,
} from '#server/habits/habit-stats.ts'


// 2026-03-02 is a Monday.
function habit(overrides: Partial<HabitFacts> = {}): HabitFacts {
  return { frequency: { kind: 'daily' }, createdOn: '2026-03-02', ...overrides }
}
const weekly = (times: number, overrides: Partial<HabitFacts> = {}) => habit({ frequency: { kind: 'weekly', times }, ...overrides })
const entry = (date: string, status: HabitEntryStatus = 'done', amount?: number): HabitEntry => ({ date, status, amount })
/** `count` consecutive days from `from`, all with one status. */
const run = (from: string, count: number, status: HabitEntryStatus = 'done') => Array.from({ length: count }, (_, day) => entry(addDays(from, day), status))
const days = (length: number) => ({ length, unit: 'day' })
const weeks = (length: number) => ({ length, unit: 'week' })

describe('due days and done days', () => {
  it('asks daily habits every day, weekdays habits on their days, weekly habits any day', () => {
    expect(isDue({ kind: 'daily' }, '2026-03-07')).toBe(true)
    const mondayWednesday: HabitFrequency = { kind: 'weekdays', days: ['monday', 'wednesday'] }
    expect(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-08'].map((date) => isDue(mondayWednesday, date))).toEqual([true, false, true, false])
    expect(isDue({ kind: 'weekly', times: 3 }, '2026-03-08')).toBe(true)
    expect(weekStartOf('2026-03-08')).toBe('2026-03-02')
    expect(weekStartOf('2026-03-09')).toBe('2026-03-09')
  })

  it('counts a numeric day done by its status or by reaching the target', () => {
    const water = habit({ target: 8 })
    expect(countsDone(water, entry('2026-03-02', 'done', 3))).toBe(true)
    expect(countsDone(water, entry('2026-03-02', 'not_done', 8))).toBe(true)
    expect(countsDone(water, entry('2026-03-02', 'not_done', 7.5))).toBe(false)
    expect(countsDone(water, undefined)).toBe(false)
    expect(countsDone(habit(), entry('2026-03-02', 'not_done', 100))).toBe(false)
  })
})

describe('daily and weekdays streaks', () => {
  const fourDays = run('2026-03-02', 4)

  it('does not break on today not yet done, and grows once today is done', () => {
    expect(currentStreak(habit(), fourDays, '2026-03-06')).toEqual(days(4))
    expect(currentStreak(habit(), [...fourDays, entry('2026-03-06')], '2026-03-06')).toEqual(days(5))
    expect(currentStreak(habit(), [...fourDays, entry('2026-03-06', 'not_done')], '2026-03-06')).toEqual(days(4))
    // Tomorrow the day is over: no entry is a miss.
    expect(currentStreak(habit(), fourDays, '2026-03-07')).toEqual(days(0))
  })

  it('breaks on a past missed day; the best keeps the longest run', () => {
    const entries = [...run('2026-03-02', 5), entry('2026-03-07', 'not_done'), ...run('2026-03-08', 2)]
    expect(currentStreak(habit(), entries, '2026-03-10')).toEqual(days(2))
    expect(bestStreak(habit(), entries, '2026-03-10')).toEqual(days(5))
  })

  it('lets a skipped day neither break nor extend the streak', () => {
    const entries = [...run('2026-03-02', 2), entry('2026-03-04', 'skipped'), entry('2026-03-05')]
    expect(currentStreak(habit(), entries, '2026-03-06')).toEqual(days(3))
    expect(currentStreak(habit(), run('2026-03-02', 3, 'skipped'), '2026-03-05')).toEqual(days(0))
  })

  it('counts only the chosen weekdays and passes over the others', () => {
    const mondayWednesdayFriday = habit({ frequency: { kind: 'weekdays', days: ['monday', 'wednesday', 'friday'] } })
    const entries = ['2026-03-02', '2026-03-04', '2026-03-06', '2026-03-09'].map((date) => entry(date))
    expect(currentStreak(mondayWednesdayFriday, entries, '2026-03-10')).toEqual(days(4))
    // Wednesday 03-11 is missed; Thursday is not due, so the miss alone decides.
    expect(currentStreak(mondayWednesdayFriday, entries, '2026-03-12')).toEqual(days(0))
    expect(bestStreak(mondayWednesdayFriday, entries, '2026-03-12')).toEqual(days(4))
  })

  it('ignores days before createdOn and after archivedOn', () => {
    const created = habit({ createdOn: '2026-03-05' })
    expect(currentStreak(created, [entry('2026-03-03'), entry('2026-03-05')], '2026-03-05')).toEqual(days(1))
    expect(currentStreak(created, [], '2026-03-05')).toEqual(days(0))
    // Nothing is due after archiving: the streak stays as it was on archivedOn.
    const archived = habit({ archivedOn: '2026-03-04' })
    expect(currentStreak(archived, run('2026-03-02', 3), '2026-03-20')).toEqual(days(3))
    expect(bestStreak(archived, [...run('2026-03-02', 3), ...run('2026-03-10', 5)], '2026-03-20')).toEqual(days(3))
  })
})

describe('weekly streaks', () => {
  const threeTimes = weekly(3)
  const twoWeeks = [entry('2026-03-02'), entry('2026-03-05'), entry('2026-03-08'), ...run('2026-03-13', 3)]

  it('counts weeks that met the target, judged per Monday-to-Sunday week', () => {
    expect(currentStreak(threeTimes, twoWeeks, '2026-03-16')).toEqual(weeks(2))
    // Three days in a row across a Sunday are two weeks' worth, not one.
    expect(currentStreak(threeTimes, run('2026-03-07', 3), '2026-03-16')).toEqual(weeks(0))
  })

  it('lets the current week count once met, and otherwise not break the streak', () => {
    expect(currentStreak(threeTimes, [...twoWeeks, entry('2026-03-16')], '2026-03-22')).toEqual(weeks(2))
    expect(currentStreak(threeTimes, [...twoWeeks, ...run('2026-03-16', 3)], '2026-03-18')).toEqual(weeks(3))
    expect(currentStreak(threeTimes, [...twoWeeks, entry('2026-03-16')], '2026-03-23')).toEqual(weeks(0))
    expect(bestStreak(threeTimes, [...twoWeeks, entry('2026-03-16')], '2026-03-23')).toEqual(weeks(2))
  })

  it('lowers the requirement by one per skipped day; a wholly skipped week is transparent', () => {
    const withSkip = [...run('2026-03-02', 2), entry('2026-03-04', 'skipped'), ...run('2026-03-09', 3)]
    expect(currentStreak(threeTimes, withSkip, '2026-03-16')).toEqual(weeks(2))
    const skippedWeek = [...run('2026-03-02', 3), ...run('2026-03-09', 7, 'skipped'), ...run('2026-03-16', 3)]
    expect(currentStreak(threeTimes, skippedWeek, '2026-03-23')).toEqual(weeks(2))
  })

  it('asks a partly lived first week for no more days than it had', () => {
    // Created on Saturday: two days of the week remain, both done.
    const fromSaturday = weekly(3, { createdOn: '2026-03-07' })
    expect(currentStreak(fromSaturday, run('2026-03-07', 2), '2026-03-09')).toEqual(weeks(1))
  })
})

describe('weeklyCompletion', () => {
  it('gives due, done and rate per week, oldest first, the current week so far', () => {
    const entries = [...run('2026-03-02', 5), entry('2026-03-07', 'skipped'), entry('2026-03-09'), entry('2026-03-10', 'not_done')]
    expect(weeklyCompletion(habit(), entries, '2026-03-11', 3)).toEqual([
      { weekStart: '2026-02-23', due: 0, done: 0, rate: null },
      // Sunday 03-08 has no entry: missed. The skipped Saturday is not due.
      { weekStart: '2026-03-02', due: 6, done: 5, rate: 0.833 },
      // Today (Wednesday) is not over: not due yet.
      { weekStart: '2026-03-09', due: 2, done: 1, rate: 0.5 },
    ])
  })

  it('judges weekly habits by the week: times minus skips, done capped at due', () => {
    const entries = [...run('2026-03-02', 4), entry('2026-03-06', 'skipped'), entry('2026-03-09')]
    expect(weeklyCompletion(weekly(3), entries, '2026-03-11', 2)).toEqual([
      { weekStart: '2026-03-02', due: 2, done: 2, rate: 1 },
      { weekStart: '2026-03-09', due: 3, done: 1, rate: 0.333 },
    ])
  })

  it('asks nothing after archivedOn', () => {
    const archived = habit({ archivedOn: '2026-03-03' })
    expect(weeklyCompletion(archived, run('2026-03-02', 2), '2026-03-18', 3).map((week) => week.due)).toEqual([2, 0, 0])
  })
})

describe('completionByPillar', () => {
  it('adds up the habits of each pillar over the last days', () => {
    const rates = completionByPillar(
      [
        // Sleep: 6 due days (03-09..03-14; today, Sunday, is not over), 5 done.
        { ...habit(), pillar: 'sleep', entries: run('2026-03-09', 5) },
        // Movement: Monday/Thursday, due 03-09 and 03-12, one done.
        { ...habit({ frequency: { kind: 'weekdays', days: ['monday', 'thursday'] } }), pillar: 'movement', entries: [entry('2026-03-12')] },
        // Sleep again: twice a week, the week of 03-09 already met, with 3 days capped at 2: 7 of 8.
        { ...weekly(2), pillar: 'sleep', entries: run('2026-03-09', 3) },
        { ...habit({ createdOn: '2026-03-20' }), pillar: 'food', entries: [] },
      ],
      '2026-03-15',
      7,
    )
    expect(rates).toEqual({ sleep: 0.875, movement: 0.5, food: null })
    expect(Object.keys(rates)).toEqual(['sleep', 'movement', 'food'])
  })

  it('leaves out an unmet week in progress, like today', () => {
    const rate = (entries: HabitEntry[]) => completionByPillar([{ ...weekly(3), pillar: 'mind', entries }], '2026-03-11', 7).mind
    // The window reaches back into the week of 03-02, which ended unmet (0 of 3).
    expect(rate([])).toBe(0)
    // This week met (3 of 3) joins it: 3 of 6.
    expect(rate(run('2026-03-09', 3))).toBe(0.5)
  })
})

describe('habitStrength', () => {
  it('starts at 0, reaches half after about 13 done days and rises smoothly, never above 100', () => {
    expect(habitStrength(habit(), [], '2026-03-02')).toBe(0)
    expect(habitStrength(habit(), run('2026-03-02', 13), '2026-03-15')).toBe(50)
    const rising = [1, 2, 5, 20, 60, 200].map((count) => habitStrength(habit(), run('2026-03-02', count), addDays('2026-03-02', count)))
    expect(rising).toEqual([...rising].sort((a, b) => a - b))
    expect(new Set(rising).size).toBe(rising.length)
    expect(rising.at(-1)).toBe(100)
  })

  it('drops a little after one miss in a long run and decays smoothly, never to zero at once', () => {
    const long = run('2026-03-02', 100)
    const afterRun = addDays('2026-03-02', 100)
    const oneMiss = habitStrength(habit(), long, addDays(afterRun, 1))
    expect(oneMiss).toBeGreaterThan(90)
    expect(oneMiss).toBeLessThan(habitStrength(habit(), long, afterRun))
    const decay = [2, 13, 40].map((missed) => habitStrength(habit(), long, addDays(afterRun, missed)))
    expect(decay[0]).toBeLessThan(oneMiss)
    expect(decay[1]).toBeGreaterThanOrEqual(45)
    expect(decay[1]).toBeLessThanOrEqual(50)
    expect(decay[2]).toBeGreaterThan(0)
    expect(decay[2]).toBeLessThan(decay[1]!)
  })

  it('is unchanged by skips, days not due and today not yet done', () => {
    const base = habitStrength(habit(), run('2026-03-02', 10), '2026-03-12')
    expect(habitStrength(habit(), [...run('2026-03-02', 10), ...run('2026-03-12', 5, 'skipped')], '2026-03-17')).toBe(base)
    expect(habitStrength(habit({ archivedOn: '2026-03-11' }), run('2026-03-02', 10), '2026-04-30')).toBe(base)
  })

  it('moves weekly habits by week: four met weeks take it halfway', () => {
    const fourWeeks = [0, 7, 14, 21].flatMap((offset) => run(addDays('2026-03-02', offset), 2))
    expect(habitStrength(weekly(2), fourWeeks, '2026-03-30')).toBe(50)
    // The current week, unmet, leaves it where it was.
    expect(habitStrength(weekly(2), fourWeeks, '2026-04-01')).toBe(50)
  })
})

describe('heatMap', () => {
  it('levels numeric days by the share of the target, oldest first', () => {
    const water = habit({ target: 8 })
    const entries = [
      entry('2026-03-02', 'not_done', 0),
      entry('2026-03-03', 'not_done', 2),
      entry('2026-03-04', 'not_done', 4),
      entry('2026-03-05', 'not_done', 6),
      entry('2026-03-06', 'not_done', 8),
      entry('2026-03-07', 'done', 3),
      entry('2026-03-08', 'skipped'),
    ]
    const map = heatMap(water, entries, '2026-03-10', 9)
    expect(map.map((day) => day.date)).toEqual(run('2026-03-02', 9).map((day) => day.date))
    expect(map.map((day) => day.level)).toEqual([0, 1, 2, 3, 4, 4, 0, 0, 0])
    expect(map.map((day) => day.status)).toEqual(['not_done', 'not_done', 'not_done', 'not_done', 'done', 'done', 'skipped', 'none', 'none'])
  })

  it('marks days not due, before createdOn, and after today', () => {
    const mondays = habit({ frequency: { kind: 'weekdays', days: ['monday'] }, createdOn: '2026-03-03' })
    const map = heatMap(mondays, [entry('2026-03-02'), entry('2026-03-04'), entry('2026-03-09')], '2026-03-10', 10, '2026-03-11')
    expect(map[0]).toEqual({ date: '2026-03-02', level: 4, status: 'not_due' })
    expect(map[2]).toEqual({ date: '2026-03-04', level: 4, status: 'not_due' })
    expect(map[7]).toEqual({ date: '2026-03-09', level: 4, status: 'done' })
    expect(map.slice(-2)).toEqual([
      { date: '2026-03-10', level: 0, status: 'not_due' },
      { date: '2026-03-11', level: 0, status: 'future' },
    ])
  })
})

describe('day boundaries in the user zone', () => {
  // São Paulo (no daylight saving since 2019) is the control week of 168 hours.
  const changeWeeks = [
    { timeZone: 'America/New_York', monday: '2026-03-02', hours: 167 },
    { timeZone: 'America/New_York', monday: '2026-10-26', hours: 169 },
    { timeZone: 'Europe/Lisbon', monday: '2026-03-23', hours: 167 },
    { timeZone: 'America/Sao_Paulo', monday: '2026-03-02', hours: 168 },
  ]

  it.each(changeWeeks)('keeps a week at 7 dates, none twice, across a change of clocks ($timeZone, $monday)', ({ timeZone, monday }) => {
    const start = startOfLocalDay(monday, timeZone)
    const end = startOfLocalDay(addDays(monday, 7), timeZone)
    const seen = new Set<string>()
    for (let instant = start; instant < end; instant += 15 * 60_000) seen.add(localDateOf(instant, timeZone))
    expect([...seen]).toEqual(run(monday, 7).map((day) => day.date))
    expect(heatMap(habit({ createdOn: monday }), [], addDays(monday, 6), 7).map((day) => day.date)).toEqual([...seen])
  })

  it.each(changeWeeks)('counts nightly check-ins once per date ($timeZone, $monday)', ({ timeZone, monday, hours }) => {
    expect((startOfLocalDay(addDays(monday, 7), timeZone) - startOfLocalDay(monday, timeZone)) / 3_600_000).toBe(hours)
    const checkIns = run(monday, 7).map((day) => wallTimeResolver(day.date, timeZone)(23 * 60 + 30)!)
    const entries = checkIns.map((instant) => entry(localDateOf(instant, timeZone)))
    // Sunday 23:45 local, the user's today.
    const today = localDateOf(checkIns[6]! + 15 * 60_000, timeZone)
    expect(today).toBe(addDays(monday, 6))
    const tracked = habit({ createdOn: monday })
    expect(weeklyCompletion(tracked, entries, today, 1)).toEqual([{ weekStart: monday, due: 7, done: 7, rate: 1 }])
    expect(currentStreak(tracked, entries, today)).toEqual(days(7))
  })
})
