// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { type ComponentType } from 'react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import BookingPage, { action as bookAction, loader as bookLoader } from '#app/routes/consultas.agendar.$professionalId.tsx'
import AppointmentPage, { loader as detailsLoader } from '#app/routes/consultas.$id/route.tsx'
import MyAppointmentsPage, { loader as listLoader } from '#app/routes/consultas._index.tsx'
import DirectoryPage, { loader as directoryLoader } from '#app/routes/consultas.profissionais.tsx'
import { NOW, appointment, directoryAndAvailability } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { ignoreRouterFutureWarnings, renderRoute, type ServerFunction } from '#tests/mocks/route-stub.ts'
import { signedIn } from '#tests/mocks/session.ts'

/**
 * The pages as the browser draws them, over their real loaders and actions (msw as the provider):
 * links and form fields a user without JavaScript relies on.
 */

beforeEach(() => {
  ignoreRouterFutureWarnings()
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

async function show(path: string, pattern: string, Component: ComponentType, loader: ServerFunction, action?: ServerFunction) {
  return renderRoute(path, [{ path: pattern, Component, loader, action }], { cookie: await signedIn() })
}

describe('consultation pages', () => {
  test('the directory: a card per professional with its booking link, the pillar filter as links', async () => {
    directoryAndAvailability()
    await show('/consultas/profissionais', '/consultas/profissionais', DirectoryPage, directoryLoader)
    const card = await screen.findByRole('article', { name: 'Ana Lima' })
    // (Testing Library reads the no-break space of 'R$ 180,00' as a space.)
    expect(within(card).getByText('R$ 180,00')).toBeInTheDocument()
    expect(within(card).getByRole('link', { name: /Agendar/ })).toHaveAttribute('href', '/consultas/agendar/7')
    expect(screen.getByRole('link', { name: 'Sono' })).toHaveAttribute('href', '/consultas/profissionais?pilar=sono')
  })

  test('booking: date links, time radios and notes in one form, then the review with hidden fields', async () => {
    directoryAndAvailability()
    await show('/consultas/agendar/7', '/consultas/agendar/:professionalId', BookingPage, bookLoader, bookAction)
    expect(await screen.findByRole('link', { name: /qui., 3 de dez./ })).toHaveAttribute('href', '/consultas/agendar/7?data=2026-12-03')
    expect(screen.getByRole('link', { name: /ter., 1 de dez./ })).toHaveAttribute('aria-current', 'date')
    const times = screen.getAllByRole('radio')
    expect(times.map((radio) => radio.getAttribute('value'))).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-01T13:00:00.000Z', '2026-12-01T17:00:00.000Z'])
    const user = userEvent.setup()
    await user.click(screen.getByRole('radio', { name: '10:00' }))
    await user.type(screen.getByRole('textbox', { name: /Observações/ }), 'Sono leve')
    await user.click(screen.getByRole('button', { name: 'Continuar' }))
    expect(await screen.findByRole('heading', { name: 'Confira seu agendamento' })).toBeInTheDocument()
    expect(screen.getByText('terça-feira, 1 de dezembro de 2026 às 10:00 – 10:50')).toBeInTheDocument()
    const form = screen.getByRole('button', { name: 'Confirmar agendamento' }).closest('form')!
    expect(form.querySelector('input[type="hidden"][name="start_time"]')).toHaveValue('2026-12-01T13:00:00.000Z')
    expect(form.querySelector('input[type="hidden"][name="notes"]')).toHaveValue('Sono leve')
    // The booking's key, made by the server for this review (decision 0034).
    const key = form.querySelector<HTMLInputElement>('input[type="hidden"][name="idempotency_key"]')?.value
    expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/)
    // Back: the picker again, the time still chosen, the notes still there, the key carried along.
    await user.click(screen.getByRole('button', { name: 'Voltar' }))
    await waitFor(() => expect(screen.getByRole('radio', { name: '10:00' })).toBeChecked())
    expect(screen.getByRole('textbox', { name: /Observações/ })).toHaveValue('Sono leve')
    const picker = screen.getByRole('button', { name: 'Continuar' }).closest('form')!
    expect(picker.querySelector('input[type="hidden"][name="idempotency_key"]')).toHaveValue(key)
  })

  test('booking (issue 22): a confirmation without an answer says the booking may have gone through; the form keeps the time, notes and key', async () => {
    directoryAndAvailability()
    providerMock.use(http.post(providerUrl('/appointments/create/'), () => HttpResponse.error()))
    await show('/consultas/agendar/7', '/consultas/agendar/:professionalId', BookingPage, bookLoader, bookAction)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('radio', { name: '10:00' }))
    await user.type(screen.getByRole('textbox', { name: /Observações/ }), 'Sono leve')
    await user.click(screen.getByRole('button', { name: 'Continuar' }))
    const confirm = await screen.findByRole('button', { name: 'Confirmar agendamento' })
    const key = confirm.closest('form')!.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!.value
    await user.click(confirm)
    expect(await screen.findByText(/Seu agendamento pode ter sido feito mesmo assim/)).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: '10:00' })).toBeChecked()
    expect(screen.getByRole('textbox', { name: /Observações/ })).toHaveValue('Sono leve')
    expect(screen.getByRole('button', { name: 'Continuar' }).closest('form')!.querySelector('input[type="hidden"][name="idempotency_key"]')).toHaveValue(key)
  })

  test('booking: a time taken meanwhile offers the nearest ones as radios, the notes kept', async () => {
    directoryAndAvailability()
    providerMock.use(
      http.post(providerUrl('/appointments/create/'), () =>
        HttpResponse.json({ detail: 'This time is no longer available.', code: 'slot_taken', nearest: ['2026-12-03T12:00:00.000Z'] }, { status: 409 }),
      ),
    )
    await show('/consultas/agendar/7', '/consultas/agendar/:professionalId', BookingPage, bookLoader, bookAction)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('radio', { name: '10:00' }))
    await user.type(screen.getByRole('textbox', { name: /Observações/ }), 'Sono leve')
    await user.click(screen.getByRole('button', { name: 'Continuar' }))
    await user.click(await screen.findByRole('button', { name: 'Confirmar agendamento' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Esse horário acabou de ser reservado')
    const nearest = screen.getByRole('group', { name: 'Horários livres mais próximos' })
    expect(within(nearest).getByRole('radio', { name: 'qui., 3 de dez. de 2026, 09:00' })).toHaveAttribute('value', '2026-12-03T12:00:00.000Z')
    expect(screen.getByRole('textbox', { name: /Observações/ })).toHaveValue('Sono leve')
  })

  test('my appointments: the empty state links to the directory', async () => {
    providerMock.use(http.get(providerUrl('/appointments/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })))
    await show('/consultas', '/consultas', MyAppointmentsPage, listLoader)
    expect(await screen.findByText(/Você ainda não tem consultas/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Encontrar um profissional' })).toHaveAttribute('href', '/consultas/profissionais')
  })

  test('an appointment: details, then the cancellation with the terms before confirming', async () => {
    providerMock.use(http.get(providerUrl('/appointments/:id/'), () => HttpResponse.json(appointment({ start_time: '2026-12-01T10:00:00.000Z', end_time: '2026-12-01T10:50:00.000Z' }))))
    await show('/consultas/31', '/consultas/:id', AppointmentPage, detailsLoader)
    expect(await screen.findByRole('heading', { level: 1, name: 'Consulta com Ana Lima' })).toBeInTheDocument()
    expect(screen.getByText('Agendada')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Remarcar' })).toHaveAttribute('href', '/consultas/31/remarcar')
    expect(screen.getByRole('link', { name: 'Página da consulta' })).toHaveAttribute('href', '/consultas/31/consulta')
    await userEvent.setup().click(screen.getByRole('link', { name: 'Cancelar consulta' }))
    expect(await screen.findByTestId('refund-terms')).toHaveTextContent('Cancelamentos com menos de 24 horas de antecedência e ausências não garantem reembolso.')
    expect(screen.getByRole('button', { name: 'Confirmar cancelamento' })).toBeInTheDocument()
  })
})
