import { describe, expect, it } from 'vitest'
import type { TimeSlot, WeeklyAvailability } from '#server/db/schema.ts'
import {
  freeTimesByDate,
  freeTimes,
  isClear,
  nearestFree,
  startTimeProblem,
  type Booking,
  type DateException,
  type ScheduleRules,
} from '#server/appointments/free-times.ts'

const at = (iso: string) => Date.parse(iso)
const iso = (instant: number) => new Date(instant).toISOString()
const MINUTE = 60_000

const WORKDAY: TimeSlot[] = [
  { start: '08:00', end: '12:00' },
  { start: '13:00', end: '18:00' },
]

function weekly(weekdays: TimeSlot[], saturday: TimeSlot[] = [], sunday: TimeSlot[] = []): WeeklyAvailability {
  const day = (slots: TimeSlot[]) => ({ enabled: slots.length > 0, slots })
  return {
    monday: day(weekdays),
    tuesday: day(weekdays),
    wednesday: day(weekdays),
    thursday: day(weekdays),
    friday: day(weekdays),
    saturday: day(saturday),
    sunday: day(sunday),
  }
}

function rules(overrides: Partial<ScheduleRules> = {}): ScheduleRules {
  return {
    timeZone: 'America/Sao_Paulo',
    consultationMinutes: 50,
    bufferMinutes: 10,
    minimumNoticeHours: 12,
    horizonDays: 60,
    availability: weekly(WORKDAY, [{ start: '09:00', end: '12:00' }]),
    ...overrides,
  }
}

/** Free times as ISO strings, for readable expectations. */
function free(schedule: ScheduleRules, now: number, options: { exceptions?: DateException[]; booked?: Booking[]; start?: string; end?: string; ignore?: number } = {}) {
  return freeTimes({
    schedule,
    exceptions: options.exceptions ?? [],
    booked: options.booked ?? [],
    now,
    window: { start: options.start ? at(options.start) : undefined, end: options.end ? at(options.end) : undefined },
    ignoreAppointmentId: options.ignore,
  }).map(iso)
}

// Sunday 2026-03-01 09:00 in São Paulo (UTC-3, no daylight saving since 2019).
const SUNDAY_MORNING = at('2026-03-01T12:00:00Z')
const MONDAY = { start: '2026-03-02T03:00:00Z', end: '2026-03-03T03:00:00Z' }
const MONDAY_FREE = ['08:00', '08:50', '09:40', '10:30', '13:00', '13:50', '14:40', '15:30', '16:20', '17:10'].map((time) => {
  const [hours, minutes] = time.split(':').map(Number)
  return iso(at('2026-03-02T03:00:00Z') + (hours! * 60 + minutes!) * MINUTE)
})

describe('freeTimes', () => {
  it('steps each slot by the consultation length while the whole consultation fits', () => {
    expect(free(rules(), SUNDAY_MORNING, MONDAY)).toEqual(MONDAY_FREE)
  })

  it('offers nothing on a disabled day and follows the Saturday hours', () => {
    expect(free(rules(), SUNDAY_MORNING, { start: '2026-03-08T03:00:00Z', end: '2026-03-09T03:00:00Z' })).toEqual([])
    expect(free(rules(), SUNDAY_MORNING, { start: '2026-03-07T03:00:00Z', end: '2026-03-08T03:00:00Z' })).toEqual([
      '2026-03-07T12:00:00.000Z',
      '2026-03-07T12:50:00.000Z',
      '2026-03-07T13:40:00.000Z',
    ])
  })

  it('keeps the buffer between a booking and the consultation before it', () => {
    // Booked 09:40-10:30 local with a 10-minute buffer: blocked until 10:40.
    const booked = [{ id: 1, start: at('2026-03-02T12:40:00Z'), blockedUntil: at('2026-03-02T13:40:00Z') }]
    const withBuffer = free(rules(), SUNDAY_MORNING, { ...MONDAY, booked })
    // 08:50 would end at 09:40 but needs its own 10 minutes after; 10:30 is inside the block.
    expect(withBuffer).toEqual([MONDAY_FREE[0], ...MONDAY_FREE.slice(4)])
    const noBuffer = free(rules({ bufferMinutes: 0 }), SUNDAY_MORNING, { ...MONDAY, booked })
    expect(noBuffer).toEqual([...MONDAY_FREE.slice(0, 2), ...MONDAY_FREE.slice(4)])
  })

  it('honours a booking with a longer block than the current buffer (booked before it changed)', () => {
    const booked = [{ start: at('2026-03-02T11:00:00Z'), blockedUntil: at('2026-03-02T12:41:00Z') }]
    expect(free(rules(), SUNDAY_MORNING, { ...MONDAY, booked }).slice(0, 2)).toEqual(['2026-03-02T13:30:00.000Z', '2026-03-02T16:00:00.000Z'])
  })

  it('ignores the rescheduled appointment itself', () => {
    const booked = [
      { id: 7, start: at('2026-03-02T11:00:00Z'), blockedUntil: at('2026-03-02T12:00:00Z') },
      { id: 8, start: at('2026-03-02T16:00:00Z'), blockedUntil: at('2026-03-02T17:00:00Z') },
    ]
    const rescheduling = free(rules(), SUNDAY_MORNING, { ...MONDAY, booked, ignore: 7 })
    expect(rescheduling).toContain('2026-03-02T11:00:00.000Z')
    expect(rescheduling).not.toContain('2026-03-02T16:00:00.000Z')
    expect(isClear(rules(), booked, at('2026-03-02T11:00:00Z'), 7)).toBe(true)
    expect(isClear(rules(), booked, at('2026-03-02T11:00:00Z'))).toBe(false)
    expect(isClear(rules(), booked, at('2026-03-02T15:10:00Z'), 7)).toBe(false)
  })

  it('leaves out busy time like a booking, also for the rescheduled appointment (decision 0026)', () => {
    // Busy 08:55-10:00 local (another calendar's event): 08:00 runs into it with its buffer, 08:50 and 09:40 overlap it.
    const busy = [{ start: at('2026-03-02T11:55:00Z'), end: at('2026-03-02T13:00:00Z') }]
    const monday = (options: { ignore?: number; booked?: Booking[] } = {}) =>
      freeTimes({ schedule: rules(), exceptions: [], booked: options.booked ?? [], busy, now: SUNDAY_MORNING, window: { start: at(MONDAY.start), end: at(MONDAY.end) }, ignoreAppointmentId: options.ignore }).map(iso)
    expect(monday()).toEqual(MONDAY_FREE.slice(3))
    // Without the buffer 08:00-08:50 ends before the busy time.
    const noBuffer = freeTimes({ schedule: rules({ bufferMinutes: 0 }), exceptions: [], booked: [], busy, now: SUNDAY_MORNING, window: { start: at(MONDAY.start), end: at(MONDAY.end) } }).map(iso)
    expect(noBuffer).toEqual([MONDAY_FREE[0], ...MONDAY_FREE.slice(3)])
    // Merged with the bookings, whatever the order.
    const booked = [{ id: 3, start: at('2026-03-02T16:00:00Z'), blockedUntil: at('2026-03-02T17:00:00Z') }]
    expect(monday({ booked })).not.toContain('2026-03-02T16:00:00.000Z')
    expect(monday({ booked, ignore: 3 })).toContain('2026-03-02T16:00:00.000Z')
    expect(isClear(rules(), [], at('2026-03-02T11:00:00Z'), undefined, busy)).toBe(false)
    // Touching is not overlapping: 10:00 starts as the busy time ends.
    expect(isClear(rules(), [], at('2026-03-02T13:00:00Z'), undefined, busy)).toBe(true)
    expect(isClear(rules(), [], at('2026-03-02T11:00:00Z'))).toBe(true)
  })

  it('starts at now + minimum notice', () => {
    const mondayNine = at('2026-03-02T12:00:00Z')
    expect(free(rules(), mondayNine, MONDAY)).toEqual([])
    expect(free(rules({ minimumNoticeHours: 2 }), mondayNine, MONDAY)).toEqual(MONDAY_FREE.slice(4))
    // Exactly at the notice is allowed.
    expect(free(rules({ minimumNoticeHours: 1 }), at('2026-03-02T15:00:00Z'), MONDAY)[0]).toBe('2026-03-02T16:00:00.000Z')
  })

  it('ends at now + horizon, inclusive', () => {
    const schedule = rules({ minimumNoticeHours: 0, horizonDays: 1 })
    // Monday 08:50 local: the horizon ends Tuesday 08:50, so Tuesday offers 08:00 and 08:50 only.
    const result = free(schedule, at('2026-03-02T11:50:00Z'))
    expect(result.filter((time) => time.startsWith('2026-03-03'))).toEqual(['2026-03-03T11:00:00.000Z', '2026-03-03T11:50:00.000Z'])
    expect(result[0]).toBe('2026-03-02T11:50:00.000Z')
  })

  it('replaces a date by its exception: a day off, or other hours', () => {
    const exceptions = [
      { date: '2026-03-02', slots: [] },
      { date: '2026-03-08', slots: [{ start: '10:00', end: '11:00' }] },
    ]
    expect(free(rules(), SUNDAY_MORNING, { ...MONDAY, exceptions })).toEqual([])
    expect(free(rules(), SUNDAY_MORNING, { start: '2026-03-08T03:00:00Z', end: '2026-03-09T03:00:00Z', exceptions })).toEqual(['2026-03-08T13:00:00.000Z'])
    const shorter = [{ date: '2026-03-03', slots: [{ start: '14:00', end: '16:00' }] }]
    expect(free(rules(), SUNDAY_MORNING, { start: '2026-03-03T03:00:00Z', end: '2026-03-04T03:00:00Z', exceptions: shorter })).toEqual([
      '2026-03-03T17:00:00.000Z',
      '2026-03-03T17:50:00.000Z',
    ])
  })

  it('stops at the limit', () => {
    expect(freeTimes({ schedule: rules(), exceptions: [], booked: [], now: SUNDAY_MORNING, limit: 1 }).map(iso)).toEqual([MONDAY_FREE[0]])
  })

  it('computes 60 days with 200 bookings in a few milliseconds', () => {
    const schedule = rules({ minimumNoticeHours: 0 })
    const all = freeTimes({ schedule, exceptions: [], booked: [], now: SUNDAY_MORNING })
    // Every other free time booked, shuffled: the function sorts them itself.
    const booked = all
      .filter((_, index) => index % 2 === 0)
      .slice(0, 200)
      .map((start, id) => ({ id, start, blockedUntil: start + 60 * MINUTE }))
      .sort((a, b) => (a.id * 7919) % 200 - (b.id * 7919) % 200)
    expect(booked).toHaveLength(200)
    const query = { schedule, exceptions: [], booked, now: SUNDAY_MORNING }
    // How long it takes is the bench's (`npm run bench -- --only=freetimes`), never a test's.
    const result = freeTimes(query)
    expect(result.length).toBeLessThan(all.length - 200)
    expect(result.every((start) => isClear(schedule, booked, start))).toBe(true)
  })
})

describe('daylight-saving changes', () => {
  /** No weekly hours, 30-minute consultations without buffer or notice, one date's exception. */
  const halfHours = (timeZone: string, date: string, slots: TimeSlot[]) => ({
    schedule: rules({ timeZone, consultationMinutes: 30, bufferMinutes: 0, minimumNoticeHours: 0, availability: weekly([]) }),
    exceptions: [{ date, slots }],
  })

  it('America/Sao_Paulo 2018-11-04: skips the wall times that did not exist', () => {
    const { schedule, exceptions } = halfHours('America/Sao_Paulo', '2018-11-04', [{ start: '00:00', end: '03:00' }])
    expect(free(schedule, at('2018-11-01T00:00:00Z'), { exceptions })).toEqual([
      '2018-11-04T03:00:00.000Z',
      '2018-11-04T03:30:00.000Z',
      '2018-11-04T04:00:00.000Z',
      '2018-11-04T04:30:00.000Z',
    ])
    // A weekday after the change is in summer time (UTC-2).
    const weekdays = rules({ minimumNoticeHours: 0 })
    expect(free(weekdays, at('2018-11-01T00:00:00Z'), { start: '2018-11-05T00:00:00Z', end: '2018-11-06T00:00:00Z' })[0]).toBe('2018-11-05T10:00:00.000Z')
  })

  it('America/Sao_Paulo 2019-02-16: offers the repeated hour once, the first time', () => {
    const { schedule, exceptions } = halfHours('America/Sao_Paulo', '2019-02-16', [{ start: '22:00', end: '24:00' }])
    expect(free(schedule, at('2019-02-10T00:00:00Z'), { exceptions })).toEqual([
      '2019-02-17T00:00:00.000Z',
      '2019-02-17T00:30:00.000Z',
      '2019-02-17T01:00:00.000Z',
      '2019-02-17T01:30:00.000Z',
    ])
    expect(startTimeProblem(schedule, exceptions, at('2019-02-10T00:00:00Z'), at('2019-02-17T01:00:00Z'))).toBeUndefined()
    // 23:00 the second time (UTC-3) is not offered.
    expect(startTimeProblem(schedule, exceptions, at('2019-02-10T00:00:00Z'), at('2019-02-17T02:00:00Z'))).toBe("This time is outside the professional's availability.")
  })

  it('America/New_York 2026-03-08 and 2026-11-01', () => {
    const spring = halfHours('America/New_York', '2026-03-08', [{ start: '01:00', end: '04:00' }])
    expect(free(spring.schedule, at('2026-03-01T00:00:00Z'), { exceptions: spring.exceptions })).toEqual([
      '2026-03-08T06:00:00.000Z',
      '2026-03-08T06:30:00.000Z',
      '2026-03-08T07:00:00.000Z',
      '2026-03-08T07:30:00.000Z',
    ])
    const fall = {
      schedule: rules({ timeZone: 'America/New_York', consultationMinutes: 60, bufferMinutes: 0, minimumNoticeHours: 0, availability: weekly([]) }),
      exceptions: [{ date: '2026-11-01', slots: [{ start: '00:00', end: '03:00' }] }],
    }
    expect(free(fall.schedule, at('2026-10-25T00:00:00Z'), { exceptions: fall.exceptions })).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
    ])
    expect(startTimeProblem(fall.schedule, fall.exceptions, at('2026-10-25T00:00:00Z'), at('2026-11-01T06:00:00Z'))).toBe(
      "This time is outside the professional's availability.",
    )
  })

  it('Europe/Lisbon 2026-03-29 and 2026-10-25', () => {
    const spring = halfHours('Europe/Lisbon', '2026-03-29', [{ start: '00:00', end: '03:00' }])
    expect(free(spring.schedule, at('2026-03-20T00:00:00Z'), { exceptions: spring.exceptions })).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ])
    const fall = halfHours('Europe/Lisbon', '2026-10-25', [{ start: '00:00', end: '03:00' }])
    expect(free(fall.schedule, at('2026-10-20T00:00:00Z'), { exceptions: fall.exceptions })).toEqual([
      '2026-10-24T23:00:00.000Z',
      '2026-10-24T23:30:00.000Z',
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T02:00:00.000Z',
      '2026-10-25T02:30:00.000Z',
    ])
  })

  it('keeps weekly hours in the local time zone across the change', () => {
    const lisbon = rules({ timeZone: 'Europe/Lisbon', minimumNoticeHours: 0 })
    const now = at('2026-03-26T00:00:00Z')
    // Friday 2026-03-27 08:00 is 08:00Z (WET); Monday 2026-03-30 08:00 is 07:00Z (WEST).
    expect(free(lisbon, now, { start: '2026-03-27T00:00:00Z', end: '2026-03-28T00:00:00Z' })[0]).toBe('2026-03-27T08:00:00.000Z')
    expect(free(lisbon, now, { start: '2026-03-30T00:00:00Z', end: '2026-03-31T00:00:00Z' })[0]).toBe('2026-03-30T07:00:00.000Z')
  })
})

describe('startTimeProblem', () => {
  const now = at('2026-03-02T12:00:00Z') // Monday 09:00 in São Paulo
  const problem = (start: string, exceptions: DateException[] = []) => startTimeProblem(rules(), exceptions, now, at(start))

  it('answers in the contract order: past, notice, horizon, outside availability', () => {
    // In the past and off-step: the past wins.
    expect(problem('2026-03-02T11:10:00Z')).toBe('This time is in the past.')
    expect(problem('2026-03-02T19:00:00Z')).toBe('This time is inside the minimum notice of 12 hours.')
    expect(problem('2026-05-04T11:00:00Z')).toBe('This time is beyond the booking horizon of 60 days.')
    expect(problem('2026-03-03T11:10:00Z')).toBe("This time is outside the professional's availability.") // off-step
    expect(problem('2026-03-03T15:20:00Z')).toBe("This time is outside the professional's availability.") // 12:20, between slots
    expect(problem('2026-03-08T13:00:00Z')).toBe("This time is outside the professional's availability.") // Sunday
    expect(problem('2026-03-03T14:20:00Z')).toBe("This time is outside the professional's availability.") // 11:20 would end after 12:00
  })

  it('accepts offered starts, following exceptions', () => {
    expect(problem('2026-03-03T11:00:00Z')).toBeUndefined()
    expect(problem('2026-03-03T20:10:00Z')).toBeUndefined() // 17:10, the last of the day
    expect(problem('2026-03-03T11:00:00Z', [{ date: '2026-03-03', slots: [] }])).toBe("This time is outside the professional's availability.")
    expect(problem('2026-03-08T13:00:00Z', [{ date: '2026-03-08', slots: [{ start: '10:00', end: '11:00' }] }])).toBeUndefined()
  })
})

describe('nearestFree', () => {
  const free = [10, 20, 30, 40, 50]

  it('takes the nearest by distance, the earlier on a tie, nearest first', () => {
    expect(nearestFree(26, free)).toEqual([30, 20, 40])
    expect(nearestFree(25, free)).toEqual([20, 30, 10])
    expect(nearestFree(30, free)).toEqual([30, 20, 40])
    expect(nearestFree(0, free)).toEqual([10, 20, 30])
    expect(nearestFree(99, free, 2)).toEqual([50, 40])
    expect(nearestFree(5, [7])).toEqual([7])
    expect(nearestFree(5, [])).toEqual([])
  })
})

describe('freeTimesByDate', () => {
  const at = (iso: string) => Date.parse(iso)
  const free = ['2026-03-03T11:00:00Z', '2026-03-03T23:30:00Z', '2026-03-04T02:59:00Z', '2026-03-04T03:00:00Z', '2026-03-05T12:00:00Z'].map(at)

  it('counts the times of each local date and answers the wanted date’s, else the first date’s', () => {
    // São Paulo is UTC-3: 23:30Z and 02:59Z are still the 3rd there; 03:00Z is the 4th.
    expect(freeTimesByDate(free, 'America/Sao_Paulo', '2026-03-04')).toEqual({
      days: [
        { date: '2026-03-03', count: 3 },
        { date: '2026-03-04', count: 1 },
        { date: '2026-03-05', count: 1 },
      ],
      date: '2026-03-04',
      times: [at('2026-03-04T03:00:00Z')],
    })
    expect(freeTimesByDate(free, 'America/Sao_Paulo', '2026-03-08').date).toBe('2026-03-03')
    expect(freeTimesByDate(free, 'America/Sao_Paulo').times).toHaveLength(3)
    // Tokyo is UTC+9: 23:30Z on the 3rd is already the 4th.
    expect(freeTimesByDate(free, 'Asia/Tokyo').days.map((day) => day.date)).toEqual(['2026-03-03', '2026-03-04', '2026-03-05'])
    expect(freeTimesByDate(free, 'Asia/Tokyo').days.map((day) => day.count)).toEqual([1, 3, 1])
    expect(freeTimesByDate([], 'UTC')).toEqual({ days: [], date: null, times: [] })
  })

  it('reads each time’s own offset on a day whose offset changes', () => {
    // New York springs forward at 07:00Z on 2026-03-08 (02:00 EST → 03:00 EDT).
    const times = ['2026-03-08T04:59:00Z', '2026-03-08T05:00:00Z', '2026-03-09T03:59:00Z', '2026-03-09T04:00:00Z'].map(at)
    expect(freeTimesByDate(times, 'America/New_York').days).toEqual([
      { date: '2026-03-07', count: 1 },
      { date: '2026-03-08', count: 2 },
      { date: '2026-03-09', count: 1 },
    ])
  })
})
