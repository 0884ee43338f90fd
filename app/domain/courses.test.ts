import { describe, expect, test } from 'vitest'
import { clockTime, courseStage, resumeFragment } from './courses'

describe('courses', () => {
  test('lengths and moments as a clock', () => {
    expect(clockTime(0)).toBe('0:00')
    expect(clockTime(42.9)).toBe('0:42')
    expect(clockTime(725)).toBe('12:05')
    expect(clockTime(3729)).toBe('1:02:09')
    expect(clockTime(-3)).toBe('0:00')
  })

  test('a lesson opens at its resume point unless never played, done, or near its end', () => {
    expect(resumeFragment({ position_seconds: 12.6, completed: false }, 30)).toBe('#t=12')
    expect(resumeFragment({ position_seconds: 0, completed: false }, 30)).toBe('')
    expect(resumeFragment({ position_seconds: 12, completed: true }, 30)).toBe('')
    expect(resumeFragment({ position_seconds: 26, completed: false }, 30)).toBe('')
  })

  test('a course is new, started or done', () => {
    const progress = { started: false, completed_lessons: 0, total_lessons: 3, next_lesson_id: 1 }
    expect(courseStage(progress)).toBe('new')
    expect(courseStage({ ...progress, started: true, completed_lessons: 2, next_lesson_id: 3 })).toBe('started')
    expect(courseStage({ ...progress, started: true, completed_lessons: 3, next_lesson_id: null })).toBe('done')
  })
})
