import { describe, expect, it } from 'vitest'
import { GOAL_LEVELS, GOAL_LIBRARY } from '#server/questionnaire/goal-library.ts'
import { defaultWeeks, focusLevel, focusStartWeek, orderPillars, planProgram, programProgress } from '#server/questionnaire/program.ts'

const PILLARS = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias']
const SCORES = { estresse: 55, exercicio: 80, alimento: 45, sono: 30, relacionamentos: 90, substancias: 70 }

const summary = (plan: ReturnType<typeof planProgram>) =>
  plan.schedule.map(({ week, goals }) => `${week}: ${goals.map((goal) => `${goal.pillar}${goal.focus ? '*' : ''}${goal.level}`).join(' ')}`)

describe('program length', () => {
  it('is 8 weeks plus 2 per focus pillar beyond the first, at most 12', () => {
    expect([1, 2, 3, 4, 6].map(defaultWeeks)).toEqual([8, 10, 12, 12, 12])
  })

  it('follows the patient’s choice within 8-12', () => {
    expect(planProgram({ focusPillars: ['sono'], allPillars: PILLARS, weeks: 11 }).weeks).toBe(11)
    expect(() => planProgram({ focusPillars: ['sono'], allPillars: PILLARS, weeks: 7 })).toThrow()
    expect(() => planProgram({ focusPillars: ['sono'], allPillars: PILLARS, weeks: 13 })).toThrow()
    expect(() => planProgram({ focusPillars: [], allPillars: PILLARS })).toThrow()
  })
})

describe('pillar order', () => {
  it('puts the focus pillars first, then the others from the lowest score', () => {
    expect(orderPillars(['sono', 'alimento'], PILLARS, SCORES)).toEqual(['sono', 'alimento', 'estresse', 'substancias', 'exercicio', 'relacionamentos'])
  })

  it('keeps the pillar order for the others without scores', () => {
    expect(orderPillars(['relacionamentos'], PILLARS)).toEqual(['relacionamentos', 'estresse', 'exercicio', 'alimento', 'sono', 'substancias'])
  })
})

describe('staggered focus pillars', () => {
  it('starts them two weeks apart with the default length, closer when the length is shorter', () => {
    expect([0, 1, 2].map((index) => focusStartWeek(index, 3, 12))).toEqual([1, 3, 5])
    expect([0, 1].map((index) => focusStartWeek(index, 2, 10))).toEqual([1, 3])
    expect([0, 1, 2].map((index) => focusStartWeek(index, 3, 10))).toEqual([1, 2, 3])
    expect([0, 1, 2].map((index) => focusStartWeek(index, 3, 8))).toEqual([1, 1, 1])
    expect(focusStartWeek(0, 1, 12)).toBe(1)
  })

  it('climbs all 8 levels over the remaining weeks, none skipped', () => {
    for (const weeks of [8, 9, 10, 11, 12]) {
      for (const start of [1, 2, 3, 5].filter((week) => weeks - week + 1 >= 8)) {
        const levels = Array.from({ length: weeks }, (_, index) => focusLevel(index + 1, start, weeks))
        const started = levels.slice(start - 1) as number[]
        expect(levels.slice(0, start - 1).every((level) => level === undefined)).toBe(true)
        expect(started[0]).toBe(1)
        expect(started.at(-1)).toBe(GOAL_LEVELS)
        started.slice(1).forEach((level, index) => expect(level - started[index]!).toBeGreaterThanOrEqual(0))
        started.slice(1).forEach((level, index) => expect(level - started[index]!).toBeLessThanOrEqual(1))
      }
    }
  })
})

describe('planProgram', () => {
  it('one focus pillar: 8 weeks, its 8 levels, and one other pillar a week in turn', () => {
    const plan = planProgram({ focusPillars: ['sono'], allPillars: PILLARS, scores: SCORES })
    expect(plan.pillarsOrder).toEqual(['sono', 'alimento', 'estresse', 'substancias', 'exercicio', 'relacionamentos'])
    expect(summary(plan)).toEqual([
      '1: sono*1 alimento1',
      '2: sono*2 estresse1',
      '3: sono*3 substancias1',
      '4: sono*4 exercicio1',
      '5: sono*5 relacionamentos1',
      '6: sono*6 alimento2',
      '7: sono*7 estresse2',
      '8: sono*8 substancias2',
    ])
  })

  it('three focus pillars: 12 weeks, starting at weeks 1, 3 and 5', () => {
    const plan = planProgram({ focusPillars: ['sono', 'alimento', 'estresse'], allPillars: PILLARS, scores: SCORES })
    expect(plan.weeks).toBe(12)
    expect(summary(plan)).toEqual([
      '1: sono*1 substancias1',
      '2: sono*1 exercicio1',
      '3: sono*2 alimento*1 relacionamentos1',
      '4: sono*3 alimento*1 substancias2',
      '5: sono*3 alimento*2 estresse*1 exercicio2',
      '6: sono*4 alimento*3 estresse*2 relacionamentos2',
      '7: sono*5 alimento*4 estresse*3 substancias3',
      '8: sono*5 alimento*5 estresse*4 exercicio3',
      '9: sono*6 alimento*5 estresse*5 relacionamentos3',
      '10: sono*7 alimento*6 estresse*6 substancias4',
      '11: sono*7 alimento*7 estresse*7 exercicio4',
      '12: sono*8 alimento*8 estresse*8 relacionamentos4',
    ])
  })

  it('all six chosen: every pillar is a focus, no rotation, 12 weeks', () => {
    const plan = planProgram({ focusPillars: PILLARS, allPillars: PILLARS })
    expect(plan.weeks).toBe(12)
    expect(plan.schedule.every((week) => week.goals.every((goal) => goal.focus))).toBe(true)
    expect(plan.schedule.at(-1)!.goals.map((goal) => goal.level)).toEqual([8, 8, 8, 8, 8, 8])
  })

  it('never gives more than focus + 1 goals a week', () => {
    for (const focus of [['sono'], ['sono', 'alimento'], ['sono', 'alimento', 'estresse']]) {
      for (const weeks of [8, 10, 12]) {
        const plan = planProgram({ focusPillars: focus, allPillars: PILLARS, scores: SCORES, weeks })
        expect(plan.schedule).toHaveLength(weeks)
        for (const week of plan.schedule) expect(week.goals.length).toBeLessThanOrEqual(focus.length + 1)
      }
    }
  })
})

describe('goal library', () => {
  it('has 8 progressive goals per pillar, written in pt, en and es', () => {
    expect(Object.keys(GOAL_LIBRARY)).toEqual(PILLARS)
    for (const goals of Object.values(GOAL_LIBRARY)) {
      expect(goals).toHaveLength(GOAL_LEVELS)
      for (const goal of goals) for (const language of ['pt', 'en', 'es'] as const) expect(goal[language].trim().length).toBeGreaterThan(20)
      expect(new Set(goals.map((goal) => goal.en)).size).toBe(GOAL_LEVELS)
    }
  })
})

describe('the program on São Paulo dates', () => {
  it('places today in the program', () => {
    expect(programProgress('2025-03-18', 8, '2025-03-18')).toEqual({ currentWeek: 1, finished: false })
    expect(programProgress('2025-03-18', 8, '2025-03-24')).toEqual({ currentWeek: 1, finished: false })
    expect(programProgress('2025-03-18', 8, '2025-03-25')).toEqual({ currentWeek: 2, finished: false })
    expect(programProgress('2025-03-18', 8, '2025-05-12')).toEqual({ currentWeek: 8, finished: false })
    expect(programProgress('2025-03-18', 8, '2025-05-13')).toEqual({ currentWeek: 8, finished: true })
  })
})
