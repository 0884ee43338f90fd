import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { GOAL_LIBRARY } from '#server/questionnaire/goal-library.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>
const tokens = { paula: '', pedro: '', mariana: '' }
// 01:30 in UTC is still the 17th in São Paulo (UTC-3).
const START = Date.UTC(2025, 2, 18, 1, 30, 0)
const DAY = 86400

let questions: { code: string; reverse: boolean; pillar: string }[] = []

beforeAll(async () => {
  database = await createMemoryDatabase()
  // Long-lived tokens: the tests move the clock by weeks.
  api = client(testApp(database.db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(365 * DAY) } }))
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.mariana = (await api.login('paciente2@innera.local')).access
  const definition = (await api.get('/questionnaire/')).json
  questions = definition.pillars.flatMap((pillar: { slug: string; questions: { code: string; reverse: boolean }[] }) =>
    pillar.questions.map((question) => ({ ...question, pillar: pillar.slug })),
  )
})
afterAll(() => database.close())
// These tests change no users, so emptying the questionnaire and program tables is reset enough.
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "questionnaire_results", "programs" RESTART IDENTITY CASCADE`)
  time.set(START)
})

async function submit(token: string, itemScores: Record<string, number>) {
  const answers = Object.fromEntries(questions.map((question) => [question.code, question.reverse ? 4 - itemScores[question.pillar]! : itemScores[question.pillar]!]))
  const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token })
  expect(response.status).toBe(201)
  return response.json as { id: number; focus_pillars: string[] }
}

// Scores: estresse 25, exercicio 50, alimento 75, sono 0, relacionamentos 100, substancias 100.
const THREE_FOCUS = { estresse: 1, exercicio: 2, alimento: 3, sono: 0, relacionamentos: 4, substancias: 4 }
// Scores: sono 50, everything else 75 or more.
const ONE_FOCUS = { estresse: 3, exercicio: 3, alimento: 4, sono: 2, relacionamentos: 4, substancias: 3 }

type Goal = { id: number; pillar: string; level: number; focus: boolean; done: boolean; text: { pt: string; en: string; es: string } }
type Week = { week: number; starts_on: string; ends_on: string; goals: Goal[] }

describe('POST /program/', () => {
  it('builds from the latest result: focus pillars first, 12 weeks for three of them, starting today in São Paulo', async () => {
    const result = await submit(tokens.pedro, THREE_FOCUS)
    const response = await api.post('/program/', {}, { token: tokens.pedro })
    expect(response.status).toBe(201)
    const program = response.json
    expect(program).toMatchObject({
      id: 1,
      created_at: '2025-03-18T01:30:00.000Z',
      source: 'questionnaire',
      questionnaire: result.id,
      starts_on: '2025-03-17',
      ends_on: '2025-06-08',
      weeks: 12,
      current_week: 1,
      finished: false,
      focus_pillars: ['sono', 'estresse', 'exercicio'],
      pillars_order: ['sono', 'estresse', 'exercicio', 'alimento', 'relacionamentos', 'substancias'],
    })
    expect(program.schedule).toHaveLength(12)
    const [week1, week2, week3] = program.schedule as Week[]
    expect(week1).toMatchObject({ week: 1, starts_on: '2025-03-17', ends_on: '2025-03-23' })
    expect(week2!.starts_on).toBe('2025-03-24')
    expect(week1!.goals).toEqual([
      { id: expect.any(Number), week: 1, pillar: 'sono', level: 1, focus: true, text: GOAL_LIBRARY.sono![0], done: false, done_at: null },
      { id: expect.any(Number), week: 1, pillar: 'alimento', level: 1, focus: false, text: GOAL_LIBRARY.alimento![0], done: false, done_at: null },
    ])
    expect(week1!.goals[0]!.text.en).toBe('Keep a fixed wake-up time on at least 5 of 7 days, weekend included.')
    expect(week3!.goals.map((goal) => `${goal.pillar}${goal.level}`)).toEqual(['sono2', 'estresse1', 'substancias1'])
    const last = (program.schedule as Week[]).at(-1)!
    expect(last.goals.filter((goal) => goal.focus).map((goal) => goal.level)).toEqual([8, 8, 8])
    expect(program.progress).toEqual({ done: 0, total: (program.schedule as Week[]).reduce((sum, week) => sum + week.goals.length, 0) })
  })

  it('takes 8 weeks for one focus pillar, or the length the patient chooses', async () => {
    await submit(tokens.pedro, ONE_FOCUS)
    const eight = await api.post('/program/', {}, { token: tokens.pedro })
    expect(eight.json).toMatchObject({ weeks: 8, focus_pillars: ['sono'] })
    const eleven = await api.post('/program/', { weeks: 11 }, { token: tokens.pedro })
    expect(eleven.json).toMatchObject({ weeks: 11, focus_pillars: ['sono'], ends_on: '2025-06-01' })
    expect((eleven.json.schedule as Week[]).at(-1)!.goals[0]).toMatchObject({ pillar: 'sono', level: 8 })
    expect((await api.post('/program/', { weeks: '9' }, { token: tokens.pedro })).json.weeks).toBe(9)
    expect((await api.post('/program/', { weeks: null }, { token: tokens.pedro })).json.weeks).toBe(8)
  })

  it('builds from the pillars the patient chooses, even without an assessment', async () => {
    const response = await api.post('/program/', { focus_pillars: ['relacionamentos', 'sono', 'sono'] }, { token: tokens.mariana })
    expect(response.status).toBe(201)
    expect(response.json).toMatchObject({
      source: 'selection',
      questionnaire: null,
      weeks: 10,
      focus_pillars: ['relacionamentos', 'sono'],
      pillars_order: ['relacionamentos', 'sono', 'estresse', 'exercicio', 'alimento', 'substancias'],
    })
  })

  it('orders the other pillars by the latest scores when the patient chooses the focus', async () => {
    const result = await submit(tokens.pedro, THREE_FOCUS)
    const response = await api.post('/program/', { focus_pillars: ['substancias'] }, { token: tokens.pedro })
    expect(response.json).toMatchObject({
      source: 'selection',
      questionnaire: result.id,
      weeks: 8,
      pillars_order: ['substancias', 'sono', 'estresse', 'exercicio', 'alimento', 'relacionamentos'],
    })
  })

  it('is 409 with neither a result nor chosen pillars', async () => {
    const response = await api.post('/program/', {}, { token: tokens.pedro })
    expect(response.status).toBe(409)
    expect(response.json).toEqual({
      detail: 'There is no questionnaire result to build the program from. Submit the questionnaire or choose the focus pillars.',
    })
  })

  it('validates weeks and focus pillars', async () => {
    await submit(tokens.pedro, ONE_FOCUS)
    const post = (body: unknown) => api.post('/program/', body, { token: tokens.pedro })
    expect((await post({ weeks: 7 })).json).toEqual({ weeks: ['Ensure this value is greater than or equal to 8.'] })
    expect((await post({ weeks: 13 })).json).toEqual({ weeks: ['Ensure this value is less than or equal to 12.'] })
    expect((await post({ weeks: 'ten' })).json).toEqual({ weeks: ['A valid integer is required.'] })
    expect((await post({ focus_pillars: [] })).json).toEqual({ focus_pillars: ['This selection may not be empty.'] })
    expect((await post({ focus_pillars: 'sono' })).json).toEqual({ focus_pillars: ['Expected a list of items but got type "str".'] })
    expect((await post({ focus_pillars: Array.from({ length: 100_000 }, () => 'sono') })).json).toEqual({
      focus_pillars: ['Ensure this field has no more than 20 elements.'],
    })
    expect((await post({ focus_pillars: ['sono', 'yoga', 3], weeks: 20 })).json).toEqual({
      weeks: ['Ensure this value is less than or equal to 12.'],
      focus_pillars: ['"yoga" is not a valid choice.', '"3" is not a valid choice.'],
    })
    expect((await api.get('/program/', { token: tokens.pedro })).status).toBe(404)
  })

  it('is for patients only', async () => {
    expect((await api.post('/program/', {})).status).toBe(401)
    expect((await api.post('/program/', { focus_pillars: ['sono'] }, { token: tokens.paula })).status).toBe(403)
    expect((await api.get('/program/', { token: tokens.paula })).status).toBe(403)
  })
})

describe('GET /program/', () => {
  it('answers the newest program, with the current week in São Paulo', async () => {
    expect((await api.get('/program/', { token: tokens.pedro })).status).toBe(404)
    await api.post('/program/', { focus_pillars: ['sono'] }, { token: tokens.pedro })
    time.advance(60)
    const newest = (await api.post('/program/', { focus_pillars: ['alimento'], weeks: 9 }, { token: tokens.pedro })).json
    expect((await api.get('/program/', { token: tokens.pedro })).json).toEqual(newest)
    expect((await api.get('/program/', { token: tokens.mariana })).status).toBe(404)

    // starts_on is 2025-03-17 (São Paulo); 7 days later is week 2.
    time.set(Date.UTC(2025, 2, 24, 12))
    expect((await api.get('/program/', { token: tokens.pedro })).json).toMatchObject({ current_week: 2, finished: false })
    time.set(Date.UTC(2025, 4, 19, 12))
    expect((await api.get('/program/', { token: tokens.pedro })).json).toMatchObject({ current_week: 9, finished: true })
  })
})

describe('POST /program/goals/{id}/', () => {
  it('ticks a goal done and back, counting progress', async () => {
    const program = (await api.post('/program/', { focus_pillars: ['sono'] }, { token: tokens.pedro })).json
    const goal = (program.schedule as Week[])[0]!.goals[0]!
    time.advance(3600)
    const done = await api.post(`/program/goals/${goal.id}/`, { done: true }, { token: tokens.pedro })
    expect(done.status).toBe(200)
    expect(done.json).toEqual({ ...goal, done: true, done_at: '2025-03-18T02:30:00.000Z' })
    // Ticking again keeps the first time.
    time.advance(3600)
    expect((await api.post(`/program/goals/${goal.id}/`, { done: 'true' }, { token: tokens.pedro })).json.done_at).toBe('2025-03-18T02:30:00.000Z')
    expect((await api.get('/program/', { token: tokens.pedro })).json.progress).toEqual({ done: 1, total: program.progress.total })

    const undone = await api.post(`/program/goals/${goal.id}/`, { done: false }, { token: tokens.pedro })
    expect(undone.json).toMatchObject({ done: false, done_at: null })
    expect((await api.get('/program/', { token: tokens.pedro })).json.progress.done).toBe(0)
  })

  it('is 404 for another patient’s goal or an unknown one, and validates done', async () => {
    const program = (await api.post('/program/', { focus_pillars: ['sono'] }, { token: tokens.pedro })).json
    const goalId = (program.schedule as Week[])[0]!.goals[0]!.id
    expect((await api.post(`/program/goals/${goalId}/`, { done: true }, { token: tokens.mariana })).status).toBe(404)
    expect((await api.post('/program/goals/99999/', { done: true }, { token: tokens.pedro })).status).toBe(404)
    // Past PostgreSQL's integer range: refused before the query, which would fail.
    expect(await api.post('/program/goals/2147483648/', { done: true }, { token: tokens.pedro })).toMatchObject({ status: 400, json: { detail: 'Invalid id. Ids are integers from 1 to 2147483647.' } })
    expect((await api.post(`/program/goals/${goalId}/`, {}, { token: tokens.pedro })).json).toEqual({ done: ['This field is required.'] })
    expect((await api.post(`/program/goals/${goalId}/`, { done: 'maybe' }, { token: tokens.pedro })).json).toEqual({ done: ['Must be a valid boolean.'] })
    expect((await api.post(`/program/goals/${goalId}/`, { done: true })).status).toBe(401)
    expect((await api.post(`/program/goals/${goalId}/`, { done: true }, { token: tokens.paula })).status).toBe(403)
  })
})
