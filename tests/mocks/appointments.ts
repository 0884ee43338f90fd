import { http, HttpResponse } from 'msw'
import { type SessionUser } from '#app/provider/schemas.ts'
import { providerMock, providerUrl } from './provider.ts'
import { demoPatient } from './session.ts'

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

/** A consultation's payment as the provider describes it (decision 0051): PIX, paid. */
export function payment(overrides: Record<string, unknown> = {}) {
  return { kind: 'purchase', purchase_id: 90, method: 'pix', status: 'paid', hold_expires_at: null, checkout_url: null, ...overrides }
}

export const inLisbon: SessionUser = { ...demoPatient, time_zone: 'Europe/Lisbon' }

/** An instant's date in a zone, as the provider groups free times (YYYY-MM-DD). */
const dateIn = (instant: string, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.parse(instant))

/**
 * The provider's answer to the free times asked in a zone (decision 0023): the dates with their
 * counts, and the times of the date asked for when it has some, else of the first date.
 */
function groupedByDate(slots: { start: string; end: string }[], timeZone: string, wanted: string | null) {
  const days: { date: string; count: number }[] = []
  for (const slot of slots) {
    const date = dateIn(slot.start, timeZone)
    const day = days.find((candidate) => candidate.date === date)
    if (day) day.count += 1
    else days.push({ date, count: 1 })
  }
  days.sort((a, b) => a.date.localeCompare(b.date))
  const date = wanted && days.some((day) => day.date === wanted) ? wanted : (days[0]?.date ?? null)
  return { days, date, slots: slots.filter((slot) => dateIn(slot.start, timeZone) === date) }
}

/**
 * The directory and the free times; returns what the app asked for. Free times asked with a
 * `time_zone` come grouped, as the provider answers them, unless `grouped` is false (an older provider).
 */
export function directoryAndAvailability({
  slots = freeTimes,
  professionals = [ana, bruno],
  grouped = true,
  credits,
}: { slots?: { start: string; end: string }[]; professionals?: unknown[]; grouped?: boolean; credits?: number } = {}) {
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
      const query = new URL(request.url).searchParams
      const zone = query.get('time_zone')
      const answer = grouped && zone ? groupedByDate(slots, zone, query.get('date')) : { slots }
      return HttpResponse.json({ professional_id: professional.id, professional, time_zone: 'America/Sao_Paulo', consultation_minutes: 50, ...(credits !== undefined && { credits_available: credits }), ...answer })
    }),
  )
  return asked
}
