// @vitest-environment jsdom
import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { createRemixStub } from '@remix-run/testing'
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { getEnv } from '#app/env.server.ts'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { TranslationsProvider } from '#app/i18n/react.tsx'
import SettingsPage, { action, loader } from '#app/routes/configuracoes.tsx'
import { signedIn } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'

/** The settings page's calendar section as the browser draws it, over its real loader and action (msw as the provider). */

const TOKEN = 'q3Vx8Jm2-Lr5Tn7Wc1Yz4Ab6Ed9Gh0Kp_Sv2Xf5Hj8N'
const FEED = '/appointments/calendar-feed/'

beforeEach(() => {
  const warn = console.warn
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('React Router Future Flag Warning')) warn(...args)
  })
})
afterEach(() => cleanup())

type Server = (args: LoaderFunctionArgs | ActionFunctionArgs) => Promise<unknown>

function signedInAs(fn: Server, cookie: string) {
  return async ({ request, params }: { request: Request; params: LoaderFunctionArgs['params'] }) => {
    const headers = new Headers(request.headers)
    headers.set('Cookie', cookie)
    const body = request.method === 'POST' ? await request.text() : undefined
    return fn({ request: new Request(request.url, { method: request.method, headers, body }), params, context: {} })
  }
}

async function show() {
  const cookie = await signedIn()
  const Stub = createRemixStub([{ path: '/configuracoes', Component: SettingsPage, loader: signedInAs(loader, cookie), action: signedInAs(action, cookie) }])
  return render(
    <TranslationsProvider value={translationsFor('pt')}>
      <Stub initialEntries={['/configuracoes']} />
    </TranslationsProvider>,
  )
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
