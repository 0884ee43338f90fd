import { http, HttpResponse } from 'msw'
import { type SessionUser } from '#app/provider/schemas.ts'
import { providerMock, providerUrl } from './provider.ts'
import { demoPatient, fakeJwt, sessionCookie } from './session.ts'

/**
 * The appointments API of decision 0023 as the app's tests see it: a professional in São Paulo,
 * their free times, an appointment, and handlers that record what the app sent.
 */

/** Monday 30 November 2026, 09:00 in São Paulo: "now" in these tests. */
export const NOW = new Date('2026-11-30T12:00:00.000Z')

export const ana = {
  id: 7,
  first_name: 'Ana',
  last_name: 'Lima',
  photo: 'http://provider.test/media/photos/ana.jpg',
  profession: 'Nutricionista',
  registration_number: 'CRN-3 12345',
  pillars: ['alimento', 'sono'],
  languages: ['pt', 'en'],
  bio: 'Alimentação e sono no dia a dia.',
  consultation_minutes: 50,
  price_cents: 18_000,
  currency: 'BRL',
  time_zone: 'America/Sao_Paulo',
  next_free_time: '2026-12-01T12:00:00.000Z',
}

export const bruno = { ...ana, id: 8, first_name: 'Bruno', last_name: 'Costa', photo: null, profession: 'Psicólogo', registration_number: 'CRP 06/1234', pillars: ['estresse'], languages: ['pt'], next_free_time: null }

const fifty = (start: string) => ({ start, end: new Date(Date.parse(start) + 50 * 60_000).toISOString() })

/** Tuesday 1 December 09:00, 10:00, 14:00 and Thursday 3 December 09:00 in São Paulo; Monday 7 December 21:00 (the 8th in Lisbon). */
export const freeTimes = ['2026-12-01T12:00:00.000Z', '2026-12-01T13:00:00.000Z', '2026-12-01T17:00:00.000Z', '2026-12-03T12:00:00.000Z', '2026-12-08T00:00:00.000Z'].map(fifty)

export function appointment(overrides: Record<string, unknown> = {}) {
  return {
    id: 31,
    status: 'scheduled',
    start_time: '2026-12-02T12:00:00.000Z',
    end_time: '2026-12-02T12:50:00.000Z',
    time_zone: 'America/Sao_Paulo',
    notes: 'Quero dormir melhor.',
    shared_notes: '',
    professional: { id: 7, first_name: 'Ana', last_name: 'Lima', photo: null, profession: 'Nutricionista', registration_number: 'CRN-3 12345' },
    patient: { id: demoPatient.id, first_name: 'Pedro', last_name: 'Santos' },
    payment_reference: null,
    created_at: '2026-11-20T10:00:00.000Z',
    cancelled_at: null,
    cancelled_by: null,
    refund: null,
    ...overrides,
  }
}

export const signedIn = (user: SessionUser = demoPatient) => sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user })

export const inLisbon: SessionUser = { ...demoPatient, time_zone: 'Europe/Lisbon' }

/** The directory and the free times; returns what the app asked for. */
export function directoryAndAvailability({ slots = freeTimes, professionals = [ana, bruno] }: { slots?: { start: string; end: string }[]; professionals?: unknown[] } = {}) {
  const asked = { directory: [] as URLSearchParams[], availability: [] as URLSearchParams[] }
  providerMock.use(
    http.get(providerUrl('/appointments/professionals/'), ({ request }) => {
      asked.directory.push(new URL(request.url).searchParams)
      return HttpResponse.json(professionals)
    }),
    http.get(providerUrl('/appointments/calendar/availability/'), ({ request }) => {
      asked.availability.push(new URL(request.url).searchParams)
      const professional = (professionals as { id: number }[]).find((candidate) => candidate.id === Number(new URL(request.url).searchParams.get('professional_id')))
      // The provider answers the professional with the free times (and 404 for an unknown one).
      if (!professional) return HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
      return HttpResponse.json({ professional_id: professional.id, professional, time_zone: 'America/Sao_Paulo', consultation_minutes: 50, slots })
    }),
  )
  return asked
}
