import { describe, expect, test } from 'vitest'
import { formatDateAndTime, formatInstantDate, withdrawalEndText } from './viewer-times.ts'

/**
 * Decision 0077: an instant in the reader's zone, the zone named where another's meets it. A
 * patient in São Paulo and a professional in Lisbon, in December (Lisbon GMT+0) and on both sides
 * of Lisbon's change to summer time (2026-03-29, 01:00 UTC; São Paulo keeps GMT-3 all year).
 */

const SAO_PAULO = 'America/Sao_Paulo'
const LISBON = 'Europe/Lisbon'
const NEW_YORK = 'America/New_York'
// Whatever space ICU puts before AM/PM (a narrow no-break space in newer versions).
const spaced = (text: string) => text.replace(/\s/g, ' ')

describe('an instant in the reader’s zone', () => {
  const consultation = '2026-12-07T13:50:00Z'

  test('date and time, joined by a comma in every language', () => {
    expect(formatDateAndTime(consultation, SAO_PAULO, 'pt')).toBe('7 de dezembro de 2026, 10:50')
    expect(formatDateAndTime(consultation, LISBON, 'pt')).toBe('7 de dezembro de 2026, 13:50')
    expect(formatDateAndTime(consultation, SAO_PAULO, 'es')).toBe('7 de diciembre de 2026, 10:50')
    expect(formatDateAndTime(consultation, LISBON, 'es')).toBe('7 de diciembre de 2026, 13:50')
    expect(spaced(formatDateAndTime(consultation, SAO_PAULO, 'en'))).toBe('December 7, 2026, 10:50 AM')
    expect(spaced(formatDateAndTime(consultation, LISBON, 'en'))).toBe('December 7, 2026, 1:50 PM')
    expect(formatDateAndTime(consultation, SAO_PAULO, 'pt', { dateStyle: 'short', seconds: true })).toBe('07/12/2026, 10:50:00')
  })

  test('the date an instant falls on depends on the zone', () => {
    // 01:30 UTC on the 8th is still the 7th in São Paulo and already the 8th in Lisbon.
    expect(formatInstantDate('2026-12-08T01:30:00Z', SAO_PAULO, 'pt')).toBe('7 de dezembro de 2026')
    expect(formatInstantDate('2026-12-08T01:30:00Z', LISBON, 'pt')).toBe('8 de dezembro de 2026')
  })

  test('around Lisbon’s change to summer time, the same São Paulo hour is a different Lisbon hour', () => {
    // Saturday before the change, Sunday after it, Monday: 10:50 in São Paulo each day.
    expect(formatDateAndTime('2026-03-28T13:50:00Z', LISBON, 'pt')).toBe('28 de março de 2026, 13:50')
    expect(formatDateAndTime('2026-03-29T13:50:00Z', LISBON, 'pt')).toBe('29 de março de 2026, 14:50')
    expect(formatDateAndTime('2026-03-30T13:50:00Z', LISBON, 'pt')).toBe('30 de março de 2026, 14:50')
    for (const day of ['28', '29', '30']) expect(formatDateAndTime(`2026-03-${day}T13:50:00Z`, SAO_PAULO, 'pt')).toBe(`${day} de março de 2026, 10:50`)
  })
})

describe('the end of the withdrawal days', () => {
  // Paid on 2026-12-07: the 7 days end at midnight in São Paulo starting 2026-12-15.
  const endsAt = '2026-12-15T03:00:00.000Z'

  test('in São Paulo, the last day', () => {
    expect(withdrawalEndText(endsAt, SAO_PAULO, 'pt')).toBe('14 de dezembro de 2026')
    expect(withdrawalEndText(endsAt, SAO_PAULO, 'es')).toBe('14 de diciembre de 2026')
  })

  test('elsewhere, the instant it ends in the reader’s zone, named', () => {
    expect(withdrawalEndText(endsAt, LISBON, 'pt')).toBe('15 de dezembro de 2026, 03:00 (Horário da Europa Ocidental, Lisbon, GMT+0)')
    expect(spaced(withdrawalEndText(endsAt, NEW_YORK, 'en'))).toBe('December 14, 2026, 10:00 PM (Eastern Time, New York, GMT-5)')
  })
})
