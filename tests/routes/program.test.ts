import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/meu-programa.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoProfessional, signedIn } from '#tests/mocks/session.ts'

const text = (pt: string) => ({ pt, en: `${pt} (en)`, es: `${pt} (es)` })
const program = {
  id: 1,
  created_at: '2026-11-22T10:00:00.000Z',
  source: 'questionnaire',
  questionnaire: 7,
  starts_on: '2026-11-16',
  ends_on: '2027-01-10',
  weeks: 8,
  current_week: 2,
  finished: false,
  focus_pillars: ['sono'],
  pillars_order: ['sono', 'estresse', 'exercicio', 'alimento', 'relacionamentos', 'substancias'],
  progress: { done: 1, total: 16 },
  schedule: [1, 2].map((week) => ({
    week,
    starts_on: '2026-11-16',
    ends_on: '2026-11-22',
    goals: [{ id: week * 10, week, pillar: 'sono', level: week, focus: true, text: text(`Meta ${week}`), done: week === 1, done_at: null }],
  })),
}

const habitSummary = {
  frequency: 'daily',
  weekdays: [],
  times_per_week: null,
  target: null,
  unit: '',
  reminder_time: null,
  created_on: '2026-11-01',
  archived: false,
  archived_at: null,
  today: { date: '2026-11-25', due: true, trackable: true, status: null, amount: null },
  week: [],
  current_streak: { length: 0, unit: 'day' },
  strength: 0,
}

describe('my program', () => {
  test("shows this week's goals and the progress; each goal names the habits of its pillar", async () => {
    const habit = (id: number, name: string, pillar: string) => ({ ...habitSummary, id, name, pillar })
    providerMock.use(
      http.get(providerUrl('/program/'), () => HttpResponse.json(program)),
      http.get(providerUrl('/habits/'), () => HttpResponse.json({ today: '2026-11-25', time_zone: 'America/Sao_Paulo', count: 2, next: null, previous: null, results: [habit(3, 'Deitar no mesmo horário', 'sono'), habit(4, 'Caminhada', 'exercicio')] })),
      http.get(providerUrl('/videos/courses/pillars/'), () => HttpResponse.json([{ pillar: 'sono', pillar_id: 4, name: { pt: 'Sono', en: 'Sleep', es: 'Sueño' }, courses_count: 1 }])),
    )
    const result = await run(loader, getRequest('http://app.test/meu-programa', await signedIn()))
    const data = result.data as { program: { currentWeek: number; thisWeek: { text: string; habits: unknown; coursesPillar: string | null }[]; progress: { percent: number }; focus: string[] } }
    expect(data.program.currentWeek).toBe(2)
    expect(data.program.thisWeek.map((goal) => goal.text)).toEqual(['Meta 2'])
    expect(data.program.thisWeek[0]!.habits).toEqual({ pillar: 'sono', list: [{ id: 3, name: 'Deitar no mesmo horário' }] })
    // The goal's pillar has courses (decision 0057): it links to them.
    expect(data.program.thisWeek[0]!.coursesPillar).toBe('sono')
    expect(data.program.progress.percent).toBe(6)
    expect(data.program.focus).toEqual(['Sono'])
  })

  test('the habits unreadable: the program still shows, its goals without habit links', async () => {
    providerMock.use(
      http.get(providerUrl('/program/'), () => HttpResponse.json(program)),
      http.get(providerUrl('/habits/'), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })),
    )
    const result = await run(loader, getRequest('http://app.test/meu-programa', await signedIn()))
    expect((result.data as { program: { thisWeek: { habits: unknown }[] } }).program.thisWeek[0]!.habits).toBeNull()
  })

  test('no program yet: the page offers to build one', async () => {
    providerMock.use(http.get(providerUrl('/program/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    const result = await run(loader, getRequest('http://app.test/meu-programa', await signedIn()))
    expect((result.data as { program: unknown }).program).toBeNull()
  })

  test('builds the program with the chosen length', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/program/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(program, { status: 201 })
      }),
    )
    const result = await run(action, formRequest('http://app.test/meu-programa', { intent: 'create', source: 'questionnaire', weeks: '10' }, { Cookie: await signedIn() }))
    expect(body).toEqual({ weeks: 10 })
    expect(result.location).toBe('/meu-programa')
  })

  test('without an assessment the 409 becomes a clear message', async () => {
    providerMock.use(http.post(providerUrl('/program/'), () => HttpResponse.json({ detail: 'There is no questionnaire result.' }, { status: 409 })))
    const result = await run(action, formRequest('http://app.test/meu-programa', { intent: 'create', source: 'questionnaire', weeks: 'auto' }, { Cookie: await signedIn() }))
    expect(result.status).toBe(400)
    expect(result.data).toEqual({ error: 'Faça a avaliação de saúde ou escolha seus pilares para montar o programa.' })
  })

  test('a goal is ticked', async () => {
    let seen: unknown
    providerMock.use(
      http.post(providerUrl('/program/goals/:id/'), async ({ request, params }) => {
        seen = { id: params.id, body: await request.json() }
        return HttpResponse.json({ ...program.schedule[1]!.goals[0], done: true })
      }),
    )
    const result = await run(action, formRequest('http://app.test/meu-programa', { intent: 'goal', goal: '20', done: 'true' }, { Cookie: await signedIn() }))
    expect(seen).toEqual({ id: '20', body: { done: true } })
    expect(result.location).toBe('/meu-programa')
  })

  test('a bad length is refused; a professional cannot open it', async () => {
    const bad = await run(action, formRequest('http://app.test/meu-programa', { intent: 'create', source: 'questionnaire', weeks: '20' }, { Cookie: await signedIn() }))
    expect(bad.status).toBe(400)
    const professional = await run(loader, getRequest('http://app.test/meu-programa', await signedIn(demoProfessional)))
    expect(professional.status).toBe(403)
  })
})
