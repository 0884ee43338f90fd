// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { getEnv } from '#app/env.server.ts'
import SettingsPage, { action, loader } from '#app/routes/configuracoes.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, run } from '#tests/mocks/route.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'
import { signedIn } from '#tests/mocks/session.ts'

/** The settings page's calendar section as the browser draws it, over its real loader and action (msw as the provider). */

const TOKEN = 'q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N'
const FEED = '/appointments/calendar-feed/'

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function show() {
  return renderRoute('/configuracoes', [{ path: '/configuracoes', Component: SettingsPage, loader, action }], { cookie: await signedIn() })
}

describe('settings: the calendar section', () => {
  test('no link yet: one button creates it; the URL is then shown once, read-only, with how to subscribe and a revoke button', async () => {
    let active = false
    providerMock.use(
      http.get(providerUrl(FEED), () => HttpResponse.json({ active, created_at: active ? '2026-11-30T12:00:00.000Z' : null })),
      http.post(providerUrl(FEED), () => {
        active = true
        return HttpResponse.json({ token: TOKEN }, { status: 201 })
      }),
    )
    await show()
    expect(await screen.findByRole('heading', { name: 'Calendário' })).toBeInTheDocument()
    expect(screen.getByText('Você ainda não tem um link do calendário.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Revogar link' })).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Criar link do calendário' }))
    const url = await screen.findByRole('textbox', { name: 'Seu link do calendário' })
    expect(url).toHaveValue(`${getEnv().APP_PUBLIC_URL}/calendario/${TOKEN}.ics`)
    expect(url).toHaveAttribute('readonly')
    expect(url).toHaveAccessibleDescription(/mostrado só desta vez/)
    expect(screen.getByText(/Adicionar Calendário Assinado/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Criar novo link' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Revogar link' })).toHaveAccessibleDescription(/deixa de funcionar na hora/)
  })

  test('an active link is not shown again: only since when, with replace and revoke', async () => {
    providerMock.use(http.get(providerUrl(FEED), () => HttpResponse.json({ active: true, created_at: '2026-11-30T12:00:00.000Z' })))
    await show()
    expect(await screen.findByText(/Você tem um link ativo, criado em segunda-feira, 30 de novembro de 2026 às 09:00/)).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'Seu link do calendário' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Criar novo link' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Revogar link' })).toBeInTheDocument()
  })

  test('the forms post an intent, so they work without JavaScript', async () => {
    providerMock.use(http.get(providerUrl(FEED), () => HttpResponse.json({ active: true, created_at: '2026-11-30T12:00:00.000Z' })))
    const { container } = await show()
    await screen.findByRole('button', { name: 'Revogar link' })
    const intents = [...container.querySelectorAll('form[method="post"] input[name="intent"]')].map((input) => (input as HTMLInputElement).value)
    expect(intents).toEqual(['calendar-create', 'calendar-revoke'])
  })
})

describe('settings: the password change and the calendar link (issue 22, finding 7)', () => {
  const PASSWORDS = { old_password: 'innera-demo-2025', new_password: 'caminhada-matinal-8', confirm_password: 'caminhada-matinal-8' }
  function changes() {
    const sent: Record<string, unknown>[] = []
    providerMock.use(
      http.post(providerUrl('/users/change-password/'), async ({ request }) => {
        sent.push((await request.json()) as Record<string, unknown>)
        return HttpResponse.json({ detail: 'Password updated successfully.', access: 'new-access', refresh: 'new-refresh' })
      }),
    )
    return sent
  }
  const post = async (fields: Record<string, string>) => run(action, formRequest('http://app.test/configuracoes', fields, { Cookie: await signedIn() }))

  test('unticked (or absent), the provider is told to revoke the link; ticked, to keep it', async () => {
    const sent = changes()
    expect((await post(PASSWORDS)).status).toBe(303)
    expect((await post({ ...PASSWORDS, keep_calendar_feed: 'on' })).status).toBe(303)
    expect(sent.map((body) => body.keep_calendar_feed)).toEqual([false, true])
  })

  test('a refused change comes back with the box as it was ticked, the passwords cleared', async () => {
    providerMock.use(http.post(providerUrl('/users/change-password/'), () => HttpResponse.json({ old_password: ['Wrong password.'] }, { status: 400 })))
    const result = await post({ ...PASSWORDS, keep_calendar_feed: 'on' })
    expect(result.status).toBe(400)
    const reply = (result.data as { result: { initialValue: Record<string, unknown> } }).result
    expect(reply.initialValue).toMatchObject({ keep_calendar_feed: 'on' })
    expect(reply.initialValue).not.toHaveProperty('new_password')
  })

  test('the box is offered, unticked, beside an active link (or one that could not be checked), not without one', async () => {
    let answer: () => Response = () => HttpResponse.json({ active: true, created_at: '2026-11-30T12:00:00.000Z' })
    providerMock.use(http.get(providerUrl(FEED), () => answer()))
    await show()
    const box = await screen.findByRole('checkbox', { name: 'Manter funcionando meu link do calendário' })
    expect(box).not.toBeChecked()
    expect(box).toHaveAccessibleDescription(/deixa de funcionar junto com as outras sessões/)
    cleanup()
    answer = () => HttpResponse.json({ detail: 'boom' }, { status: 500 })
    await show()
    expect(await screen.findByRole('checkbox', { name: 'Manter funcionando meu link do calendário' })).toBeInTheDocument()
    cleanup()
    answer = () => HttpResponse.json({ active: false, created_at: null })
    await show()
    await screen.findByText('Você ainda não tem um link do calendário.')
    expect(screen.queryByRole('checkbox')).toBeNull()
  })
})
