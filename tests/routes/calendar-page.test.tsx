// @vitest-environment jsdom
import { act, cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import CalendarPage, { action, loader } from '#app/routes/agenda_.calendario/route.tsx'
import { CALENDAR_POPUP_CHANNEL, POPUP_MESSAGE_TYPE } from '#app/utils/calendar-popup-message.ts'
import { calendarProvider, notConnected } from '#tests/mocks/calendar.ts'
import { demoProfessional, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/**
 * The calendar page as the browser draws it, over its real loader and action (msw as the
 * provider): the connect link and its popup (blocked, answered on the same-origin channel), the
 * forms that work without JavaScript.
 */

// The mock's events are in the week of 2026-11-30: the page is read a week before, so they are conflicts within 30 days.
beforeEach(() => {
  ignoreRouterFutureWarnings()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-23T12:00:00.000Z'))
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

async function show() {
  return renderRoute('/agenda/calendario', [{ path: '/agenda/calendario', Component: CalendarPage, loader, action }], { cookie: await signedIn(demoProfessional) })
}

const connectionRegion = () => screen.getByRole('region', { name: 'Conexão' })

describe('the calendar page in the browser', () => {
  test('not connected: a plain link to the full-page start; a blocked popup says so and offers it again', async () => {
    calendarProvider({ status: notConnected })
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    await show()
    const link = await screen.findByRole('link', { name: 'Conectar Google Calendar' })
    expect(link).toHaveAttribute('href', '/agenda/calendario/conectar')
    await userEvent.click(link)
    expect(open).toHaveBeenCalledWith('/agenda/calendario/conectar?popup=1', 'innera-google-calendar', expect.stringMatching(/^popup=yes,width=500,height=600/))
    const status = within(connectionRegion()).getByRole('status')
    expect(status).toHaveTextContent('Pop-up bloqueado. Por favor, permita pop-ups para este site.')
    expect(within(status).getByRole('link', { name: 'Conectar nesta janela' })).toHaveAttribute('href', '/agenda/calendario/conectar')
  })

  test('the popup’s answer on the same-origin channel: connected, and the page read again', async () => {
    calendarProvider({ status: notConnected })
    const popup = { closed: false, close: vi.fn() }
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window)
    await show()
    await userEvent.click(await screen.findByRole('link', { name: 'Conectar Google Calendar' }))
    expect(within(connectionRegion()).getByRole('status')).toHaveTextContent('Continue na janela do Google que se abriu.')
    // Connected meanwhile (the callback did it): the revalidation reads it.
    const after = calendarProvider()
    await act(async () => {
      const channel = new BroadcastChannel(CALENDAR_POPUP_CHANNEL)
      channel.postMessage({ type: POPUP_MESSAGE_TYPE, outcome: 'success' })
      channel.close()
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(await within(connectionRegion()).findByText('Conectado como paula@example.com.')).toBeInTheDocument()
    expect(within(connectionRegion()).getByRole('status')).toHaveTextContent('Google Calendar conectado com sucesso')
    expect(after.integration).toBeGreaterThanOrEqual(1)
  })

  test('connected: the forms post an intent, so they work without JavaScript', async () => {
    calendarProvider()
    const { container } = await show()
    await screen.findByRole('heading', { name: /^Semana de / })
    const buttons = [...container.querySelectorAll('form[method="post"] button[name="intent"]')].map((button) => (button as HTMLButtonElement).value)
    expect(buttons).toEqual(['sync', 'sync-full', 'create'])
    // GET /calendar/'s synced calendar, and the zone the event form's times are in (the schedule's), sent with it.
    expect(within(connectionRegion()).getByText('Agenda principal: paula@example.com.')).toBeInTheDocument()
    expect(container.querySelector('#event-form input[name="time_zone"]')).toHaveValue('America/Sao_Paulo')
    expect(screen.getByRole('link', { name: 'Desconectar' })).toHaveAttribute('href', '/agenda/calendario?desconectar=1#connection-title')
    expect(screen.getByRole('region', { name: 'Conflitos nos próximos 30 dias' })).toBeInTheDocument()
    expect(screen.getByText('Banca URGENTE', { selector: 'span' })).toBeInTheDocument()
  })
})
