import { expect, test } from 'vitest'
import { progressPercent, weekOf } from './program'

const schedule = [1, 2, 3].map((week) => ({ week, goals: [`goal ${week}`] }))

test('this week is the current week, or the last once the program is over', () => {
  expect(weekOf(schedule, 2)?.goals).toEqual(['goal 2'])
  expect(weekOf(schedule, 9)?.week).toBe(3)
  expect(weekOf([], 1)).toBeUndefined()
})

test('progress in whole percent', () => {
  expect(progressPercent({ done: 3, total: 42 })).toBe(7)
  expect(progressPercent({ done: 0, total: 0 })).toBe(0)
  expect(progressPercent({ done: 42, total: 42 })).toBe(100)
})
