import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { scheduleFormValues, scheduleSchema } from './schedule-form'

function form(entries: Record<string, string>) {
  const data = new FormData()
  for (const [name, value] of Object.entries(entries)) data.append(name, value)
  return data
}

const base = {
  time_zone: 'America/Sao_Paulo',
  consultation_minutes: '50',
  buffer_minutes: '10',
  minimum_notice_hours: '12',
  horizon_days: '60',
}

describe('scheduleSchema', () => {
  it('turns the form into the provider schedule: blank rows dropped, slots in order, days off kept', () => {
    const submission = parseWithZod(
      form({
        ...base,
        'availability.monday.enabled': 'on',
        'availability.monday.slots[0].start': '13:00',
        'availability.monday.slots[0].end': '18:00',
        'availability.monday.slots[1].start': '08:00',
        'availability.monday.slots[1].end': '12:00',
        'availability.monday.slots[2].start': '',
        'availability.monday.slots[2].end': '',
        'availability.tuesday.slots[0].start': '09:00',
        'availability.tuesday.slots[0].end': '10:00',
        'exceptions[0].date': '2026-12-25',
        'exceptions[0].kind': 'off',
        'exceptions[1].date': '2026-12-24',
        'exceptions[1].kind': 'hours',
        'exceptions[1].start': '08:00',
        'exceptions[1].end': '12:00',
        'exceptions[2].date': '',
        'exceptions[2].kind': 'off',
      }),
      { schema: scheduleSchema },
    )
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value.availability.monday).toEqual({ enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] })
    expect(submission.value.availability.tuesday).toEqual({ enabled: false, slots: [{ start: '09:00', end: '10:00' }] })
    expect(submission.value.availability.sunday).toEqual({ enabled: false, slots: [] })
    expect(submission.value.exceptions).toEqual([
      { date: '2026-12-24', slots: [{ start: '08:00', end: '12:00' }] },
      { date: '2026-12-25', slots: [] },
    ])
    expect(submission.value.consultation_minutes).toBe(50)
  })

  it('gives each bad slot its own message, on its own field', () => {
    const submission = parseWithZod(
      form({
        ...base,
        'availability.monday.enabled': 'on',
        'availability.monday.slots[0].start': '08:00',
        'availability.monday.slots[0].end': '12:00',
        'availability.monday.slots[1].start': '25:00',
        'availability.monday.slots[1].end': '26:00',
        'availability.monday.slots[2].start': '',
        'availability.monday.slots[2].end': '',
        'availability.monday.slots[3].start': '11:00',
        'availability.monday.slots[3].end': '13:00',
        'availability.wednesday.slots[0].start': '15:00',
        'availability.wednesday.slots[0].end': '14:00',
        'availability.thursday.slots[0].start': '15:00',
        'availability.friday.enabled': 'on',
      }),
      { schema: scheduleSchema },
    )
    expect(submission.status).toBe('error')
    expect(submission.status === 'error' ? submission.error : null).toEqual({
      'availability.monday.slots[1].start': ['schedule:validation.time'],
      'availability.monday.slots[1].end': ['schedule:validation.time'],
      'availability.monday.slots[3].start': ['schedule:validation.overlap'],
      'availability.wednesday.slots[0].end': ['schedule:validation.order'],
      'availability.thursday.slots[0].end': ['errors.required'],
      'availability.friday.enabled': ['schedule:validation.enabledWithoutSlots'],
    })
  })

  it('checks the numbers, the zone and the exception dates', () => {
    const submission = parseWithZod(
      form({
        time_zone: 'Mars/Olympus',
        consultation_minutes: '5',
        buffer_minutes: 'x',
        minimum_notice_hours: '',
        horizon_days: '1.5',
        'exceptions[0].date': '2026-02-30',
        'exceptions[1].date': '2026-12-25',
        'exceptions[2].date': '2026-12-25',
        'exceptions[2].kind': 'hours',
        'exceptions[2].start': '10:00',
      }),
      { schema: scheduleSchema },
    )
    expect(submission.status === 'error' ? submission.error : null).toEqual({
      time_zone: ['schedule:validation.timeZone'],
      consultation_minutes: ['schedule:validation.consultationMinutes'],
      buffer_minutes: ['schedule:validation.bufferMinutes'],
      minimum_notice_hours: ['errors.required'],
      horizon_days: ['schedule:validation.horizonDays'],
      'exceptions[0].date': ['validation.date'],
      'exceptions[2].date': ['schedule:validation.duplicateDate'],
      'exceptions[2].end': ['errors.required'],
    })
  })
})

describe('exceptions with several ranges', () => {
  const rows = (entries: [string, string, string, string][]) =>
    Object.fromEntries(
      entries.flatMap(([date, kind, start, end], index) => [
        [`exceptions[${index}].date`, date],
        [`exceptions[${index}].kind`, kind],
        [`exceptions[${index}].start`, start],
        [`exceptions[${index}].end`, end],
      ]),
    )

  it('reads rows of one date as the ranges of that day, in order', () => {
    const submission = parseWithZod(form({ ...base, ...rows([['2026-12-24', 'hours', '14:00', '16:00'], ['2026-12-24', 'hours', '08:00', '10:00']]) }), { schema: scheduleSchema })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(submission.value.exceptions).toEqual([{ date: '2026-12-24', slots: [{ start: '08:00', end: '10:00' }, { start: '14:00', end: '16:00' }] }])
  })

  it('refuses ranges of one date that overlap, and a day off beside other hours', () => {
    const submission = parseWithZod(
      form({ ...base, ...rows([['2026-12-24', 'hours', '08:00', '10:00'], ['2026-12-24', 'hours', '09:00', '11:00'], ['2026-12-31', 'off', '', ''], ['2026-12-31', 'hours', '08:00', '09:00']]) }),
      { schema: scheduleSchema },
    )
    expect(submission.status).toBe('error')
    if (submission.status !== 'error') return
    expect(submission.error).toMatchObject({ 'exceptions[1].start': ['schedule:validation.overlap'], 'exceptions[3].date': ['schedule:validation.duplicateDate'] })
  })

  it('gives a saved date with several ranges one row per range', () => {
    const closed = { enabled: false, slots: [] }
    const values = scheduleFormValues({
      time_zone: 'America/Sao_Paulo',
      consultation_minutes: 50,
      buffer_minutes: 0,
      minimum_notice_hours: 12,
      horizon_days: 60,
      availability: { monday: closed, tuesday: closed, wednesday: closed, thursday: closed, friday: closed, saturday: closed, sunday: closed },
      exceptions: [{ date: '2026-12-24', slots: [{ start: '14:00', end: '16:00' }, { start: '08:00', end: '10:00' }] }],
    })
    expect(values.exceptions).toEqual([
      { date: '2026-12-24', kind: 'hours', start: '08:00', end: '10:00' },
      { date: '2026-12-24', kind: 'hours', start: '14:00', end: '16:00' },
      { date: '', kind: 'off', start: '', end: '' },
    ])
  })
})

describe('scheduleFormValues', () => {
  it('offers one blank row after the saved slots of each day and after the exceptions', () => {
    const values = scheduleFormValues({
      time_zone: 'Europe/Lisbon',
      consultation_minutes: 50,
      buffer_minutes: 10,
      minimum_notice_hours: 12,
      horizon_days: 60,
      availability: {
        monday: { enabled: true, slots: [{ start: '13:00', end: '18:00' }, { start: '08:00', end: '12:00' }] },
        tuesday: { enabled: false, slots: [] },
        wednesday: { enabled: false, slots: [] },
        thursday: { enabled: false, slots: [] },
        friday: { enabled: false, slots: [] },
        saturday: { enabled: false, slots: [] },
        sunday: { enabled: false, slots: [] },
      },
      exceptions: [{ date: '2026-12-25', slots: [] }],
    })
    expect(values.availability.monday).toEqual({ enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }, { start: '', end: '' }] })
    expect(values.availability.tuesday).toEqual({ enabled: false, slots: [{ start: '', end: '' }] })
    expect(values.exceptions).toEqual([
      { date: '2026-12-25', kind: 'off', start: '', end: '' },
      { date: '', kind: 'off', start: '', end: '' },
    ])
  })
})
