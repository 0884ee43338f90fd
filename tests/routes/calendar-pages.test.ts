import { http, HttpResponse, delay } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type BookingReply } from '#app/forms/appointment-forms.ts'
import { type ConflictView } from '#app/features/calendar/calendar-conflicts.server.ts'
import { type DashboardCalendar } from '#app/routes/dashboard/calendar-dashboard.server.ts'
import { action as bookAction } from '#app/routes/consultas.agendar.$professionalId.tsx'
import { action as rescheduleAction } from '#app/routes/consultas.$id_.remarcar.tsx'
import { loader as availabilityLoader } from '#app/routes/agenda_.disponibilidade.tsx'
import { loader as dashboardLoader } from '#app/routes/dashboard/route.tsx'
import { todayIn } from '#app/domain/agenda.ts'
import { mondayOf } from '#app/domain/calendar-dates.ts'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { NOW, appointment, directoryAndAvailability, freeTimes } from '#tests/mocks/appointments.ts'
import { calendarProvider, integrationStatus, notConnected } from '#tests/mocks/calendar.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoProfessional, signedIn } from '#tests/mocks/session.ts'

/**
 * The calendar elsewhere (issue 13): booking's confirm step asks the professional's Google
 * Calendar live (docs/product.md §8: a failed check counts as free, with a warning); the professional's
 * dashboard shows the stats, and the availability editor the conflicts, when connected.
 */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('booking: the confirm step asks the professional’s Google Calendar', () => {
  const BOOK_URL = 'http://app.test/consultas/agendar/7'
  const chosen = freeTimes[1]!
  const notes = 'Quero falar sobre o sono.'
  const confirm = async (extra: Record<string, string> = {}) =>
    run(bookAction, formRequest(BOOK_URL, { intent: 'confirm', start_time: chosen.start, end_time: chosen.end, notes, ...extra }, { Cookie: await signedIn() }), { professionalId: '7' })
  function creates() {
    const created: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/appointments/create/'), async ({ request }) => {
        created.push(await request.json())
        return HttpResponse.json(appointment({ id: 55, start_time: chosen.start, end_time: chosen.end }), { status: 201 })
      }),
    )
    return created
  }

  test('free: the chosen time (start and end) and the professional are checked, then booked', async () => {
    const asked = calendarProvider()
    const created = creates()
    const result = await confirm()
    expect(asked.availability).toEqual([{ start_time: chosen.start, end_time: chosen.end, professional_id: 7 }])
    expect(created).toHaveLength(1)
    expect(await toastOf(result)).toMatchObject({ message: { key: 'appointments:booking.booked' } })
  })

  test('busy in Google Calendar: as a time taken meanwhile (409), the nearest free times offered, the notes kept, nothing booked', async () => {
    directoryAndAvailability()
    calendarProvider({ availabilityAnswer: () => HttpResponse.json({ available: false, conflicts: [{ start: chosen.start, end: chosen.end }], warnings: [] }) })
    const created = creates()
    const result = await confirm()
    expect(result.status).toBe(409)
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual(['Esse horário acabou de ser reservado por outra pessoa. Escolha outro; suas observações foram mantidas.'])
    expect(reply.taken?.map((choice) => choice.value)).toEqual([freeTimes[0]!.start, freeTimes[2]!.start, freeTimes[3]!.start])
    expect(reply.result.initialValue).toMatchObject({ notes })
    expect(created).toEqual([])
  })

  test.each([
    ['Google failing (502)', () => HttpResponse.json({ detail: 'Google failed.', code: 'google_error' }, { status: 502 })],
    ['a bad answer', () => HttpResponse.json({ free: 'maybe' })],
    ['the provider failing (500)', () => HttpResponse.json({ detail: 'boom' }, { status: 500 })],
    ['a throttled check (429)', () => HttpResponse.json({ detail: 'Request was throttled. Expected available in 60 seconds.' }, { status: 429, headers: { 'Retry-After': '60' } })],
  ])('the check failing (%s) counts as free: booked, with the warning', async (_name, answer) => {
    calendarProvider({ availabilityAnswer: answer })
    const created = creates()
    const result = await confirm()
    expect(created).toHaveLength(1)
    expect(result.location).toBe('/consultas/55')
    const toast = await toastOf(result)
    expect(toast).toMatchObject({ type: 'success', message: { key: 'appointments:booking.bookedUnverified' } })
    expect(translationsFor('pt').t('appointments')('booking.bookedUnverified')).toContain('Não foi possível verificar conflitos no Google Calendar')
  })

  test('a check that hangs counts as failed once its own deadline passes: booked, with the warning', { timeout: 10_000 }, async () => {
    calendarProvider({
      availabilityAnswer: async () => {
        await delay('infinite')
        return HttpResponse.json({})
      },
    })
    const created = creates()
    const result = await confirm()
    expect(created).toHaveLength(1)
    expect(await toastOf(result)).toMatchObject({ message: { key: 'appointments:booking.bookedUnverified' } })
  })

  test('without the end (an older page), the default length is checked', async () => {
    const asked = calendarProvider()
    creates()
    await run(bookAction, formRequest(BOOK_URL, { intent: 'confirm', start_time: chosen.start, notes }, { Cookie: await signedIn() }), { professionalId: '7' })
    expect(asked.availability).toEqual([{ start_time: chosen.start, end_time: chosen.end, professional_id: 7 }])
  })

  test('the review step carries the end to the confirm step', async () => {
    directoryAndAvailability()
    const review = await run(bookAction, formRequest(BOOK_URL, { intent: 'review', start_time: chosen.start, notes }, { Cookie: await signedIn() }), { professionalId: '7' })
    const reply = review.data as Extract<BookingReply, { step: 'review' }>
    expect(new Date(Date.parse(reply.review.start) + reply.review.minutes * 60_000).toISOString()).toBe(chosen.end)
  })

  test('rescheduling: the appointment’s own event is not in the way; another event is', async () => {
    const url = 'http://app.test/consultas/31/remarcar'
    providerMock.use(
      http.get(providerUrl('/appointments/:id/'), () => HttpResponse.json(appointment({ start_time: '2026-12-02T12:00:00.000Z', end_time: '2026-12-02T12:50:00.000Z' }))),
      http.patch(providerUrl('/appointments/:id/update/'), () => HttpResponse.json(appointment({ start_time: '2026-12-02T12:30:00.000Z', end_time: '2026-12-02T13:20:00.000Z' }))),
    )
    directoryAndAvailability()
    const moveBy30 = { intent: 'confirm', start_time: '2026-12-02T12:30:00.000Z', end_time: '2026-12-02T13:20:00.000Z', notes: '' }
    calendarProvider({ availabilityAnswer: () => HttpResponse.json({ available: false, conflicts: [{ start: '2026-12-02T12:00:00.000Z', end: '2026-12-02T12:50:00.000Z' }], warnings: [] }) })
    const own = await run(rescheduleAction, formRequest(url, moveBy30, { Cookie: await signedIn() }), { id: '31' })
    expect(own.status).toBe(303)
    expect(await toastOf(own)).toMatchObject({ message: { key: 'appointments:reschedule.done' } })
    calendarProvider({ availabilityAnswer: () => HttpResponse.json({ available: false, conflicts: [{ start: '2026-12-02T13:00:00.000Z', end: '2026-12-02T14:00:00.000Z' }], warnings: [] }) })
    const other = await run(rescheduleAction, formRequest(url, moveBy30, { Cookie: await signedIn() }), { id: '31' })
    expect(other.status).toBe(409)
    // A patient's answer (issue 22): no periods; the provider has left the own appointment out already.
    calendarProvider({ availabilityAnswer: () => HttpResponse.json({ available: false, conflicts: [], warnings: [] }) })
    expect((await run(rescheduleAction, formRequest(url, moveBy30, { Cookie: await signedIn() }), { id: '31' })).status).toBe(409)
  })
})

describe('the professional’s dashboard', () => {
  const DASHBOARD = 'http://app.test/dashboard'
  const dashboard = async (cookie?: string) => {
    const result = await run(dashboardLoader, new Request(DASHBOARD, { headers: { Cookie: cookie ?? (await signedIn(demoProfessional)) } }))
    return { ...result, calendar: (result.data as { calendar: DashboardCalendar | null }).calendar }
  }

  test('not connected: the state comes with the agenda, and nothing more is asked', async () => {
    const asked = calendarProvider({ status: notConnected })
    const { status, calendar } = await dashboard()
    expect(status).toBe(200)
    expect(calendar).toEqual({ state: 'not-connected' })
    expect(asked).toMatchObject({ integration: 0, schedule: 0, events: [] })
    expect(asked.dashboard).toHaveLength(1)
  })

  test('an agenda without the state (an older provider): the integration status is asked for it', async () => {
    const asked = calendarProvider({ status: integrationStatus({ needs_reconnect: true, token_valid: false }), agendaCarriesState: false })
    expect((await dashboard()).calendar).toEqual({ state: 'reconnect' })
    expect(asked.integration).toBe(1)
    calendarProvider({ agendaCarriesState: false, integrationAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    const failed = await dashboard()
    expect(failed.status).toBe(200)
    expect(failed.calendar).toEqual({ state: 'unavailable' })
  })

  test('connected: docs/product.md §3’s stats over the refresh window, the events and the schedule read once each', async () => {
    const asked = calendarProvider()
    const { calendar } = await dashboard()
    expect(calendar).toEqual({ state: 'connected', stats: { totalEvents: 5, inneraEvents: 1, externalEvents: 4, upcomingEvents: 5, conflictsDetected: 4 } })
    expect(asked.events).toHaveLength(1)
    expect(asked.schedule).toBe(1)
  })

  test('a revoked grant, or the calendar unreadable: said, the dashboard still shown', async () => {
    const asked = calendarProvider({ status: integrationStatus({ needs_reconnect: true, token_valid: false }) })
    expect((await dashboard()).calendar).toEqual({ state: 'reconnect' })
    expect(asked).toMatchObject({ integration: 0, events: [] })
    calendarProvider({ eventsAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 502 }) })
    const failed = await dashboard()
    expect(failed.status).toBe(200)
    expect(failed.calendar).toEqual({ state: 'unavailable' })
  })

  test('the schedule unreadable: the stats without the conflicts', async () => {
    calendarProvider({ scheduleAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    expect((await dashboard()).calendar).toMatchObject({ state: 'connected', stats: { totalEvents: 5, conflictsDetected: null } })
  })

  test('the agenda says when the provider left some cancelled appointments out (it answers at most 500)', async () => {
    calendarProvider({ status: notConnected })
    const agendaOf = async () => ((await dashboard()).data as { agenda: { truncated: boolean } }).agenda
    expect((await agendaOf()).truncated).toBe(false)
    providerMock.use(
      http.get(providerUrl('/appointments/dashboard/'), ({ request }) =>
        HttpResponse.json({ time_zone: 'America/Sao_Paulo', start: new URL(request.url).searchParams.get('start'), end: '2026-03-08', appointments: [], truncated: true, calendar: { calendar_enabled: false, token_valid: false } }),
      ),
    )
    expect((await agendaOf()).truncated).toBe(true)
  })

  test('a week beyond the years 2000-2100 (?semana=0999-01-04, 9999-12-27) shows this week: the provider is never asked for it', async () => {
    for (const far of ['0999-01-04', '9999-12-27']) {
      const asked = calendarProvider()
      const result = await run(dashboardLoader, getRequest(`${DASHBOARD}?semana=${far}`, await signedIn(demoProfessional)))
      expect(result.status).toBe(200)
      expect(asked.dashboard.map((query) => query.get('start'))).toEqual([mondayOf(todayIn('America/Sao_Paulo', NOW))])
    }
  })

  test('patients are not asked about a calendar', async () => {
    const asked = calendarProvider()
    providerMock.use(
      http.get(providerUrl('/program/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
      http.get(providerUrl('/appointments/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    )
    await run(dashboardLoader, getRequest(DASHBOARD, await signedIn())).catch(() => undefined)
    expect(asked.integration).toBe(0)
  })
})

describe('the availability editor', () => {
  const EDITOR = 'http://app.test/agenda/disponibilidade'
  const editor = async () => {
    const result = await run(availabilityLoader, getRequest(EDITOR, await signedIn(demoProfessional)))
    return (result.data as { conflicts: ConflictView[] | null }).conflicts
  }

  test('connected: the conflicts, with the weekday and slot they hit', async () => {
    calendarProvider()
    const conflicts = await editor()
    expect(conflicts?.map((conflict) => [conflict.dayName, conflict.timeSlot, conflict.severity])).toEqual([
      ['wednesday', '14:00-18:00', 'medium'],
      ['tuesday', '09:00-12:00', 'low'],
      ['friday', '09:00-12:00', 'low'],
      ['friday', '14:00-18:00', 'low'],
    ])
  })

  test('not connected: none, and no events read', async () => {
    const asked = calendarProvider({ status: notConnected })
    expect(await editor()).toBeNull()
    expect(asked.events).toEqual([])
  })

  test('the calendar failing does not keep the editor from opening', async () => {
    calendarProvider({ eventsAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 502 }) })
    expect(await editor()).toBeNull()
    calendarProvider({ integrationAnswer: () => HttpResponse.error() })
    const unreachable = await run(availabilityLoader, getRequest(EDITOR, await signedIn(demoProfessional)))
    expect(unreachable.status).toBe(200)
    expect((unreachable.data as { conflicts: unknown }).conflicts).toBeNull()
  })
})
