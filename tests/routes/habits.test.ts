import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { addDays } from '#app/domain/calendar-dates.ts'
import { action as listAction, loader as listLoader } from '#app/routes/habitos._index.tsx'
import { action as newAction, loader as newLoader } from '#app/routes/habitos.novo.tsx'
import { action as habitAction, loader as habitLoader } from '#app/routes/habitos.$id.tsx'
import { action as editAction, loader as editLoader } from '#app/routes/habitos.$id_.editar.tsx'
import { action as dashboardAction, loader as dashboardLoader } from '#app/routes/dashboard/route.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoProfessional, signedIn } from '#tests/mocks/session.ts'

const TODAY = '2026-11-25'

function habit(overrides: Record<string, unknown> = {}) {
  const week = Array.from({ length: 7 }, (_, index) => ({ date: addDays(TODAY, index - 6), due: true, trackable: true, status: null, amount: null }))
  return {
    id: 12,
    name: 'Beber água',
    pillar: 'alimento',
    frequency: 'daily',
    weekdays: [],
    times_per_week: null,
    target: 8,
    unit: 'copos',
    reminder_time: null,
    created_on: '2026-11-01',
    archived: false,
    archived_at: null,
    today: week[6],
    week,
    current_streak: { length: 3, unit: 'day' },
    strength: 42,
    ...overrides,
  }
}

/** The provider's page of habits (decision 0032): `count` all of them, `results` this page's. */
const habitPage = (results: unknown[], { count = results.length, next = null, previous = null }: { count?: number; next?: string | null; previous?: string | null } = {}) =>
  HttpResponse.json({ today: TODAY, time_zone: 'America/Sao_Paulo', count, next, previous, results })

const detail = () => ({
  ...habit(),
  best_streak: { length: 5, unit: 'day' },
  weeks: Array.from({ length: 12 }, (_, index) => ({ week_start: addDays('2026-11-23', (index - 11) * 7), due: 7, done: index % 8, rate: Math.round(((index % 8) / 7) * 1000) / 1000 })),
  heat_map: Array.from({ length: 182 }, (_, index) => ({ date: addDays(TODAY, index - 181), level: index % 5, status: index % 5 === 4 ? 'done' : 'none' })),
  entries: [],
})

const listRequest = async (search = '') => getRequest(`http://app.test/habitos${search}`, await signedIn())
const post = async (url: string, fields: Record<string, string>) => formRequest(url, fields, { Cookie: await signedIn(), Origin: 'http://app.test' })

describe('my habits', () => {
  test("lists today's habits under their pillars, with the week's days, streak and strength", async () => {
    providerMock.use(
      http.get(providerUrl('/habits/'), ({ request }) => {
        const archived = new URL(request.url).searchParams.get('archived') === 'true'
        return habitPage(archived ? [habit({ id: 30, name: 'Ler', archived: true, archived_at: '2026-11-20T12:00:00Z' })] : [habit(), habit({ id: 13, name: 'Caminhada', pillar: 'exercicio', target: null, unit: '' })])
      }),
      http.get(providerUrl('/habits/stats/'), () =>
        HttpResponse.json({ today: TODAY, habits: [], pillars: [{ pillar: 'exercicio', rate: null, days: 28 }, { pillar: 'alimento', rate: 0.7142, days: 28 }] }),
      ),
    )
    const result = await run(listLoader, await listRequest())
    const data = result.data as { groups: { name: string; rate: unknown; habits: { name: string; days: { date: string; relative: string | null; label: string }[]; streak: unknown; strength: number }[] }[]; archived: unknown }
    // Pillars in the product's order (docs/product.md §1): physical activity before nutrition; each with its completion rate.
    expect(data.groups.map((group) => [group.name, group.rate])).toEqual([
      ['Atividade física', { percent: null, days: 28 }],
      ['Alimentação', { percent: 71, days: 28 }],
    ])
    const water = data.groups[1]!.habits[0]!
    expect(water.days).toHaveLength(7)
    expect(water.days[0]).toMatchObject({ date: TODAY, relative: 'today' })
    expect(water.days[1]).toMatchObject({ date: addDays(TODAY, -1), relative: 'yesterday' })
    expect(water.days[0]!.label).toMatch(/qua.*25/)
    expect(water).toMatchObject({ streak: { length: 3, unit: 'day' }, strength: 42 })
    expect(data.archived).toBeNull()

    const withArchived = await run(listLoader, await listRequest('?arquivados=1'))
    expect((withArchived.data as { archived: { habits: { name: string }[] } }).archived.habits.map((item) => item.name)).toEqual(['Ler'])
  })

  test('a professional gets 403', async () => {
    const result = await run(listLoader, getRequest('http://app.test/habitos', await signedIn(demoProfessional)))
    expect(result.status).toBe(403)
  })
})

describe('my archived habits, by pages', () => {
  type Archived = { archived: { habits: { name: string }[]; count: number; page: number; pageSize: number } }
  /** The provider as 45 archived habits by pages of 20 (page 3 the last); what the app asked for each time. */
  function fortyFive() {
    const asked: Record<string, string>[] = []
    providerMock.use(
      http.get(providerUrl('/habits/stats/'), () => HttpResponse.json({ today: TODAY, habits: [], pillars: [] })),
      http.get(providerUrl('/habits/'), ({ request }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams)
        if (query.archived !== 'true') return habitPage([habit()])
        asked.push(query)
        const page = query.page === 'last' ? 3 : Number(query.page ?? 1)
        if (!(page >= 1 && page <= 3)) return HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
        const results = Array.from({ length: page === 3 ? 5 : 20 }, (_, index) => habit({ id: 100 + (page - 1) * 20 + index, name: `Arquivado ${(page - 1) * 20 + index + 1}`, archived: true, archived_at: '2026-11-20T12:00:00Z' }))
        return habitPage(results, { count: 45, next: page < 3 ? `http://provider.test/habits/?archived=true&page=${page + 1}` : null, previous: page > 1 ? 'http://provider.test/habits/?archived=true' : null })
      }),
    )
    return asked
  }

  test('asks the provider for one page of 20, the one in ?page=', async () => {
    const asked = fortyFive()
    const first = (await run(listLoader, await listRequest('?arquivados=1'))).data as Archived
    expect(first.archived).toMatchObject({ count: 45, page: 1, pageSize: 20 })
    expect(first.archived.habits).toHaveLength(20)
    const second = (await run(listLoader, await listRequest('?arquivados=1&page=2'))).data as Archived
    expect(second.archived).toMatchObject({ count: 45, page: 2 })
    expect(second.archived.habits[0]!.name).toBe('Arquivado 21')
    expect(asked).toEqual([
      { archived: 'true', page_size: '20' },
      { archived: 'true', page: '2', page_size: '20' },
    ])
  })

  test('a junk page number is the first page; one past the end shows the last page, never an error page', async () => {
    const asked = fortyFive()
    for (const junk of ['abc', '0', '-1', '2.5', '99999999999', '%00']) {
      const result = await run(listLoader, await listRequest(`?arquivados=1&page=${junk}`))
      expect(result.status, junk).toBe(200)
      expect((result.data as Archived).archived.page, junk).toBe(1)
    }
    expect(asked.every((query) => query.page === undefined)).toBe(true)
    asked.length = 0
    const past = await run(listLoader, await listRequest('?arquivados=1&page=9'))
    expect(past.status).toBe(200)
    expect((past.data as Archived).archived).toMatchObject({ count: 45, page: 3 })
    expect((past.data as Archived).archived.habits.map((item) => item.name)).toContain('Arquivado 45')
    expect(asked.map((query) => query.page)).toEqual(['9', 'last'])
  })

  test('restoring from a page comes back to that page', async () => {
    providerMock.use(http.patch(providerUrl('/habits/30/'), () => HttpResponse.json({ ...detail(), id: 30 })))
    const result = await run(listAction, await post('http://app.test/habitos?index&arquivados=1&page=2', { intent: 'restore', habit: '30' }))
    expect(result.location).toBe('/habitos?arquivados=1&page=2')
    const junk = await run(listAction, await post('http://app.test/habitos?index&arquivados=1&page=x', { intent: 'restore', habit: '30' }))
    expect(junk.location).toBe('/habitos?arquivados=1')
  })
})

describe('tracking a day', () => {
  test('without JavaScript: the answer is sent and the page comes back to the habit with a toast', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/habits/12/track/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(habit())
      }),
    )
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'done', amount: '8' }))
    expect(body).toEqual({ date: TODAY, status: 'done', amount: 8 })
    expect(result.status).toBe(303)
    expect(result.location).toBe('/habitos#habito-12')
    expect(result.headers.get('Set-Cookie')).toContain('innera_toast=')
  })

  test("on the habit's own page the post goes to that page: saved, it comes back there; refused, that page shows why", async () => {
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.json(habit())))
    const saved = await run(habitAction, await post('http://app.test/habitos/12', { intent: 'track', habit: '12', date: TODAY, status: 'skipped' }), { id: '12' })
    expect(saved.status).toBe(303)
    expect(saved.location).toBe('/habitos/12')
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.error()))
    const refused = await run(habitAction, await post('http://app.test/habitos/12', { intent: 'track', habit: '12', date: TODAY, status: 'amount', amount: '5', target: '8' }), { id: '12' })
    expect(refused.status).toBe(400)
    expect(refused.data).toEqual({ track: { habit: 12, date: TODAY, amount: '5', error: 'Erro de conexão. Verifique sua internet e configurações.' } })
  })

  test('with JavaScript (the fetcher): data, no redirect; an amount reaching the target counts as done', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/habits/12/track/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(habit())
      }),
    )
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'amount', amount: '8,5', target: '8', via: 'fetcher' }))
    expect(body).toEqual({ date: TODAY, status: 'done', amount: 8.5 })
    expect(result.status).toBe(200)
    expect(result.data).toEqual({ tracked: { habit: 12, date: TODAY } })
  })

  test("the provider's 400 comes back as a message beside the day, with the amount typed", async () => {
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.json({ date: ['Only the last 7 days can be tracked.'] }, { status: 400 })))
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'done', amount: '6' }))
    expect(result.status).toBe(400)
    expect(result.data).toEqual({ track: { habit: 12, date: TODAY, amount: '6', error: 'Só é possível registrar hoje e os seis dias anteriores, a partir do início do hábito.' } })
  })

  test('an archived habit is refused in words', async () => {
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.json({ detail: 'An archived habit cannot be tracked.', code: 'habit_archived' }, { status: 400 })))
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'done' }))
    expect((result.data as { track: { error: string } }).track.error).toBe('Este hábito está arquivado. Restaure-o para registrar.')
  })

  test('the provider down: the network message, and what was typed kept', async () => {
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.error()))
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'amount', amount: '3', target: '8' }))
    expect(result.status).toBe(400)
    expect(result.data).toEqual({ track: { habit: 12, date: TODAY, amount: '3', error: 'Erro de conexão. Verifique sua internet e configurações.' } })
  })

  test('a bad amount is refused before the provider is asked', async () => {
    const result = await run(listAction, await post('http://app.test/habitos?index', { intent: 'track', habit: '12', date: TODAY, status: 'done', amount: 'muito' }))
    expect(result.status).toBe(400)
    expect(result.data).toMatchObject({ track: { amount: 'muito', error: 'Informe uma quantidade válida (um número a partir de zero)' } })
  })

  test('an archived habit is restored from the list', async () => {
    let body: unknown
    providerMock.use(
      http.patch(providerUrl('/habits/30/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ ...detail(), id: 30 })
      }),
    )
    const result = await run(listAction, await post('http://app.test/habitos?index&arquivados=1', { intent: 'restore', habit: '30' }))
    expect(body).toEqual({ archived: false })
    expect(result.location).toBe('/habitos?arquivados=1')
  })
})

describe('the create form', () => {
  const valid = { name: 'Caminhada', pillar: 'exercicio', frequency: 'weekdays', weekdays: 'monday', target: '30', unit: 'minutos', reminder_time: '07:30' }

  test('suggestions come as links that prefill the form', async () => {
    providerMock.use(
      http.get(providerUrl('/habits/suggestions/'), () =>
        HttpResponse.json({
          focus_pillars: ['alimento'],
          results: [{ key: 'water', pillar: 'alimento', name: { pt: 'Beber água', en: 'Drink water', es: 'Beber agua' }, frequency: 'daily', weekdays: [], times_per_week: null, target: 8, unit: { pt: 'copos', en: 'glasses', es: 'vasos' }, goal: null }],
        }),
      ),
    )
    const result = await run(newLoader, getRequest('http://app.test/habitos/novo', await signedIn()))
    const suggestion = (result.data as { suggestions: { href: string }[] }).suggestions[0]!
    expect(suggestion.href).toBe('/habitos/novo?name=Beber+%C3%A1gua&pillar=alimento&frequency=daily&target=8&unit=copos')
    const prefilled = await run(newLoader, getRequest(`http://app.test${suggestion.href}`, await signedIn()))
    expect((prefilled.data as { defaultValue: unknown }).defaultValue).toMatchObject({ name: 'Beber água', pillar: 'alimento', frequency: 'daily', target: '8', unit: 'copos' })
  })

  test('creates the habit with what the provider expects', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/habits/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(habit({ id: 40, name: 'Caminhada' }), { status: 201 })
      }),
    )
    const result = await run(newAction, await post('http://app.test/habitos/novo', valid))
    expect(body).toEqual({ name: 'Caminhada', pillar: 'exercicio', frequency: 'weekdays', weekdays: ['monday'], target: 30, unit: 'minutos', reminder_time: '07:30' })
    expect(result.location).toBe('/habitos#habito-40')
  })

  test('validation: every problem at once, nothing typed lost, the provider not asked', async () => {
    const result = await run(newAction, await post('http://app.test/habitos/novo', { name: '', pillar: 'exercicio', frequency: 'weekdays', target: '-2', unit: 'min' }))
    expect(result.status).toBe(400)
    const reply = (result.data as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }).result
    expect(reply.error).toMatchObject({ name: ['errors.required'], weekdays: ['habits:validation.weekdays'], target: ['habits:validation.target'] })
    expect(reply.initialValue).toMatchObject({ pillar: 'exercicio', frequency: 'weekdays', target: '-2', unit: 'min' })
  })

  test("the provider's field errors land on their fields, translated; the limit has its own message", async () => {
    providerMock.use(http.post(providerUrl('/habits/'), () => HttpResponse.json({ pillar: ['"x" is not a valid choice.'], reminder_time: ['Time has wrong format. Use HH:MM.'] }, { status: 400 })))
    const result = await run(newAction, await post('http://app.test/habitos/novo', valid))
    expect(result.status).toBe(400)
    const reply = (result.data as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }).result
    expect(reply.error).toMatchObject({ pillar: ['habits:validation.pillar'], reminder_time: ['habits:validation.reminderTime'] })
    expect(reply.initialValue).toMatchObject({ name: 'Caminhada', target: '30' })

    providerMock.use(http.post(providerUrl('/habits/'), () => HttpResponse.json({ detail: 'You can keep at most 30 active habits.', code: 'too_many_habits' }, { status: 400 })))
    const limited = await run(newAction, await post('http://app.test/habitos/novo', valid))
    expect((limited.data as { result: { error: Record<string, string[]> } }).result.error['']).toEqual(['Você já tem 30 hábitos ativos. Arquive um antes de criar ou restaurar outro.'])

    providerMock.use(http.post(providerUrl('/habits/'), () => HttpResponse.json({ detail: 'You can keep at most 200 habits, archived ones included.', code: 'too_many_habits_total' }, { status: 400 })))
    const full = await run(newAction, await post('http://app.test/habitos/novo', valid))
    expect(full.status).toBe(400)
    const fullReply = (full.data as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }).result
    expect(fullReply.error['']).toEqual(['Você já tem 200 hábitos, contando os arquivados. Exclua um hábito arquivado antes de criar outro.'])
    expect(fullReply.initialValue).toMatchObject({ name: 'Caminhada', target: '30' })
  })

  test('the provider down keeps the form as typed', async () => {
    providerMock.use(http.post(providerUrl('/habits/'), () => HttpResponse.error()))
    const result = await run(newAction, await post('http://app.test/habitos/novo', valid))
    const reply = (result.data as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }).result
    expect(reply.error['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.'])
    expect(reply.initialValue).toMatchObject({ name: 'Caminhada', weekdays: 'monday', reminder_time: '07:30' })
  })
})

describe('the habit page', () => {
  test('shows the figures, the heat map laid out in weeks and the twelve weeks', async () => {
    providerMock.use(http.get(providerUrl('/habits/12/'), () => HttpResponse.json(detail())))
    const result = await run(habitLoader, getRequest('http://app.test/habitos/12', await signedIn()), { id: '12' })
    const view = (result.data as { habit: { bestStreak: unknown; heatMap: { cells: unknown[]; columns: number; tally: unknown }; weeks: unknown[] } }).habit
    expect(view.bestStreak).toEqual({ length: 5, unit: 'day' })
    expect(view.heatMap.cells).toHaveLength(182)
    expect(view.heatMap.columns).toBe(27)
    expect(view.weeks).toHaveLength(12)
  })

  test("someone else's habit is a 404; deleting asks the provider and goes back to the list", async () => {
    providerMock.use(http.get(providerUrl('/habits/99/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    const missing = await run(habitLoader, getRequest('http://app.test/habitos/99', await signedIn()), { id: '99' })
    expect(missing.status).toBe(404)

    let deleted = false
    providerMock.use(
      http.delete(providerUrl('/habits/12/'), () => {
        deleted = true
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const result = await run(habitAction, await post('http://app.test/habitos/12?excluir=1', { intent: 'delete' }), { id: '12' })
    expect(deleted).toBe(true)
    expect(result.location).toBe('/habitos')
  })

  test('the edit form starts from the saved habit and sends every field', async () => {
    let body: unknown
    providerMock.use(
      http.get(providerUrl('/habits/12/'), () => HttpResponse.json(detail())),
      http.patch(providerUrl('/habits/12/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(detail())
      }),
    )
    const page = await run(editLoader, getRequest('http://app.test/habitos/12/editar', await signedIn()), { id: '12' })
    expect((page.data as { defaultValue: unknown }).defaultValue).toEqual({ name: 'Beber água', pillar: 'alimento', frequency: 'daily', weekdays: [], times_per_week: '3', target: '8', unit: 'copos', reminder_time: '' })
    const result = await run(editAction, await post('http://app.test/habitos/12/editar', { name: 'Beber água', pillar: 'alimento', frequency: 'weekly', times_per_week: '5', target: '', unit: '' }), { id: '12' })
    expect(body).toEqual({ name: 'Beber água', pillar: 'alimento', frequency: 'weekly', times_per_week: 5, target: null, unit: '', reminder_time: null })
    expect(result.location).toBe('/habitos/12')
  })

  test('archive from the page; the limit of active habits is said when restoring', async () => {
    let body: unknown
    providerMock.use(
      http.patch(providerUrl('/habits/12/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json({ ...detail(), archived: true, archived_at: '2026-11-25T12:00:00Z' })
      }),
    )
    const archived = await run(habitAction, await post('http://app.test/habitos/12', { intent: 'archive' }), { id: '12' })
    expect(body).toEqual({ archived: true })
    expect(archived.location).toBe('/habitos/12')

    providerMock.use(http.patch(providerUrl('/habits/12/'), () => HttpResponse.json({ detail: 'You can keep at most 30 active habits.', code: 'too_many_habits' }, { status: 400 })))
    const refused = await run(habitAction, await post('http://app.test/habitos/12', { intent: 'restore' }), { id: '12' })
    expect(refused.status).toBe(400)
    expect(refused.data).toEqual({ error: 'Você já tem 30 hábitos ativos. Arquive um antes de criar ou restaurar outro.', habit: 12 })
  })
})

describe("the dashboard's habits of today", () => {
  const dashboard = async () => getRequest('http://app.test/dashboard', await signedIn())

  test('lists the habits due today or answered today, each with its form; the others stay on /habitos', async () => {
    // A habit whose today is not due, and one not due but answered anyway.
    const withToday = (overrides: Record<string, unknown>, today: { due: boolean; status: string | null }) => {
      const base = habit(overrides)
      const day = { ...base.today, ...today }
      return { ...base, today: day, week: [...base.week.slice(0, 6), day] }
    }
    const notDue = withToday({ id: 14, name: 'Treino de força' }, { due: false, status: null })
    const answered = withToday({ id: 15, name: 'Leitura', target: null, unit: '' }, { due: false, status: 'done' })
    providerMock.use(
      http.get(providerUrl('/program/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
      http.get(providerUrl('/appointments/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
      http.get(providerUrl('/habits/'), () => habitPage([habit(), notDue, answered])),
    )
    const result = await run(dashboardLoader, await dashboard())
    const habits = (result.data as { habits: { total: number; items: { habit: { name: string }; today: { date: string; status: string | null } }[] } }).habits
    expect(habits.total).toBe(3)
    expect(habits.items.map((item) => [item.habit.name, item.today.date, item.today.status])).toEqual([
      ['Beber água', TODAY, null],
      ['Leitura', TODAY, 'done'],
    ])
  })

  test('the habits unreadable: the dashboard still shows, and says so (habits: null)', async () => {
    providerMock.use(
      http.get(providerUrl('/program/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
      http.get(providerUrl('/appointments/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
      http.get(providerUrl('/habits/'), () => HttpResponse.error()),
    )
    const result = await run(dashboardLoader, await dashboard())
    expect(result.status).toBe(200)
    expect((result.data as { habits: unknown }).habits).toBeNull()
  })

  test('without JavaScript a tap comes back to the dashboard; a refusal re-renders it with the amount typed', async () => {
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.json(habit())))
    const saved = await run(dashboardAction, await post('http://app.test/dashboard', { intent: 'track', habit: '12', date: TODAY, status: 'done' }))
    expect(saved.status).toBe(303)
    expect(saved.location).toBe('/dashboard#habitos-hoje')
    providerMock.use(http.post(providerUrl('/habits/12/track/'), () => HttpResponse.json({ detail: 'An archived habit cannot be tracked.', code: 'habit_archived' }, { status: 400 })))
    const refused = await run(dashboardAction, await post('http://app.test/dashboard', { intent: 'track', habit: '12', date: TODAY, status: 'amount', amount: '4', target: '8' }))
    expect(refused.status).toBe(400)
    expect(refused.data).toEqual({ track: { habit: 12, date: TODAY, amount: '4', error: 'Este hábito está arquivado. Restaure-o para registrar.' } })
  })

  test('a professional cannot track from the dashboard', async () => {
    const request = formRequest('http://app.test/dashboard', { intent: 'track', habit: '12', date: TODAY, status: 'done' }, { Cookie: await signedIn(demoProfessional), Origin: 'http://app.test' })
    expect((await run(dashboardAction, request)).status).toBe(403)
  })
})

describe('the habit forms after a failed save, with the provider out of reach', () => {
  test('the new-habit page comes back whole: the pillars from the app’s own names', async () => {
    providerMock.use(
      http.get(providerUrl('/pillars/'), () => HttpResponse.error()),
      http.get(providerUrl('/habits/suggestions/'), () => HttpResponse.error()),
    )
    // The loaders that follow a document POST run in that POST's request.
    const result = await run(newLoader, await post('http://app.test/habitos/novo', { name: 'Beber água' }))
    expect(result.status).toBe(200)
    expect((result.data as { pillars: { slug: string; name: string }[] }).pillars).toEqual([
      { slug: 'estresse', name: 'Gestão do estresse' },
      { slug: 'exercicio', name: 'Atividade física' },
      { slug: 'alimento', name: 'Alimentação' },
      { slug: 'sono', name: 'Sono' },
      { slug: 'relacionamentos', name: 'Relacionamentos' },
      { slug: 'substancias', name: 'Controle de substâncias' },
    ])
  })

  test('the edit page too, titled without the name it cannot read; a plain visit still gets the error page', async () => {
    providerMock.use(
      http.get(providerUrl('/pillars/'), () => HttpResponse.error()),
      http.get(providerUrl('/habits/12/'), () => HttpResponse.error()),
    )
    const resubmitted = await run(editLoader, await post('http://app.test/habitos/12/editar', { name: 'Beber água' }), { id: '12' })
    expect(resubmitted.status).toBe(200)
    expect(resubmitted.data).toMatchObject({ id: 12, name: null, meta: { title: 'Editar hábito · Innera' } })
    const visit = await run(editLoader, getRequest('http://app.test/habitos/12/editar', await signedIn()), { id: '12' })
    expect(visit.status).toBe(503)
  })
})
