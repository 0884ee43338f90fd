import { readFileSync } from 'node:fs'
import path from 'node:path'
import { delay, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type CalendarReply } from '#app/forms/calendar-forms.ts'
import { type CalendarPage } from '#app/routes/agenda_.calendario/calendar-page.server.ts'
import { action, loader } from '#app/routes/agenda_.calendario/route.tsx'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { NOW, appointment } from '#tests/mocks/appointments.ts'
import { calendarProvider, googleEvent, integrationStatus, notConnected, paulaSchedule, weekEvents } from '#tests/mocks/calendar.ts'
import { formRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'
import { barrier } from '#tests/mocks/barrier.ts'

/** `/agenda/calendario` (issue 13, decision 0025): the professional's Google Calendar page, its loader and its action against msw. */

beforeEach(() => {
  // Only the clock: msw and the fetch timeouts keep real timers.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => {
  vi.useRealTimers()
})

const PAGE = 'http://app.test/agenda/calendario'
const paula = () => signedIn(demoProfessional)
const page = async (url = PAGE, cookie?: string) => {
  const result = await run(loader, new Request(url, { headers: { Cookie: cookie ?? (await paula()) } }))
  return { ...result, page: result.data as CalendarPage }
}
const post = async (fields: Record<string, string>, url = PAGE, cookie?: string) => {
  const result = await run(action, formRequest(url, fields, { Cookie: cookie ?? (await paula()) }))
  return { ...result, reply: result.data as CalendarReply }
}
const formError = (reply: CalendarReply) => (reply.form === 'event' ? reply.result.error?.[''] : [reply.error])
const pt = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../locales/pt/calendar.json'), 'utf8')) as Record<string, Record<string, string>>

describe('docs/product.md §8: the calendar rows, exactly, in Portuguese', () => {
  test.each([
    ['errors', 'notConnected', 'Calendar não está conectado'],
    ['errors', 'invalidCode', 'Código de autorização inválido ou expirado'],
    ['errors', 'connect', 'Não foi possível conectar ao Google Calendar'],
    ['errors', 'disconnect', 'Falha ao desconectar Google Calendar'],
    ['errors', 'sync', 'Não foi possível sincronizar com Google Calendar'],
    ['errors', 'syncRunning', 'Sincronização já em andamento'],
    ['errors', 'create', 'Não foi possível criar evento no Google Calendar'],
    ['errors', 'update', 'Não foi possível atualizar evento no Google Calendar'],
    ['errors', 'delete', 'Não foi possível deletar evento no Google Calendar'],
    ['popup', 'blocked', 'Pop-up bloqueado. Por favor, permita pop-ups para este site.'],
    ['popup', 'timeout', 'Timeout na autorização. Por favor, tente novamente.'],
    ['connection', 'connectedToast', 'Google Calendar conectado com sucesso'],
    ['connection', 'disconnected', 'Integração desativada com sucesso'],
  ])('%s.%s', (group, key, text) => {
    expect(pt[group]![key]).toBe(text)
  })
})

describe('the page, not connected', () => {
  test('says so and offers to connect; nothing else is shown', async () => {
    const asked = calendarProvider({ status: notConnected })
    const { page: data, status } = await page()
    expect(status).toBe(200)
    expect(data.connection).toMatchObject({ state: 'not-connected', email: null, lastSync: null })
    expect(data).toMatchObject({ week: null, conflicts: null, stats: null, form: null, deleting: null })
    expect(data.meta.title).toBe('Google Calendar · Innera')
    // Read in parallel: the status, the integration, the events (400 not connected), the agenda, the schedule.
    expect(asked).toMatchObject({ status: 1, integration: 1, schedule: 1 })
    expect(asked.events).toHaveLength(1)
    expect(asked.dashboard).toHaveLength(1)
  })

  test('only professionals: a patient gets the 403 page, a visitor the sign-in page', async () => {
    calendarProvider()
    expect((await page(PAGE, await signedIn(demoPatient))).status).toBe(403)
    const anonymous = await run(loader, new Request(PAGE))
    expect(anonymous.location).toBe('/auth?mode=login&redirectTo=%2Fagenda%2Fcalendario')
    expect((await post({ intent: 'sync' }, PAGE, await signedIn(demoPatient))).status).toBe(403)
  })

  test('the status (GET /calendar/) unreadable: the error page of the failure; the integration’s extras unreadable: the page without them', async () => {
    calendarProvider({ statusAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    expect((await page()).status).toBe(500)
    calendarProvider({ integrationAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    const { page: data, status } = await page()
    expect(status).toBe(200)
    expect(data.connection).toMatchObject({ state: 'connected', email: null, calendarId: 'paula@example.com', syncInProgress: false })
  })
})

describe('the page, connected', () => {
  test('the Google account, the last sync, and whether the events came from the cache', async () => {
    calendarProvider()
    const { page: data } = await page()
    expect(data.connection).toEqual({
      state: 'connected',
      email: 'paula@example.com',
      calendarId: 'paula@example.com',
      lastSync: 'seg., 30 de nov. de 2026, 08:58',
      fromCache: true,
      syncError: null,
      stale: false,
      syncInProgress: false,
      eventsError: null,
      confirmDisconnect: false,
    })
  })

  test('the status comes from GET /calendar/: its calendar, its last sync, a revoked grant', async () => {
    const asked = calendarProvider({ status: integrationStatus({ primary_calendar_id: 'agenda-da-paula@group.calendar.google.com', last_sync: '2026-11-30T11:50:00.000Z' }), lastSync: null })
    const { page: data } = await page()
    expect(asked.status).toBe(1)
    expect(data.connection).toMatchObject({ calendarId: 'agenda-da-paula@group.calendar.google.com', lastSync: 'seg., 30 de nov. de 2026, 08:50' })
    // GET /calendar/ says the grant is gone, though the integration status does not (yet).
    calendarProvider({ statusAnswer: () => HttpResponse.json({ calendar_enabled: true, token_valid: false, primary_calendar_id: 'paula@example.com', last_sync: null }) })
    expect((await page()).page.connection.state).toBe('reconnect')
  })

  test('reads the status, the integration, the events and the schedule at once, never one after another', async () => {
    const together = barrier(['status', 'integration', 'events', 'schedule'])
    const answer = (name: string, body: () => unknown) => async () =>
      (await together(name)) ? HttpResponse.json(body() as Record<string, unknown>) : HttpResponse.json({ detail: `${name} was asked alone` }, { status: 500 })
    const status = integrationStatus()
    calendarProvider({
      statusAnswer: answer('status', () => ({ calendar_enabled: true, token_valid: true, primary_calendar_id: 'paula@example.com', last_sync: status.last_sync })),
      integrationAnswer: answer('integration', () => status),
      eventsAnswer: answer('events', () => ({ events: weekEvents, last_sync: status.last_sync, from_cache: true, sync_error: false })),
      scheduleAnswer: answer('schedule', () => paulaSchedule),
    })
    const { page: data, status: code } = await page()
    expect(code).toBe(200)
    expect(data.connection).toMatchObject({ state: 'connected', email: 'paula@example.com', calendarId: 'paula@example.com', eventsError: null })
    expect(data.conflicts).not.toBeNull()
  })

  test('reads the refresh window: this week’s Monday to 35 days later, the product’s events included', async () => {
    const asked = calendarProvider()
    await page()
    expect(Object.fromEntries(asked.events[0]!)).toEqual({ start_date: '2026-11-30', end_date: '2027-01-04', include_innera_events: 'true' })
    expect(asked.dashboard[0]?.get('start')).toBe('2026-11-30')
  })

  test('the week: appointments beside the events, all-day events as such, free and tentative ones marked; a booked consultation’s own event is the appointment', async () => {
    calendarProvider({ appointments: [appointment({ id: 31, start_time: '2026-12-03T12:00:00.000Z', end_time: '2026-12-03T12:50:00.000Z' })] })
    const { page: data } = await page()
    const week = data.week!
    expect(week.title).toBe('Semana de 30 de novembro a 6 de dezembro')
    expect(week).toMatchObject({ start: '2026-11-30', previous: null, next: '2026-12-07' })
    const day = (date: string) => week.days.find((item) => item.date === date)!
    expect(day('2026-11-30')).toMatchObject({ label: 'segunda-feira, 30 de novembro de 2026', isToday: true, items: [] })
    expect(day('2026-12-01').items).toMatchObject([
      { kind: 'event', id: 'dentista', time: '10:00–11:00', title: 'Dentista', location: 'Rua Augusta, 100', allDay: false, free: false, editable: true },
      { kind: 'event', id: 'almoco', time: '12:00–13:00', title: 'Almoço', free: true },
    ])
    expect(day('2026-12-02').items).toMatchObject([{ id: 'banca', status: 'tentative', time: '15:00–16:00' }])
    // Thursday: the appointment, not its Google copy.
    expect(day('2026-12-03').items).toEqual([
      { kind: 'appointment', key: 'appointment-31', id: 31, time: '09:00–09:50', title: 'Pedro Santos', status: 'scheduled', sort: expect.any(Number) },
    ])
    for (const date of ['2026-12-04', '2026-12-05', '2026-12-06']) {
      expect(day(date).items).toMatchObject([{ id: 'congresso', allDay: true, time: 'Dia inteiro, até dom., 6 de dez.', editable: false }])
    }
  })

  test('the conflicts of the next 30 days, most serious first, each with its translated resolution', async () => {
    calendarProvider()
    const { page: data } = await page()
    expect(data.conflicts).toEqual([
      {
        id: '2026-12-02-14:00-18:00',
        severity: 'medium',
        dayName: 'wednesday',
        date: '2026-12-02',
        when: 'qua., 2 de dez., 14:00-18:00',
        timeSlot: '14:00-18:00',
        events: [{ title: 'Banca URGENTE', time: '15:00–16:00' }],
        resolution: '“Banca URGENTE” em qua., 2 de dez., 14:00-18:00, está marcado como importante ou urgente. Tire esse horário da sua disponibilidade ou mova o evento.',
      },
      expect.objectContaining({ id: '2026-12-01-09:00-12:00', severity: 'low', events: [{ title: 'Dentista', time: '10:00–11:00' }] }),
      expect.objectContaining({ id: '2026-12-04-09:00-12:00', severity: 'low', events: [{ title: 'Congresso de medicina', time: 'Dia inteiro' }] }),
      expect.objectContaining({
        id: '2026-12-04-14:00-18:00',
        severity: 'low',
        resolution: '“Congresso de medicina” ocupa sex., 4 de dez., 14:00-18:00: os pacientes não verão esse horário como livre. Se o evento se repete, ajuste sua disponibilidade.',
      }),
    ])
  })

  test('a consultation’s event beside another event in its slot is a high conflict; alone it is none', async () => {
    calendarProvider({ events: [...weekEvents, googleEvent('reuniao', '2026-12-03T10:00:00-03:00', '2026-12-03T11:00:00-03:00', { summary: 'Reunião de equipe' })] })
    const { page: data } = await page()
    expect(data.conflicts?.[0]).toMatchObject({
      id: '2026-12-03-09:00-12:00',
      severity: 'high',
      events: [{ title: 'Consulta Innera com Pedro' }, { title: 'Reunião de equipe' }],
      resolution: '2 eventos disputam qui., 3 de dez., 09:00-12:00, entre eles um da Innera. Remarque a consulta ou mova os outros eventos no Google Calendar.',
    })
  })

  test('the stats: every event of the window, the product’s and the others, the upcoming ones, the conflicts', async () => {
    calendarProvider()
    const { page: data } = await page()
    expect(data.stats).toEqual({ totalEvents: 5, inneraEvents: 1, externalEvents: 4, upcomingEvents: 5, conflictsDetected: 4 })
  })

  test('in English', async () => {
    calendarProvider()
    const { page: data } = await page(`${PAGE}?lng=en`)
    expect(data.conflicts?.[0]?.resolution).toBe('“Banca URGENTE” on Wed, Dec 2, 14:00-18:00, is marked important or urgent. Take that time out of your availability or move the event.')
    expect(data.week?.title).toBe('Week of November 30 to December 6')
  })

  test('?semana= shows another week of the window, with links to its neighbours; outside the window, this week', async () => {
    const asked = calendarProvider()
    const second = (await page(`${PAGE}?semana=2026-12-09`)).page
    expect(second.week).toMatchObject({ start: '2026-12-07', previous: '2026-11-30', next: '2026-12-14' })
    expect(asked.dashboard[0]?.get('start')).toBe('2026-12-07')
    expect((await page(`${PAGE}?semana=2026-12-28`)).page.week).toMatchObject({ start: '2026-12-28', next: null })
    expect((await page(`${PAGE}?semana=2027-03-01`)).page.week?.start).toBe('2026-11-30')
    // The window's events are read whatever the week.
    expect(asked.events.map((query) => query.get('start_date'))).toEqual(['2026-11-30', '2026-11-30', '2026-11-30'])
  })

  test('events synced just now (not from the cache); a last sync 15 minutes old or more is stale', async () => {
    calendarProvider({ fromCache: false })
    expect((await page()).page.connection).toMatchObject({ fromCache: false, stale: false })
    calendarProvider({ lastSync: '2026-11-30T11:45:00.001Z' })
    expect((await page()).page.connection).toMatchObject({ stale: false })
    calendarProvider({ lastSync: '2026-11-30T11:45:00.000Z' })
    expect((await page()).page.connection).toMatchObject({ stale: true })
    calendarProvider({ lastSync: '2026-11-30T11:30:00.000Z', status: integrationStatus({ last_sync: '2026-11-30T11:30:00.000Z' }) })
    expect((await page()).page.connection).toMatchObject({ stale: true })
  })

  test('a failed sync: the catalogue’s message, and the cached events still shown', async () => {
    calendarProvider({ syncError: true, lastSync: '2026-11-30T10:00:00.000Z' })
    const { page: data } = await page()
    expect(data.connection.syncError).toBe('Não foi possível sincronizar com Google Calendar')
    expect(data.connection.stale).toBe(true)
    expect(data.week?.days.flatMap((day) => day.items)).not.toHaveLength(0)
  })

  test('a revoked grant offers "Reconnect" instead of failing silently', async () => {
    calendarProvider({ status: integrationStatus({ token_valid: false, needs_reconnect: true }) })
    expect((await page()).page.connection.state).toBe('reconnect')
    calendarProvider({ eventsAnswer: () => HttpResponse.json({ detail: 'Reconnect Google Calendar.', code: 'calendar_reconnect' }, { status: 400 }) })
    const { page: data } = await page()
    expect(data.connection.state).toBe('reconnect')
    expect(data.week).toBeNull()
  })

  test('the events unreadable: said, and the page still drawn', async () => {
    calendarProvider({ eventsAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 502 }) })
    const { page: data, status } = await page()
    expect(status).toBe(200)
    expect(data.connection).toMatchObject({ state: 'connected', eventsError: 'Não foi possível carregar os eventos do Google Calendar agora.' })
  })

  test('the schedule unreadable: the week and the stats without the conflicts', async () => {
    calendarProvider({ scheduleAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    const { page: data } = await page()
    expect(data.conflicts).toBeNull()
    expect(data.stats?.conflictsDetected).toBe(0)
    expect(data.week).not.toBeNull()
  })

  test('?editar= fills the form with the event (its times in the zone, the guests); an all-day or unknown one is not offered', async () => {
    calendarProvider({
      events: [
        ...weekEvents,
        googleEvent('consulta-ana', '2026-12-01T14:00:00-03:00', '2026-12-01T14:50:00-03:00', {
          summary: 'Consulta Innera com Ana',
          // The notes are the provider's (decision 0029); Google's description has the owner's text and the link.
          description: 'Levar o crachá\n\nSala da consulta: https://meet.jit.si/innera-abc',
          notes: 'Trazer exames.',
          attendees: [{ email: 'paula@example.com', self: true }, { email: 'ana@example.com' }],
        }),
      ],
    })
    const edit = (await page(`${PAGE}?editar=consulta-ana`)).page
    expect(edit.form).toEqual({
      mode: 'edit',
      eventId: 'consulta-ana',
      notFound: false,
      defaults: {
        event_type: 'consultation',
        date: '2026-12-01',
        start: '14:00',
        end: '14:50',
        patient_name: 'Ana',
        attendees: 'ana@example.com',
        notes: 'Trazer exames.',
        meeting_link: 'https://meet.jit.si/innera-abc',
        related_object_id: '',
      },
    })
    // The type from the title the provider wrote; an event of someone else's making is "other"; its description is not notes.
    expect((await page(`${PAGE}?editar=dentista`)).page.form?.defaults).toMatchObject({ event_type: 'other', notes: '', meeting_link: '' })
    calendarProvider({ events: [googleEvent('reuniao', '2026-12-01T15:00:00-03:00', '2026-12-01T16:00:00-03:00', { description: 'Pauta: orçamento' })] })
    expect((await page(`${PAGE}?editar=reuniao`)).page.form?.defaults).toMatchObject({ notes: '', meeting_link: '' })
    expect((await page(`${PAGE}?editar=congresso`)).page.form).toMatchObject({ mode: 'create', eventId: null, notFound: true })
    expect((await page(`${PAGE}?editar=sumiu`)).page.form).toMatchObject({ mode: 'create', notFound: true })
    expect((await page()).page.form).toMatchObject({ mode: 'create', notFound: false, defaults: null })
  })

  test('?excluir= asks before deleting; ?desconectar=1 before disconnecting', async () => {
    calendarProvider()
    expect((await page(`${PAGE}?excluir=dentista`)).page.deleting).toEqual({ id: 'dentista', title: 'Dentista', when: 'ter., 1 de dez. de 2026, 10:00–11:00' })
    expect((await page(`${PAGE}?excluir=congresso`)).page.deleting).toEqual({ id: 'congresso', title: 'Congresso de medicina', when: 'sexta-feira, 4 de dezembro de 2026 (Dia inteiro)' })
    expect((await page(`${PAGE}?desconectar=1`)).page.connection.confirmDisconnect).toBe(true)
  })
})

describe('sync', () => {
  test('runs the provider’s sync and comes back with a toast; the full one asks for it', async () => {
    const asked = calendarProvider()
    const result = await post({ intent: 'sync' })
    expect(result.status).toBe(303)
    expect(result.location).toBe('/agenda/calendario')
    expect((await toastOf(result))?.message).toEqual({ key: 'calendar:connection.synced' })
    await post({ intent: 'sync-full' })
    expect(asked.synced).toEqual([{}, { full: true }])
  })

  test('a calendar holding more events than the provider keeps: the toast says how many were left out (decision 0036)', async () => {
    calendarProvider({ syncAnswer: () => HttpResponse.json({ synced: 2000, last_sync: '2026-11-30T12:00:00.000Z', full: true, events_not_kept: 37 }) })
    const result = await post({ intent: 'sync-full' })
    expect(result.status).toBe(303)
    const toast = await toastOf(result)
    expect(toast).toMatchObject({ type: 'info', message: { key: 'calendar:connection.syncedNotAll', values: { count: 37 } } })
    expect(translationsFor('pt').t('calendar')('connection.syncedNotAll', { count: 37 })).toContain('ficaram de fora 37')
  })

  test('one already running (409): “Sincronização já em andamento”', async () => {
    calendarProvider({ syncAnswer: () => HttpResponse.json({ detail: 'Sync already in progress', code: 'sync_in_progress' }, { status: 409 }) })
    const { status, reply } = await post({ intent: 'sync-full' })
    expect(status).toBe(409)
    expect(reply).toEqual({ form: 'status', intent: 'sync-full', error: 'Sincronização já em andamento' })
  })

  test.each([
    ['Google failing (502)', () => HttpResponse.json({ detail: 'Google failed', code: 'sync_failed' }, { status: 502 })],
    ['the provider failing (500)', () => HttpResponse.json({ detail: 'boom' }, { status: 500 })],
    ['no answer', () => HttpResponse.error()],
  ])('%s: “Não foi possível sincronizar com Google Calendar”', async (_name, answer) => {
    calendarProvider({ syncAnswer: answer })
    const { status, reply } = await post({ intent: 'sync' })
    expect(status).toBe(400)
    expect(formError(reply)).toEqual(['Não foi possível sincronizar com Google Calendar'])
  })

  test('without a connected calendar: “Calendar não está conectado”', async () => {
    const asked = calendarProvider({ status: notConnected })
    for (const intent of ['sync', 'sync-full']) {
      const { status, reply } = await post({ intent })
      expect(status).toBe(400)
      expect(reply).toEqual({ form: 'status', intent, error: 'Calendar não está conectado' })
    }
    expect(asked.synced).toEqual([{}, { full: true }])
  })
})

describe('disconnect', () => {
  test('DELETE /calendar/, then “Integração desativada com sucesso”', async () => {
    const asked = calendarProvider()
    const result = await post({ intent: 'disconnect' }, `${PAGE}?desconectar=1`)
    expect(asked.disconnected).toBe(1)
    expect(result.location).toBe('/agenda/calendario')
    expect((await toastOf(result))?.message).toEqual({ key: 'calendar:connection.disconnected' })
  })

  test('a failure: “Falha ao desconectar Google Calendar”', async () => {
    calendarProvider({ disconnectAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    const { status, reply } = await post({ intent: 'disconnect' }, `${PAGE}?desconectar=1`)
    expect(status).toBe(400)
    expect(reply).toEqual({ form: 'status', intent: 'disconnect', error: 'Falha ao desconectar Google Calendar' })
  })

  test('without a connected calendar: “Calendar não está conectado”', async () => {
    const asked = calendarProvider({ status: notConnected })
    const { status, reply } = await post({ intent: 'disconnect' }, `${PAGE}?desconectar=1`)
    expect(asked.disconnected).toBe(1)
    expect(status).toBe(400)
    expect(reply).toEqual({ form: 'status', intent: 'disconnect', error: 'Calendar não está conectado' })
  })

  test('disconnected, the page shows no events, conflicts or stats any more', async () => {
    calendarProvider({ status: notConnected })
    expect((await page()).page).toMatchObject({ week: null, conflicts: null, stats: null })
  })
})

describe('creating an event', () => {
  const typed = {
    intent: 'create',
    event_type: 'consultation',
    date: '2026-12-01',
    start: '10:00',
    end: '10:50',
    patient_name: 'Ana Souza',
    attendees: 'ana@example.com, Bruno@Example.com\nana@example.com',
    notes: 'Primeira conversa.',
    meeting_link: 'https://meet.example.com/abc',
    related_object_id: '',
  }

  test('sends docs/product.md §3’s payload (instants in UTC from the professional’s zone) and goes to its week with a toast', async () => {
    const asked = calendarProvider()
    const result = await post(typed)
    expect(asked.created).toEqual([
      {
        start_time: '2026-12-01T13:00:00.000Z',
        end_time: '2026-12-01T13:50:00.000Z',
        event_type: 'consultation',
        related_object_id: null,
        attendees: ['ana@example.com', 'bruno@example.com'],
        notes: 'Primeira conversa.',
        patient_name: 'Ana Souza',
        professional_name: 'Paula Ribeiro',
        meeting_link: 'https://meet.example.com/abc',
      },
    ])
    expect(result.location).toBe('/agenda/calendario?semana=2026-11-30')
    expect((await toastOf(result))?.message).toEqual({ key: 'calendar:event.created' })
  })

  test('the times are those of the zone the form names (the page’s); a linked consultation goes as its id', async () => {
    const asked = calendarProvider({ schedule: { ...paulaSchedule, time_zone: 'Europe/Lisbon' } })
    await post({ ...typed, event_type: 'class', related_object_id: '31', time_zone: 'Europe/Lisbon' })
    expect(asked.created[0]).toMatchObject({ start_time: '2026-12-01T10:00:00.000Z', end_time: '2026-12-01T10:50:00.000Z', event_type: 'class', related_object_id: 31 })
  })

  test.each([
    ['an end before the start', { end: '09:00' }, { end: ['calendar:validation.order'] }],
    ['a time that is not one', { start: '25:00' }, { start: ['calendar:validation.time'] }],
    ['no date', { date: '' }, { date: ['calendar:validation.date'] }],
    ['a bad guest', { attendees: 'ana@example.com, nobody' }, { attendees: ['calendar:validation.attendees'] }],
    ['51 guests', { attendees: Array.from({ length: 51 }, (_, index) => `p${index}@example.com`).join(',') }, { attendees: ['calendar:validation.tooManyAttendees'] }],
    ['a plain http link', { meeting_link: 'http://meet.example.com/abc' }, { meeting_link: ['calendar:validation.meetingLink'] }],
    ['notes too long', { notes: 'x'.repeat(5001) }, { notes: ['calendar:validation.notesTooLong'] }],
    ['an unknown type', { event_type: 'festa' }, { event_type: ['calendar:validation.type'] }],
    ['a consultation number that is not one', { related_object_id: '3a' }, { related_object_id: ['calendar:validation.relatedObject'] }],
  ])('%s is refused before the provider is asked, everything typed kept', async (_name, change, errors) => {
    const asked = calendarProvider()
    const { status, reply } = await post({ ...typed, ...change })
    expect(status).toBe(400)
    expect(reply.form === 'event' && reply.result.error).toEqual(errors)
    // What was typed comes back (conform leaves out the empty fields).
    const kept = Object.fromEntries(Object.entries({ ...typed, ...change }).filter(([, value]) => value !== ''))
    expect(reply.form === 'event' && reply.result.initialValue).toEqual(kept)
    expect(asked.created).toEqual([])
  })

  test.each([
    ['Google failing (502)', () => HttpResponse.json({ detail: 'Google failed', code: 'google_error' }, { status: 502 })],
    ['the provider failing (500)', () => HttpResponse.json({ detail: 'boom' }, { status: 500 })],
    ['no answer', () => HttpResponse.error()],
  ])('%s: “Não foi possível criar evento no Google Calendar”, nothing typed lost', async (_name, answer) => {
    calendarProvider({ createAnswer: answer })
    const { status, reply } = await post(typed)
    expect(status).toBe(400)
    expect(formError(reply)).toEqual(['Não foi possível criar evento no Google Calendar'])
    expect(reply.form === 'event' && reply.result.initialValue).toMatchObject({ notes: 'Primeira conversa.', attendees: typed.attendees, patient_name: 'Ana Souza', start: '10:00' })
  })

  test('a provider that hangs: the wait ends with the message, nothing typed lost', async () => {
    calendarProvider({
      createAnswer: async () => {
        await delay('infinite')
        return HttpResponse.json({})
      },
    })
    const { reply } = await post(typed)
    expect(formError(reply)).toEqual(['Não foi possível criar evento no Google Calendar'])
  })

  test('without a connected calendar: “Calendar não está conectado”', async () => {
    calendarProvider({ status: notConnected })
    const { status, reply } = await post(typed)
    expect(status).toBe(400)
    expect(formError(reply)).toEqual(['Calendar não está conectado'])
  })

  test('the provider’s field errors land on their fields', async () => {
    calendarProvider({ createAnswer: () => HttpResponse.json({ attendees: ['Ensure this field has no more than 50 elements.'], start_time: ['Enter a valid instant.'] }, { status: 400 }) })
    const { reply } = await post(typed)
    expect(reply.form === 'event' && reply.result.error).toMatchObject({
      '': ['Não foi possível criar evento no Google Calendar'],
      attendees: ['Ensure this field has no more than 50 elements.'],
      start: ['Enter a valid instant.'],
    })
  })

  test('throttled: a 429 with the wait', async () => {
    calendarProvider({ createAnswer: () => HttpResponse.json({ detail: 'Slow down.' }, { status: 429, headers: { 'Retry-After': '30' } }) })
    const { status, headers, reply } = await post(typed)
    expect(status).toBe(429)
    expect(headers.get('Retry-After')).toBe('30')
    expect(formError(reply)).toEqual(['Muitas tentativas. Tente novamente em 30 segundos.'])
  })

  test('in English and Spanish', async () => {
    calendarProvider({ createAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 500 }) })
    expect(formError((await post(typed, `${PAGE}?lng=en`)).reply)).toEqual(['Could not create the event in Google Calendar'])
    expect(formError((await post(typed, `${PAGE}?lng=es`)).reply)).toEqual(['No se pudo crear el evento en Google Calendar'])
  })
})

describe('editing an event', () => {
  const typed = { intent: 'update', event_id: 'dentista', event_type: 'personal', date: '2026-12-01', start: '10:30', end: '11:30', notes: 'Levar a carteirinha.' }

  test('PUT /calendar/{id}/ with the payload, then its week with a toast', async () => {
    const asked = calendarProvider()
    const result = await post(typed, `${PAGE}?editar=dentista`)
    expect(asked.updated).toEqual([{ id: 'dentista', body: expect.objectContaining({ start_time: '2026-12-01T13:30:00.000Z', end_time: '2026-12-01T14:30:00.000Z', event_type: 'personal', notes: 'Levar a carteirinha.' }) }])
    expect(result.location).toBe('/agenda/calendario?semana=2026-11-30')
    expect((await toastOf(result))?.message).toEqual({ key: 'calendar:event.updated' })
  })

  test('an id with characters of a path is escaped, or refused when it cannot be one', async () => {
    const asked = calendarProvider()
    await post({ ...typed, event_id: 'abc_20261201T130000Z' })
    expect(asked.updated.map((update) => update.id)).toEqual(['abc_20261201T130000Z'])
    expect((await post({ ...typed, event_id: '../../users/me' })).status).toBe(400)
    expect(asked.updated).toHaveLength(1)
  })

  test('a failure: “Não foi possível atualizar evento no Google Calendar”, nothing typed lost; gone meanwhile: said so', async () => {
    calendarProvider({ updateAnswer: () => HttpResponse.json({ detail: 'boom', code: 'google_error' }, { status: 502 }) })
    const failed = (await post(typed)).reply
    expect(formError(failed)).toEqual(['Não foi possível atualizar evento no Google Calendar'])
    expect(failed.form === 'event' && failed.result.initialValue).toMatchObject({ notes: 'Levar a carteirinha.', event_id: 'dentista' })
    calendarProvider({ updateAnswer: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect(formError((await post(typed)).reply)).toEqual(['Esse evento não está mais no seu Google Calendar.'])
  })

  test('without a connected calendar: “Calendar não está conectado”', async () => {
    calendarProvider({ status: notConnected })
    expect(formError((await post(typed)).reply)).toEqual(['Calendar não está conectado'])
  })
})

describe('deleting an event', () => {
  test('DELETE /calendar/{id}/, then a toast', async () => {
    const asked = calendarProvider()
    const result = await post({ intent: 'delete', event_id: 'dentista' }, `${PAGE}?excluir=dentista`)
    expect(asked.deleted).toEqual(['dentista'])
    expect((await toastOf(result))?.message).toEqual({ key: 'calendar:event.deleted' })
  })

  test('already gone (404) is what was wanted', async () => {
    calendarProvider({ deleteAnswer: () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 }) })
    expect((await post({ intent: 'delete', event_id: 'dentista' })).status).toBe(303)
  })

  test('a failure: “Não foi possível deletar evento no Google Calendar”; not connected: “Calendar não está conectado”', async () => {
    calendarProvider({ deleteAnswer: () => HttpResponse.json({ detail: 'boom' }, { status: 502 }) })
    expect((await post({ intent: 'delete', event_id: 'dentista' })).reply).toEqual({ form: 'status', intent: 'delete', error: 'Não foi possível deletar evento no Google Calendar' })
    calendarProvider({ status: notConnected })
    expect((await post({ intent: 'delete', event_id: 'dentista' })).reply).toMatchObject({ error: 'Calendar não está conectado' })
  })

  test('without an id, or with an unknown intent: a bad request', async () => {
    const asked = calendarProvider()
    expect((await post({ intent: 'delete' })).status).toBe(400)
    expect((await post({ intent: 'explodir' })).status).toBe(400)
    expect(asked.deleted).toEqual([])
  })
})

test('a revoked grant on an action says to reconnect', async () => {
  calendarProvider({ syncAnswer: () => HttpResponse.json({ detail: 'Reconnect.', code: 'calendar_reconnect' }, { status: 400 }) })
  expect(formError((await post({ intent: 'sync' })).reply)).toEqual(['O acesso ao Google Calendar foi revogado ou expirou. Reconecte para continuar.'])
})

describe('one zone for the page and the provider: the professional’s schedule zone', () => {
  // Paula's account says Tokyo; her schedule (and so the provider's dates and conflicts) São Paulo.
  const inTokyo = () => signedIn({ ...demoProfessional, time_zone: 'Asia/Tokyo' })
  const typed = { intent: 'create', event_type: 'personal', date: '2026-12-01', start: '10:00', end: '10:50' }

  test('the week, the times and the form are São Paulo’s, not the account’s', async () => {
    const asked = calendarProvider()
    const cookie = await inTokyo()
    const { page: data } = await page(PAGE, cookie)
    expect(data.timeZone).toBe('America/Sao_Paulo')
    expect(data.week?.days.find((day) => day.date === '2026-12-01')?.items).toMatchObject([{ id: 'dentista', time: '10:00–11:00' }, { id: 'almoco', time: '12:00–13:00' }])
    expect(data.connection.lastSync).toBe('seg., 30 de nov. de 2026, 08:58')
    // Monday 09:00 in São Paulo is Monday 21:00 in Tokyo: the same dates, read once.
    expect(asked.events).toHaveLength(1)
    expect((await page(`${PAGE}?editar=dentista`, cookie)).page.form?.defaults).toMatchObject({ date: '2026-12-01', start: '10:00', end: '11:00' })
  })

  test('typed times become instants in the zone the form showed them in; a form that names none, or a bad one, takes the schedule’s', async () => {
    const asked = calendarProvider()
    const cookie = await inTokyo()
    for (const fields of [{ ...typed, time_zone: 'America/Sao_Paulo' }, typed, { ...typed, time_zone: 'Mars/Olympus' }]) {
      expect((await post(fields, PAGE, cookie)).status).toBe(303)
    }
    expect(asked.created.map((body) => (body as { start_time: string }).start_time)).toEqual(['2026-12-01T13:00:00.000Z', '2026-12-01T13:00:00.000Z', '2026-12-01T13:00:00.000Z'])
  })

  test('when the two zones are on other dates (near midnight), the events and the week of São Paulo’s dates are read again', async () => {
    // Sunday 13:00 in São Paulo, already Monday 01:00 in Tokyo.
    vi.setSystemTime(new Date('2026-11-29T16:00:00.000Z'))
    const asked = calendarProvider()
    const { page: data } = await page(PAGE, await inTokyo())
    expect(asked.events.map((query) => Object.fromEntries(query))).toEqual([
      { start_date: '2026-11-30', end_date: '2027-01-04', include_innera_events: 'true' },
      { start_date: '2026-11-23', end_date: '2026-12-29', include_innera_events: 'true' },
    ])
    expect(asked.dashboard.map((query) => query.get('start'))).toEqual(['2026-11-30', '2026-11-23'])
    expect(data).toMatchObject({ timeZone: 'America/Sao_Paulo', today: '2026-11-29', week: { start: '2026-11-23' } })
  })
})
