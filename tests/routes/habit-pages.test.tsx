// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { addDays } from '#app/domain/calendar-dates.ts'
import HabitPage, { loader as habitLoader } from '#app/routes/habitos.$id.tsx'
import HabitsPage, { action as listAction, loader as listLoader } from '#app/routes/habitos._index.tsx'
import NewHabitPage, { loader as newLoader } from '#app/routes/habitos.novo.tsx'
import { CLIENT_TOAST_EVENT } from '#app/ui/toast-state.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute, type StubRoute } from '#tests/mocks/route-stub.ts'

/** The habit pages as the browser draws them, over their real loaders and actions (msw as the provider). */

const TODAY = '2026-11-25'

function summary(status: 'done' | null = null) {
  const week = Array.from({ length: 7 }, (_, index) => ({ date: addDays(TODAY, index - 6), due: true, trackable: index >= 5, status: index === 6 ? status : null, amount: null }))
  return {
    id: 12,
    name: 'Beber água',
    pillar: 'alimento',
    frequency: 'daily',
    weekdays: [],
    times_per_week: null,
    target: 8,
    unit: 'copos',
    reminder_time: '08:00',
    created_on: addDays(TODAY, -1),
    archived: false,
    archived_at: null,
    today: week[6],
    week,
    current_streak: { length: status === 'done' ? 1 : 0, unit: 'day' },
    strength: 5,
  }
}

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderRoutes(path: string, routes: StubRoute[]) {
  return renderRoute(path, routes, { cookie: await signedIn(demoPatient) })
}

describe('habit pages', () => {
  test('the list: a tap answers at once; a refusal puts the saved answer back with the reason', async () => {
    let saved: 'done' | null = null
    let refuse = false
    providerMock.use(
      http.get(providerUrl('/habits/'), () => HttpResponse.json({ today: TODAY, time_zone: 'America/Sao_Paulo', count: 1, next: null, previous: null, results: [summary(saved)] })),
      http.post(providerUrl('/habits/12/track/'), async ({ request }) => {
        const body = (await request.json()) as { status: string }
        if (refuse) return HttpResponse.error()
        saved = body.status === 'done' ? 'done' : null
        return HttpResponse.json(summary(saved))
      }),
    )
    await renderRoutes('/habitos', [{ path: '/habitos', children: [{ index: true, Component: HabitsPage, loader: listLoader, action: listAction }] }])
    const card = await screen.findByRole('article', { name: 'Beber água' })
    expect(within(card).getByRole('link', { name: 'Beber água' })).toHaveAttribute('href', '/habitos/12')
    expect(screen.getByRole('heading', { level: 2, name: 'Alimentação' })).toBeInTheDocument()
    const today = within(card).getByRole('group', { name: /^Hoje, / })
    expect(within(card).getByText(/^Ontem, .*/)).toBeInTheDocument()
    expect(within(card).getAllByText(/antes do início deste hábito/).length).toBe(5)
    const done = within(today).getByRole('button', { name: 'Feito' })
    expect(done).toHaveAttribute('aria-pressed', 'false')

    await userEvent.click(done)
    await waitFor(() => expect(within(today).getByRole('button', { name: 'Feito' })).toHaveAttribute('aria-pressed', 'true'))
    await waitFor(() => expect(within(card).getByText('1 dia')).toBeInTheDocument())

    // Taken back while the provider is down: the answer returns to "done", the reason is said.
    refuse = true
    const toasts: string[] = []
    const onToast = (event: Event) => toasts.push(JSON.stringify((event as CustomEvent<{ message: unknown }>).detail.message))
    window.addEventListener(CLIENT_TOAST_EVENT, onToast)
    await userEvent.type(within(today).getByLabelText('Quantidade (copos)'), '3')
    await userEvent.click(within(today).getByRole('button', { name: 'Feito' }))
    expect(await within(today).findByText('Erro de conexão. Verifique sua internet e configurações.')).toBeInTheDocument()
    // The toast says it (the one live region); the reason beside the day is not a second alert.
    expect(toasts).toEqual([JSON.stringify({ text: 'Erro de conexão. Verifique sua internet e configurações.' })])
    expect(within(today).queryByRole('alert')).toBeNull()
    window.removeEventListener(CLIENT_TOAST_EVENT, onToast)
    expect(within(today).getByRole('button', { name: 'Feito' })).toHaveAttribute('aria-pressed', 'true')
    expect(within(today).getByLabelText('Quantidade (copos)')).toHaveValue('3')
  })

  test('the archived habits: a page at a time, with previous and next links that keep ?arquivados=1 (plain links, no JavaScript needed)', async () => {
    providerMock.use(
      http.get(providerUrl('/habits/stats/'), () => HttpResponse.json({ today: TODAY, habits: [], pillars: [] })),
      http.get(providerUrl('/habits/'), ({ request }) => {
        if (new URL(request.url).searchParams.get('archived') !== 'true') return HttpResponse.json({ today: TODAY, time_zone: 'America/Sao_Paulo', count: 1, next: null, previous: null, results: [summary()] })
        const results = Array.from({ length: 20 }, (_, index) => ({ ...summary(), id: 200 + index, name: `Arquivado ${21 + index}`, archived: true, archived_at: '2026-11-20T12:00:00Z' }))
        return HttpResponse.json({ today: TODAY, time_zone: 'America/Sao_Paulo', count: 45, next: 'http://provider.test/habits/?archived=true&page=3', previous: 'http://provider.test/habits/?archived=true', results })
      }),
    )
    await renderRoutes('/habitos?arquivados=1&page=2', [{ path: '/habitos', children: [{ index: true, Component: HabitsPage, loader: listLoader, action: listAction }] }])
    expect(await screen.findByRole('link', { name: 'Arquivado 21' })).toHaveAttribute('href', '/habitos/200')
    expect(screen.getAllByRole('button', { name: /^Restaurar/ })).toHaveLength(20)
    const pages = screen.getByRole('navigation', { name: 'Páginas' })
    expect(within(pages).getByText('Página 2 de 3')).toBeInTheDocument()
    expect(within(pages).getByRole('link', { name: 'Anterior' })).toHaveAttribute('href', '/habitos?arquivados=1')
    expect(within(pages).getByRole('link', { name: 'Próxima' })).toHaveAttribute('href', '/habitos?arquivados=1&page=3')
  })

  test('the habit page: figures, the heat map with its words, twelve weeks as a chart and a list, the delete link', async () => {
    providerMock.use(
      http.get(providerUrl('/habits/12/'), () =>
        HttpResponse.json({
          ...summary('done'),
          best_streak: { length: 4, unit: 'day' },
          weeks: Array.from({ length: 12 }, (_, index) => ({ week_start: addDays('2026-11-23', (index - 11) * 7), due: index === 0 ? 0 : 7, done: index === 0 ? 0 : 5, rate: index === 0 ? null : 0.714 })),
          heat_map: Array.from({ length: 182 }, (_, index) => ({ date: addDays(TODAY, index - 181), level: index === 181 ? 4 : 0, status: index === 181 ? 'done' : 'not_due' })),
          entries: [{ date: TODAY, status: 'done', amount: null }],
        }),
      ),
    )
    await renderRoutes('/habitos/12', [{ path: '/habitos/:id', Component: HabitPage, loader: habitLoader }])
    expect(await screen.findByRole('heading', { level: 1, name: 'Beber água' })).toBeInTheDocument()
    expect(screen.getByText('4 dias')).toBeInTheDocument()
    const map = screen.getByRole('img', { name: /^Mapa de calor de/ })
    expect(map.querySelectorAll('rect')).toHaveLength(182)
    expect(map.querySelector('rect[data-date="2026-11-25"] title')?.textContent).toBe('25 de novembro de 2026: feito')
    const chart = screen.getByRole('img', { name: 'Conclusão nas últimas 12 semanas Média de 71% dos dias previstos cumpridos; esta semana, 71%.' })
    // Eleven bars, and a dashed mark for the week with nothing due.
    expect(chart.querySelectorAll('rect')).toHaveLength(12)
    expect(chart.querySelectorAll('rect[stroke-dasharray]')).toHaveLength(1)
    const weeks = within(screen.getByTestId('weekly-rates')).getAllByRole('listitem')
    expect(weeks).toHaveLength(12)
    expect(weeks[0]).toHaveTextContent('nada previsto')
    expect(weeks[11]).toHaveTextContent('Esta semana5 de 7 (71%)')
    expect(screen.getByRole('link', { name: 'Excluir' })).toHaveAttribute('href', '/habitos/12?excluir=1')
  })

  test('the create page: suggestions are links; the form has every field labelled', async () => {
    providerMock.use(
      http.get(providerUrl('/habits/suggestions/'), () =>
        HttpResponse.json({
          focus_pillars: ['sono'],
          results: [{ key: 'bedtime', pillar: 'sono', name: { pt: 'Deitar no mesmo horário', en: 'Same bedtime', es: 'Acostarse a la misma hora' }, frequency: 'weekly', weekdays: [], times_per_week: 5, target: null, unit: null, goal: { id: 3, text: { pt: 'Dormir 7 horas', en: 'Sleep 7 hours', es: 'Dormir 7 horas' } } }],
        }),
      ),
    )
    await renderRoutes('/habitos/novo', [{ path: '/habitos/novo', Component: NewHabitPage, loader: newLoader }])
    const link = await screen.findByRole('link', { name: 'Deitar no mesmo horário' })
    expect(link.getAttribute('href')).toBe('/habitos/novo?name=Deitar+no+mesmo+hor%C3%A1rio&pillar=sono&frequency=weekly&times_per_week=5')
    expect(screen.getByText('Ajuda na meta desta semana: Dormir 7 horas')).toBeInTheDocument()
    expect(screen.getByText(/5 vezes por semana/)).toBeInTheDocument()
    for (const label of ['Nome', 'Pilar', 'Quantidade por dia', 'Unidade', 'Lembrete (opcional)', 'Vezes por semana (1 a 7)']) expect(screen.getByLabelText(label)).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: 'Todos os dias' })).toBeChecked()
    expect(screen.getByRole('group', { name: 'Dias da semana' })).toBeInTheDocument()
    expect(screen.getByRole('checkbox', { name: 'segunda-feira' })).toBeInTheDocument()
  })
})
