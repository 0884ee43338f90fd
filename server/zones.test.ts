import { describe, expect, it } from 'vitest'
import { dateIn, dateTimeIn, differentZones, meetingTimeIn, zoneNamed, zoneOr } from '#server/zones.ts'

/** The provider's texts' times (decision 0077), with a patient in São Paulo and a professional in Lisbon. */

const SAO_PAULO = 'America/Sao_Paulo'
const LISBON = 'Europe/Lisbon'
const appointment = new Date('2026-12-07T13:50:00Z')

describe('a time in its reader’s zone', () => {
  it('reads 10:50 in São Paulo and 13:50 in Lisbon, with the date it falls on there', () => {
    expect(dateTimeIn(appointment, SAO_PAULO, 'pt')).toBe('7 de dezembro de 2026, 10:50')
    expect(dateTimeIn(appointment, LISBON, 'pt')).toBe('7 de dezembro de 2026, 13:50')
    expect(dateTimeIn(appointment, LISBON, 'es')).toBe('7 de diciembre de 2026, 13:50')
    // 01:30 in Lisbon is still the day before in São Paulo.
    expect(dateIn(new Date('2026-12-08T01:30:00Z'), LISBON, 'pt')).toBe('8 de dezembro de 2026')
    expect(dateIn(new Date('2026-12-08T01:30:00Z'), SAO_PAULO, 'pt')).toBe('7 de dezembro de 2026')
  })

  it('names the reader’s zone only where another zone meets it, with the offset of that instant', () => {
    expect(
      meetingTimeIn(appointment, {
        readerZone: SAO_PAULO,
        otherZone: LISBON,
        language: 'pt',
      })
    ).toBe('7 de dezembro de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)')
    expect(
      meetingTimeIn(appointment, {
        readerZone: LISBON,
        otherZone: LISBON,
        language: 'pt',
      })
    ).toBe('7 de dezembro de 2026, 13:50')
    // Lisbon's summer time (from 2026-03-29): GMT+1.
    expect(zoneNamed(LISBON, 'en', new Date('2026-04-01T12:00:00Z'))).toMatch(/^.+, Lisbon, GMT\+1$/)
    expect(zoneNamed(LISBON, 'en', new Date('2026-03-01T12:00:00Z'))).toMatch(/^.+, Lisbon, GMT(\+0)?$/)
  })

  it('takes a zone it knows, else São Paulo’s; an alias is the same zone', () => {
    expect(zoneOr(LISBON)).toBe(LISBON)
    expect(zoneOr('Mars/Olympus')).toBe(SAO_PAULO)
    expect(zoneOr(null)).toBe(SAO_PAULO)
    expect(differentZones(SAO_PAULO, 'Brazil/East')).toBe(false)
    expect(differentZones(SAO_PAULO, LISBON)).toBe(true)
  })
})

describe('a time where two zones meet (the app’s own pages: app/domain/viewer-times.ts)', () => {
  it('the reader’s time, with the reader’s zone named when the other person’s is another', () => {
    const at = new Date('2026-12-07T13:50:00Z')
    expect(meetingTimeIn(at, { readerZone: SAO_PAULO, otherZone: LISBON, language: 'pt' })).toBe('7 de dezembro de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)')
    expect(meetingTimeIn(at, { readerZone: LISBON, otherZone: SAO_PAULO, language: 'pt' })).toBe('7 de dezembro de 2026, 13:50 (Horário da Europa Ocidental, Lisbon, GMT+0)')
    expect(meetingTimeIn(at, { readerZone: SAO_PAULO, otherZone: LISBON, language: 'es' })).toBe('7 de diciembre de 2026, 10:50 (hora estándar de Brasilia, Sao Paulo, GMT-3)')
    // One zone (or an alias of it): nothing to name.
    expect(meetingTimeIn(at, { readerZone: SAO_PAULO, otherZone: SAO_PAULO, language: 'pt' })).toBe('7 de dezembro de 2026, 10:50')
    expect(meetingTimeIn(at, { readerZone: 'Brazil/East', otherZone: SAO_PAULO, language: 'pt' })).toBe('7 de dezembro de 2026, 10:50')
  })

  it('the named offset is the one of that instant, on either side of a change', () => {
    const before = meetingTimeIn(new Date('2026-03-28T13:50:00Z'), { readerZone: LISBON, otherZone: SAO_PAULO, language: 'pt' })
    const after = meetingTimeIn(new Date('2026-03-30T13:50:00Z'), { readerZone: LISBON, otherZone: SAO_PAULO, language: 'pt' })
    expect(before).toBe('28 de março de 2026, 13:50 (Horário da Europa Ocidental, Lisbon, GMT+0)')
    expect(after).toBe('30 de março de 2026, 14:50 (Horário da Europa Ocidental, Lisbon, GMT+1)')
    // The patient's side does not move.
    expect(meetingTimeIn(new Date('2026-03-30T13:50:00Z'), { readerZone: SAO_PAULO, otherZone: LISBON, language: 'pt' })).toBe(
      '30 de março de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)'
    )
  })
})
