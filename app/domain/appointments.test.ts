import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  DEFAULT_TIME_ZONE,
  availabilityWindow,
  consultationWindow,
  formatDate,
  formatDateTime,
  formatPrice,
  formatTime,
  groupDatesByWeek,
  groupSlotsByDate,
  isChangeable,
  isIsoDate,
  languageName,
  localDate,
  nearestSlots,
  pickDate,
  refundOnCancel,
  shouldLabelTimeZone,
  timeLabels,
  timeZoneLabel,
  timeZoneOr,
} from './appointments.ts'

const PROFESSIONAL = 'America/Sao_Paulo'
const LISBON = 'Europe/Lisbon'
const NEW_YORK = 'America/New_York'

/** A professional's 50-minute consultation starting at this instant. */
const slot = (start: string) => ({ start, end: new Date(Date.parse(start) + 50 * 60_000).toISOString() })

afterEach(() => {
  vi.useRealTimers()
})

describe('time zones', () => {
  test('a real IANA zone is kept; anything else falls back to São Paulo', () => {
    expect(timeZoneOr('Europe/Lisbon')).toBe('Europe/Lisbon')
    expect(timeZoneOr('Mars/Olympus')).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOr('')).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOr('America/New_York')).toBe('America/New_York')
    expect(timeZoneOr(null)).toBe(DEFAULT_TIME_ZONE)
    expect(timeZoneOr('not a zone')).toBe('America/Sao_Paulo')
  })

  test('times are labelled with the zone only when the patient is elsewhere (aliases are the same zone)', () => {
    expect(shouldLabelTimeZone(LISBON, PROFESSIONAL)).toBe(true)
    expect(shouldLabelTimeZone(PROFESSIONAL, PROFESSIONAL)).toBe(false)
    expect(shouldLabelTimeZone('Brazil/East', PROFESSIONAL)).toBe(false)
  })

  test('a zone label names the zone, the city and the offset at that moment', () => {
    expect(timeZoneLabel(LISBON, 'pt', '2026-03-28T12:00:00Z')).toBe('Horário da Europa Ocidental (Lisbon, GMT+0)')
    expect(timeZoneLabel(LISBON, 'pt', '2026-03-30T12:00:00Z')).toBe('Horário da Europa Ocidental (Lisbon, GMT+1)')
    expect(timeZoneLabel(NEW_YORK, 'en', '2026-11-02T12:00:00Z')).toBe('Eastern Time (New York, GMT-5)')
    expect(timeZoneLabel(PROFESSIONAL, 'es', '2026-11-02T12:00:00Z')).toBe('hora estándar de Brasilia (Sao Paulo, GMT-3)')
  })
})

describe('free times grouped by the patient’s local date', () => {
  test('a patient in Lisbon on the day summer time starts (29 March 2026)', () => {
    const slots = [
      slot('2026-03-29T12:00:00.000Z'), // 09:00 in São Paulo, 13:00 in Lisbon (WEST)
      slot('2026-03-28T23:00:00.000Z'), // 20:00 in São Paulo on the 28th, 23:00 in Lisbon on the 28th
      slot('2026-03-29T00:00:00.000Z'), // 21:00 in São Paulo on the 28th, 00:00 in Lisbon (WET) on the 29th
      slot('2026-03-29T01:00:00.000Z'), // 22:00 in São Paulo on the 28th, 02:00 in Lisbon (WEST): 01:00 never happens
    ]
    const days = groupSlotsByDate(slots, LISBON)
    expect(days.map((day) => [day.date, day.slots.map((s) => s.start)])).toEqual([
      ['2026-03-28', ['2026-03-28T23:00:00.000Z']],
      ['2026-03-29', ['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T12:00:00.000Z']],
    ])
    // The professional sees three of them on the 28th.
    expect(groupSlotsByDate(slots, PROFESSIONAL).map((day) => [day.date, day.slots.length])).toEqual([
      ['2026-03-28', 3],
      ['2026-03-29', 1],
    ])
    // The day's offset changes: each time names its own.
    expect(timeLabels(days[1]!.slots, LISBON, 'pt').map((s) => s.label)).toEqual(['00:00 (GMT+0)', '02:00 (GMT+1)', '13:00 (GMT+1)'])
    expect(timeLabels(days[0]!.slots, LISBON, 'pt').map((s) => s.label)).toEqual(['23:00'])
  })

  test('a patient in Lisbon on the day summer time ends (25 October 2026): 01:30 happens twice', () => {
    const slots = [slot('2026-10-25T00:30:00.000Z'), slot('2026-10-25T01:30:00.000Z')] // 21:30 and 22:30 on the 24th in São Paulo
    const [day] = groupSlotsByDate(slots, LISBON)
    expect(day?.date).toBe('2026-10-25')
    expect(timeLabels(day!.slots, LISBON, 'pt').map((s) => s.label)).toEqual(['01:30 (GMT+1)', '01:30 (GMT+0)'])
  })

  test('a patient in New York on the day daylight time starts (8 March 2026)', () => {
    const slots = [slot('2026-03-07T12:00:00.000Z'), slot('2026-03-08T06:30:00.000Z'), slot('2026-03-08T12:00:00.000Z')]
    const days = groupSlotsByDate(slots, NEW_YORK)
    expect(days.map((day) => day.date)).toEqual(['2026-03-07', '2026-03-08'])
    // 09:00 in São Paulo is 07:00 in New York the day before the change and 08:00 the day of it.
    expect(formatTime('2026-03-07T12:00:00.000Z', NEW_YORK, 'pt')).toBe('07:00')
    expect(formatTime('2026-03-08T12:00:00.000Z', NEW_YORK, 'pt')).toBe('08:00')
    expect(timeLabels(days[1]!.slots, NEW_YORK, 'en').map((s) => s.label)).toEqual(['1:30 AM (GMT-5)', '8:00 AM (GMT-4)'])
  })

  test('a patient in New York on the day daylight time ends (1 November 2026): both 1:30 AM are offered, told apart', () => {
    const slots = [slot('2026-11-01T05:30:00.000Z'), slot('2026-11-01T06:30:00.000Z')] // 02:30 and 03:30 in São Paulo
    const [day] = groupSlotsByDate(slots, NEW_YORK)
    expect(day?.date).toBe('2026-11-01')
    expect(timeLabels(day!.slots, NEW_YORK, 'en').map((s) => s.label)).toEqual(['1:30 AM (GMT-4)', '1:30 AM (GMT-5)'])
    // The professional, whose zone has no daylight time, reads plain times.
    expect(timeLabels(day!.slots, PROFESSIONAL, 'pt').map((s) => s.label)).toEqual(['02:30', '03:30'])
  })

  test('local dates follow the zone, not the server', () => {
    expect(localDate('2026-03-29T00:00:00.000Z', LISBON)).toBe('2026-03-29')
    expect(localDate('2026-03-29T00:00:00.000Z', NEW_YORK)).toBe('2026-03-28')
    expect(localDate('2026-03-29T00:00:00.000Z', PROFESSIONAL)).toBe('2026-03-28')
  })
})

describe('dates', () => {
  test('real calendar dates only', () => {
    expect(isIsoDate('2026-02-28')).toBe(true)
    expect(isIsoDate('2026-02-30')).toBe(false)
    expect(isIsoDate('2026-2-3')).toBe(false)
    expect(isIsoDate(undefined)).toBe(false)
  })

  test('the asked date when it has free times, else the first', () => {
    const dates = ['2026-12-01', '2026-12-03']
    expect(pickDate(dates, '2026-12-03')).toBe('2026-12-03')
    expect(pickDate(dates, '2026-12-02')).toBe('2026-12-01')
    expect(pickDate(dates, 'amanhã')).toBe('2026-12-01')
    expect(pickDate([], '2026-12-01')).toBeNull()
  })

  test('dates grouped by week, weeks starting on Monday', () => {
    expect(groupDatesByWeek(['2026-12-03', '2026-11-30', '2026-12-06', '2026-12-07'])).toEqual([
      { weekStart: '2026-11-30', dates: ['2026-11-30', '2026-12-03', '2026-12-06'] },
      { weekStart: '2026-12-07', dates: ['2026-12-07'] },
    ])
  })

  test('dates and times in the reader’s language', () => {
    expect(formatDate('2026-03-30', 'pt')).toBe('segunda-feira, 30 de março de 2026')
    expect(formatDate('2026-03-30', 'en', 'short')).toBe('Mon, Mar 30')
    expect(formatDate('2026-03-30', 'es', 'dayMonth')).toBe('30 de marzo')
    expect(formatDateTime('2026-03-30T12:00:00.000Z', PROFESSIONAL, 'pt')).toBe('segunda-feira, 30 de março de 2026 às 09:00')
    expect(formatDateTime('2026-03-30T12:00:00.000Z', LISBON, 'en')).toBe('Monday, March 30, 2026 at 1:00 PM')
  })
})

describe('checking a chosen time again', () => {
  const slots = ['10:00', '11:00', '13:00', '14:00', '17:00'].map((time) => slot(`2026-12-01T${time}:00.000Z`))

  test('the nearest free times, nearest first, the earlier on a tie', () => {
    expect(nearestSlots(slots, '2026-12-01T12:00:00.000Z').map((s) => s.start.slice(11, 16))).toEqual(['11:00', '13:00', '10:00'])
    expect(nearestSlots(slots, '2026-12-01T13:00:00.000Z', 2).map((s) => s.start.slice(11, 16))).toEqual(['14:00', '11:00'])
  })

  test('the window read is sixty days from now', () => {
    expect(availabilityWindow(new Date('2026-12-01T12:00:00.000Z'))).toEqual({ start: '2026-12-01T12:00:00.000Z', end: '2027-01-30T12:00:00.000Z' })
  })
})

describe('the cancellation terms (docs/product.md §9)', () => {
  const start = '2026-12-02T12:00:00.000Z'

  test('a patient cancelling 24 hours ahead or more is refunded in full; later, not', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-12-01T12:00:00.000Z'))
    expect(refundOnCancel({ start, now: new Date(), by: 'patient' })).toBe('full')
    vi.setSystemTime(new Date('2026-12-01T12:00:00.001Z'))
    expect(refundOnCancel({ start, now: new Date(), by: 'patient' })).toBe('none')
    vi.setSystemTime(new Date('2026-11-20T08:00:00.000Z'))
    expect(refundOnCancel({ start, now: new Date(), by: 'patient' })).toBe('full')
  })

  test('the professional or an admin cancelling always refunds in full', () => {
    const now = new Date('2026-12-02T11:00:00.000Z')
    expect(refundOnCancel({ start, now, by: 'professional' })).toBe('full')
    expect(refundOnCancel({ start, now, by: 'admin' })).toBe('full')
  })

  test('only a live appointment that has not started can be cancelled or moved', () => {
    const before = new Date('2026-12-02T11:59:59.000Z')
    expect(isChangeable({ status: 'scheduled', start }, before)).toBe(true)
    expect(isChangeable({ status: 'confirmed', start }, before)).toBe(true)
    expect(isChangeable({ status: 'cancelled', start }, before)).toBe(false)
    expect(isChangeable({ status: 'scheduled', start }, new Date(start))).toBe(false)
  })
})

describe('the consultation window', () => {
  const appointment = { start: '2026-12-02T12:00:00.000Z', end: '2026-12-02T12:50:00.000Z' }

  test.each([
    ['2026-12-02T11:49:59.999Z', 'before'],
    ['2026-12-02T11:50:00.000Z', 'open'],
    ['2026-12-02T12:49:59.999Z', 'open'],
    ['2026-12-02T12:50:00.000Z', 'ended'],
  ] as const)('at %s it is %s', (now, state) => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(now))
    expect(consultationWindow(appointment, new Date())).toEqual({ opensAt: '2026-12-02T11:50:00.000Z', closesAt: '2026-12-02T12:50:00.000Z', state })
  })
})

describe('prices and languages', () => {
  test('prices in reais, written the reader’s way', () => {
    expect(formatPrice(18_000, 'pt')).toBe('R$\u00a0180,00')
    expect(formatPrice(18_050, 'en')).toBe('R$180.50')
    expect(formatPrice(0, 'es')).toBe('0,00\u00a0BRL')
  })

  test('language codes named in the reader’s language', () => {
    expect(languageName('pt', 'pt')).toBe('Português')
    expect(languageName('en', 'es')).toBe('Inglés')
    expect(languageName('es', 'en')).toBe('Spanish')
  })
})
