import { describe, expect, it } from 'vitest'
import { consultationLineName } from '#server/purchases/consultation-lines.ts'

/**
 * Decision 0077: a consultation's line on its purchase, composed for each reader. Inês works from
 * Lisbon; her patient is in São Paulo. The line is the reader's clock, the reader's zone named
 * because the professional's is another; on both sides of Lisbon's change to summer time.
 */

const ines = { professional: 'Inês Marques', timeZone: 'Europe/Lisbon' }
const spaced = (text: string) => text.replace(/\s/g, ' ')

describe('a consultation’s line', () => {
  it('reads 10:50 for the patient in São Paulo and 13:50 for a reader in Lisbon, in each language', () => {
    const startsAt = new Date('2026-12-07T13:50:00Z')
    expect(consultationLineName({ ...ines, startsAt }, 'America/Sao_Paulo')).toEqual({
      pt: 'Consulta com Inês Marques, 7 de dezembro de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)',
      en: expect.stringMatching(/^Consultation with Inês Marques, December 7, 2026, 10:50\sAM \(Brasilia Standard Time, Sao Paulo, GMT-3\)$/),
      es: 'Consulta con Inês Marques, 7 de diciembre de 2026, 10:50 (hora estándar de Brasilia, Sao Paulo, GMT-3)',
    })
    // Inês herself (or an admin in Lisbon): her own clock, nothing to name.
    const lisbon = consultationLineName({ ...ines, startsAt }, 'Europe/Lisbon')
    expect(lisbon.pt).toBe('Consulta com Inês Marques, 7 de dezembro de 2026, 13:50')
    expect(lisbon.es).toBe('Consulta con Inês Marques, 7 de diciembre de 2026, 13:50')
    expect(spaced(lisbon.en)).toBe('Consultation with Inês Marques, December 7, 2026, 1:50 PM')
  })

  it('follows each zone across Lisbon’s change to summer time (2026-03-29)', () => {
    const saturday = new Date('2026-03-28T13:50:00Z')
    const monday = new Date('2026-03-30T13:50:00Z')
    expect(consultationLineName({ ...ines, startsAt: saturday }, 'America/Sao_Paulo').pt).toBe('Consulta com Inês Marques, 28 de março de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)')
    expect(consultationLineName({ ...ines, startsAt: monday }, 'America/Sao_Paulo').pt).toBe('Consulta com Inês Marques, 30 de março de 2026, 10:50 (Horário Padrão de Brasília, Sao Paulo, GMT-3)')
    expect(consultationLineName({ ...ines, startsAt: saturday }, 'Europe/Lisbon').pt).toBe('Consulta com Inês Marques, 28 de março de 2026, 13:50')
    expect(consultationLineName({ ...ines, startsAt: monday }, 'Europe/Lisbon').pt).toBe('Consulta com Inês Marques, 30 de março de 2026, 14:50')
  })

  it('a zone it cannot show times in is read as São Paulo’s', () => {
    const startsAt = new Date('2026-12-07T13:50:00Z')
    expect(consultationLineName({ ...ines, startsAt }, 'Mars/Olympus').pt).toBe(consultationLineName({ ...ines, startsAt }, 'America/Sao_Paulo').pt)
  })
})
