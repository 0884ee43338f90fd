import { describe, expect, test } from 'vitest'
import { pageZoneOf, patientAppointmentItems, personName, pillarNamesOf } from './patient-views.server.ts'

const inSaoPaulo = { id: 1, status: 'scheduled', start_time: '2026-12-02T12:00:00.000Z', time_zone: 'America/Sao_Paulo' }
const inLisbon = { id: 2, status: 'completed', start_time: '2026-11-02T12:00:00.000Z', time_zone: 'Europe/Lisbon' }
const pillars = [
  { slug: 'sono', name: { pt: 'Sono', en: 'Sleep', es: 'Sueño' } },
  { slug: 'estresse', name: { pt: 'Gestão do estresse', en: 'Stress management', es: 'Manejo del estrés' } },
]

describe('personName', () => {
  test('is the full name, else the username', () => {
    expect(personName({ first_name: 'Pedro', last_name: 'Santos', username: 'pedro' })).toBe('Pedro Santos')
    expect(personName({ first_name: 'Pedro', last_name: '' })).toBe('Pedro')
    expect(personName({ first_name: '', last_name: '', username: 'pedro' })).toBe('pedro')
  })
})

describe('patient appointments', () => {
  test("each time is in the appointment's own zone (the professional's)", () => {
    const [item] = patientAppointmentItems([inSaoPaulo], 'pt', 'America/Sao_Paulo')
    expect(item).toEqual({ id: 1, status: 'scheduled', when: 'qua., 2 de dez. de 2026, 09:00', zone: null })
    expect(patientAppointmentItems([inLisbon], 'en', 'Europe/Lisbon')[0]!.when).toMatch(/12:00/)
  })

  test("names the zone of an appointment in another zone than the page's", () => {
    const items = patientAppointmentItems([inSaoPaulo, inLisbon], 'pt', 'America/Sao_Paulo')
    expect(items[0]!.zone).toBeNull()
    expect(items[1]!.zone).toContain('Lisbon')
  })

  test("the page's zone is the first appointment's; none without appointments", () => {
    expect(pageZoneOf([inLisbon, inSaoPaulo], 'pt')).toMatchObject({ zone: 'Europe/Lisbon', label: expect.stringContaining('Lisbon') })
    expect(pageZoneOf([], 'pt')).toBeNull()
  })
})

describe('pillarNamesOf', () => {
  test('names the slugs in the reader’s language, in their order', () => {
    expect(pillarNamesOf(['sono', 'estresse'], pillars, 'es')).toEqual(['Sueño', 'Manejo del estrés'])
  })

  test('an unknown slug, or no pillar list (the provider failed), shows as itself', () => {
    expect(pillarNamesOf(['sono', 'novo'], pillars, 'pt')).toEqual(['Sono', 'novo'])
    expect(pillarNamesOf(['sono'], null, 'pt')).toEqual(['sono'])
  })
})
