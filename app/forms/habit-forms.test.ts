import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { habitFormFromQuery, habitFormQuery, habitFormSchema, habitFormValues, trackSchema } from './habit-forms'

const form = (fields: [string, string][]) => {
  const data = new FormData()
  for (const [name, value] of fields) data.append(name, value)
  return parseWithZod(data, { schema: habitFormSchema })
}
const errorsOf = (fields: [string, string][]) => {
  const submission = form(fields)
  return submission.status === 'success' ? undefined : submission.error
}

describe('the habit form', () => {
  test('chosen weekdays go in week order; the fields of other frequencies are left out', () => {
    const submission = form([
      ['name', ' Caminhada '],
      ['pillar', 'exercicio'],
      ['frequency', 'weekdays'],
      ['weekdays', 'friday'],
      ['weekdays', 'monday'],
      ['times_per_week', '3'],
      ['target', '2,5'],
      ['unit', 'km'],
    ])
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value).toEqual({ name: 'Caminhada', pillar: 'exercicio', frequency: 'weekdays', weekdays: ['monday', 'friday'], target: 2.5, unit: 'km', reminder_time: null })
  })

  test('N times a week needs the number; a unit needs a target; every problem at once', () => {
    const errors = errorsOf([
      ['name', ''],
      ['pillar', 'sono'],
      ['frequency', 'weekly'],
      ['times_per_week', '9'],
      ['unit', 'copos'],
      ['reminder_time', '25:00'],
    ])
    expect(errors).toMatchObject({
      name: ['errors.required'],
      times_per_week: ['habits:validation.timesPerWeek'],
      reminder_time: ['habits:validation.reminderTime'],
      target: ['habits:validation.unitWithoutTarget'],
    })
  })

  test('targets: above zero, at most 100000, three decimals', () => {
    const target = (value: string) => errorsOf([['name', 'Água'], ['pillar', 'alimento'], ['frequency', 'daily'], ['target', value]])?.target
    expect(target('0')).toEqual(['habits:validation.target'])
    expect(target('100001')).toEqual(['habits:validation.target'])
    expect(target('1.2345')).toEqual(['habits:validation.target'])
    expect(target('100000')).toBeUndefined()
  })

  test('a suggestion travels in the address and back into the form; junk is dropped', () => {
    const values = habitFormValues({ name: 'Respiração lenta', pillar: 'estresse', frequency: 'weekdays', weekdays: ['monday', 'tuesday'], times_per_week: null, target: 3, unit: 'minutos', reminder_time: '07:00' })
    expect(habitFormFromQuery(new URLSearchParams(habitFormQuery(values)))).toEqual(values)
    expect(habitFormFromQuery(new URLSearchParams('pillar=nada&frequency=sometimes&weekdays=funday&times_per_week=12&target=abc&reminder_time=99:99'))).toEqual({
      name: '',
      pillar: '',
      frequency: 'daily',
      weekdays: [],
      times_per_week: '3',
      target: '',
      unit: '',
      reminder_time: '',
    })
  })

  test('a day is tracked with a known status, an amount from zero', () => {
    expect(trackSchema.safeParse({ habit: '3', date: '2026-11-25', status: 'skipped' }).success).toBe(true)
    expect(trackSchema.safeParse({ habit: '3', date: '2026-11-25', status: 'maybe' }).success).toBe(false)
    expect(trackSchema.parse({ habit: '3', date: '2026-11-25', status: 'done', amount: '0' }).amount).toBe(0)
  })
})
