// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import LiveClassPage, { loader as classLoader } from '#app/routes/aulas-ao-vivo.$id.tsx'
import LiveClassesPage, { loader as classesLoader } from '#app/routes/aulas-ao-vivo._index.tsx'
import { liveClassAnswer, liveClassPage } from '#tests/mocks/classes.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** The live classes' pages as the browser draws them (decision 0058): the cards, the class's actions and lock. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

// Two days ahead, so the room is not open yet whatever the clock says.
const starts = new Date(Date.now() + 2 * 86_400_000)
const upcoming = (overrides: Record<string, unknown> = {}) =>
  liveClassAnswer({ starts_at: starts.toISOString(), ends_at: new Date(starts.getTime() + 50 * 60_000).toISOString(), join_opens_at: new Date(starts.getTime() - 10 * 60_000).toISOString(), ...overrides })

async function renderAt(path: string) {
  const routes = [
    { path: '/aulas-ao-vivo', Component: LiveClassesPage, loader: classesLoader },
    { path: '/aulas-ao-vivo/:id', Component: LiveClassPage, loader: classLoader },
  ]
  return renderRoute(path, routes, { cookie: await signedIn(demoPatient) })
}

describe('live class pages', () => {
  test('the list: a card per class with its teacher, seats, access and link', async () => {
    providerMock.use(http.get(providerUrl('/products/zoom/sessions/'), () => HttpResponse.json(liveClassPage([upcoming({ reserved: true }), upcoming({ id: 8, seats_left: 0, access: 'free', title: { pt: 'Respiração e pausa', en: 'Breathe', es: 'Respira' } })]))))
    await renderAt('/aulas-ao-vivo')
    expect(await screen.findByRole('heading', { level: 1, name: 'Aulas ao vivo' })).toBeInTheDocument()
    expect(screen.getByLabelText('Pilar')).toHaveDisplayValue('Todos os pilares')
    const yoga = screen.getByRole('article', { name: 'Yoga para dormir melhor' })
    expect(yoga).toHaveTextContent('Com Paula Ribeiro')
    expect(yoga).toHaveTextContent('12 vagas')
    expect(within(yoga).getByText('Para assinantes')).toBeInTheDocument()
    expect(within(yoga).getByText('Você está inscrito')).toBeInTheDocument()
    const breathe = screen.getByRole('article', { name: 'Respiração e pausa' })
    expect(within(breathe).getByText('Esgotada')).toBeInTheDocument()
    expect(within(breathe).getByText('Gratuita')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /^Ver a aula ?: Yoga para dormir melhor$/ })).toHaveAttribute('href', '/aulas-ao-vivo/7')
  })

  test('a class: "Reservar minha vaga" and the .ics; locked, why and the plans, no button', async () => {
    let answer = upcoming()
    providerMock.use(http.get(providerUrl('/products/zoom/sessions/7/'), () => HttpResponse.json(answer)))
    await renderAt('/aulas-ao-vivo/7')
    expect(await screen.findByRole('heading', { level: 1, name: 'Yoga para dormir melhor' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reservar minha vaga' })).toHaveAttribute('value', 'reserve')
    expect(screen.getByRole('link', { name: 'Adicionar à agenda (.ics)' })).toHaveAttribute('href', '/aulas-ao-vivo/7/ics')
    cleanup()

    answer = upcoming({ locked: true })
    await renderAt('/aulas-ao-vivo/7')
    expect(await screen.findByText('Aula para assinantes')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver os planos' })).toHaveAttribute('href', '/solucoes?tipo=subscription')
    expect(screen.queryByRole('button')).toBeNull()
  })
})
