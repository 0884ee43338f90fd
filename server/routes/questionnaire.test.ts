import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, fakeClock, PUBLIC_URL, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', rafael: '', pedro: '', mariana: '' }
// Seeded in this order: admin 1, Paula 2, Rafael 3, Pedro 4, Mariana 5.
const ids = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5 }
const START = Date.UTC(2025, 2, 18, 12, 0, 0)

type Question = { code: string; reverse: boolean }
let questions: (Question & { pillar: string })[] = []

beforeAll(async () => {
  database = await createMemoryDatabase()
  // Long-lived tokens: the tests move the clock by days between submissions.
  api = client(testApp(database.db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(365 * 86400) } }))
  for (const [name, email] of [
    ['admin', 'admin@innera.local'],
    ['paula', 'profissional@innera.local'],
    ['rafael', 'nutricionista@innera.local'],
    ['pedro', 'paciente@innera.local'],
    ['mariana', 'paciente2@innera.local'],
  ] as const) {
    tokens[name] = (await api.login(email)).access
  }
  const definition = (await api.get('/questionnaire/')).json
  questions = definition.pillars.flatMap((pillar: { slug: string; questions: Question[] }) =>
    pillar.questions.map((question) => ({ code: question.code, reverse: question.reverse, pillar: pillar.slug })),
  )
})
afterAll(() => database.close())
// These tests change no users, so emptying the questionnaire and program tables is reset enough.
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "questionnaire_results", "programs" RESTART IDENTITY CASCADE`)
  time.set(START)
})

/** Answers giving every item of a pillar the same item score (0-4). */
function answersScoring(itemScores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(questions.map((question) => [question.code, question.reverse ? 4 - itemScores[question.pillar]! : itemScores[question.pillar]!]))
}

const FIRST = { estresse: 1, exercicio: 2, alimento: 3, sono: 0, relacionamentos: 4, substancias: 4 }
const SECOND = { estresse: 2, exercicio: 2, alimento: 4, sono: 3, relacionamentos: 4, substancias: 3 }

async function submit(token: string, itemScores = FIRST) {
  const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers: answersScoring(itemScores) }, { token })
  expect(response.status).toBe(201)
  return response.json as { id: number; submitted_at: string }
}

describe('GET /questionnaire/ (the definition)', () => {
  it('is public: version 2025.1, six pillars in order, 36 questions of five options in three languages', async () => {
    const response = await api.get('/questionnaire/')
    expect(response.status).toBe(200)
    const body = response.json
    expect(body.version).toBe('2025.1')
    expect(body.current).toBe(true)
    expect(body.estimated_minutes).toBe(10)
    expect(body.question_count).toBe(36)
    expect(body.scale).toEqual({ min: 0, max: 4 })
    expect(Object.keys(body.title)).toEqual(['pt', 'en', 'es'])
    expect(body.pillars.map((pillar: { slug: string }) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    for (const pillar of body.pillars) expect(pillar.questions).toHaveLength(6)

    const overwhelmed = body.pillars[0].questions[0]
    expect(overwhelmed).toEqual({
      id: expect.any(Number),
      code: 'estresse_overwhelmed',
      order: 1,
      reverse: true,
      text: {
        pt: 'Com que frequência você se sentiu sobrecarregado(a) pelas suas responsabilidades?',
        en: 'How often have you felt overwhelmed by your responsibilities?',
        es: '¿Con qué frecuencia te has sentido abrumado(a) por tus responsabilidades?',
      },
      options: [
        { value: 0, label: { pt: 'Nunca', en: 'Never', es: 'Nunca' } },
        { value: 1, label: { pt: 'Raramente', en: 'Rarely', es: 'Rara vez' } },
        { value: 2, label: { pt: 'Às vezes', en: 'Sometimes', es: 'A veces' } },
        { value: 3, label: { pt: 'Frequentemente', en: 'Often', es: 'A menudo' } },
        { value: 4, label: { pt: 'Sempre', en: 'Always', es: 'Siempre' } },
      ],
    })
  })

  it('"get" answers the same definition, or a named version; an unknown version is 404', async () => {
    const current = (await api.get('/questionnaire/')).json
    expect((await api.get('/questionnaire/get/')).json).toEqual(current)
    expect((await api.get('/questionnaire/get/?version=2025.1')).json).toEqual(current)
    expect((await api.get('/questionnaire/get/?version=1999.1')).status).toBe(404)
  })

  it('redirects the unslashed path and refuses other methods', async () => {
    const redirect = await api.get('/questionnaire')
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/questionnaire/')
    expect((await api.post('/questionnaire/', {})).status).toBe(405)
  })
})

describe('POST /questionnaire/submit/', () => {
  it('scores each pillar, picks the focus pillars and stores the result', async () => {
    const answers = answersScoring(FIRST)
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    expect(response.status).toBe(201)
    expect(response.json).toEqual({
      id: 1,
      version: '2025.1',
      submitted_at: '2025-03-18T12:00:00.000Z',
      scores: { estresse: 25, exercicio: 50, alimento: 75, sono: 0, relacionamentos: 100, substancias: 100 },
      focus_pillars: ['sono', 'estresse', 'exercicio'],
      answers,
      patient: { id: ids.pedro, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' },
    })
    // Answers come back in question order, whatever order jsonb keeps them in.
    expect(Object.keys(response.json.answers)).toEqual(questions.map((question) => question.code))
    expect(Object.keys(response.json.scores)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect((await api.get('/questionnaire/1/', { token: tokens.pedro })).json).toEqual(response.json)
  })

  it('scores a real mixed answer sheet with reverse items inverted', async () => {
    const answers = Object.fromEntries(questions.map((question) => [question.code, 4]))
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    // Stress: 3 reverse items (0) and 3 straight ones (4) → 12 of 24.
    expect(response.json.scores.estresse).toBe(50)
    // Substances: 5 reverse items and "alcohol-free days: every day" → 4 of 24.
    expect(response.json.scores.substancias).toBe(17)
    expect(response.json.focus_pillars[0]).toBe('substancias')
  })

  it('names every question without an answer', async () => {
    const answers = answersScoring(FIRST)
    delete answers.sono_duration
    delete answers.substancias_impact
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      answers: { sono_duration: ['This question needs an answer.'], substancias_impact: ['This question needs an answer.'] },
    })
  })

  it('refuses out-of-range and non-integer values, and unknown questions', async () => {
    const answers = { ...answersScoring(FIRST), estresse_irritable: 5, sono_wake_rested: -1, alimento_water: 'often', made_up: 2 }
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      answers: {
        estresse_irritable: ['Choose a value between 0 and 4.'],
        alimento_water: ['A valid integer is required.'],
        sono_wake_rested: ['Choose a value between 0 and 4.'],
        made_up: ['This question is not part of the questionnaire.'],
      },
    })
  })

  it('refuses an answers object with more than 200 keys without checking them one by one', async () => {
    const answers = { ...answersScoring(FIRST), ...Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`extra_${index}`, 1])) }
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({ answers: ['Ensure this field has no more than 200 elements.'] })
  })

  it('accepts integer strings, as DRF does', async () => {
    const answers = Object.fromEntries(Object.entries(answersScoring(FIRST)).map(([code, value]) => [code, String(value)]))
    const response = await api.post('/questionnaire/submit/', { version: '2025.1', answers }, { token: tokens.pedro })
    expect(response.status).toBe(201)
    expect(response.json.scores.sono).toBe(0)
  })

  it('refuses another version, and reports missing or malformed fields', async () => {
    const old = await api.post('/questionnaire/submit/', { version: '2024.2', answers: answersScoring(FIRST) }, { token: tokens.pedro })
    expect(old.status).toBe(400)
    expect(old.json).toEqual({ version: ['"2024.2" is not the current questionnaire version ("2025.1").'] })

    expect((await api.post('/questionnaire/submit/', {}, { token: tokens.pedro })).json).toEqual({
      version: ['This field is required.'],
      answers: ['This field is required.'],
    })
    expect((await api.post('/questionnaire/submit/', { version: '2025.1', answers: [1, 2] }, { token: tokens.pedro })).json).toEqual({
      answers: ['Expected a dictionary of items but got type "list".'],
    })
    expect((await api.post('/questionnaire/submit/', { version: 2025.1, answers: null }, { token: tokens.pedro })).json).toEqual({
      version: ['Not a valid string.'],
      answers: ['This field may not be null.'],
    })
    expect((await api.get('/questionnaire/results/', { token: tokens.pedro })).json.count).toBe(0)
  })

  it('needs a signed-in patient: 401 without a token, 403 for professionals and admins', async () => {
    const body = { version: '2025.1', answers: answersScoring(FIRST) }
    const anonymous = await api.post('/questionnaire/submit/', body)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="api"')
    expect(anonymous.json).toEqual({ detail: 'Authentication credentials were not provided.' })
    for (const token of [tokens.paula, tokens.admin]) {
      const refused = await api.post('/questionnaire/submit/', body, { token })
      expect(refused.status).toBe(403)
      expect(refused.json).toEqual({ detail: 'You do not have permission to perform this action.' })
    }
  })
})

describe('history: results, latest, trends', () => {
  it('lists own results newest first, paginated, without answers', async () => {
    const first = await submit(tokens.pedro)
    time.advance(86400)
    const second = await submit(tokens.pedro, SECOND)
    await submit(tokens.mariana)

    const list = await api.get('/questionnaire/results/', { token: tokens.pedro })
    expect(list.status).toBe(200)
    expect(list.json).toEqual({
      count: 2,
      next: null,
      previous: null,
      results: [
        {
          id: second.id,
          version: '2025.1',
          submitted_at: '2025-03-19T12:00:00.000Z',
          scores: { estresse: 50, exercicio: 50, alimento: 100, sono: 75, relacionamentos: 100, substancias: 75 },
          focus_pillars: ['estresse', 'exercicio'],
        },
        expect.objectContaining({ id: first.id, submitted_at: '2025-03-18T12:00:00.000Z' }),
      ],
    })

    const paged = await api.get('/questionnaire/results/?page_size=1', { token: tokens.pedro })
    expect(paged.json.results.map((result: { id: number }) => result.id)).toEqual([second.id])
    expect(paged.json.next).toBe(`${PUBLIC_URL}/questionnaire/results/?page_size=1&page=2`)
    expect((await api.get('/questionnaire/results/?page=3', { token: tokens.pedro })).json).toEqual({ detail: 'Invalid page.' })
  })

  it('answers the latest result, or 404 before the first', async () => {
    expect((await api.get('/questionnaire/latest/', { token: tokens.pedro })).status).toBe(404)
    await submit(tokens.pedro)
    time.advance(60)
    const second = await submit(tokens.pedro, SECOND)
    const latest = await api.get('/questionnaire/latest/', { token: tokens.pedro })
    expect(latest.status).toBe(200)
    expect(latest.json.id).toBe(second.id)
    expect(latest.json.answers).toEqual(answersScoring(SECOND))
    expect((await api.get('/questionnaire/latest/', { token: tokens.mariana })).status).toBe(404)
  })

  it('gives trends per pillar, oldest first, with the change since the previous submission', async () => {
    const empty = await api.get('/questionnaire/trends/', { token: tokens.pedro })
    expect(empty.json.count).toBe(0)
    expect(empty.json.pillars[0]).toEqual({ slug: 'estresse', latest: null, change: null, series: [] })

    const first = await submit(tokens.pedro)
    time.advance(7 * 86400)
    const second = await submit(tokens.pedro, SECOND)
    await submit(tokens.mariana)
    const trends = await api.get('/questionnaire/trends/', { token: tokens.pedro })
    expect(trends.status).toBe(200)
    expect(trends.json.count).toBe(2)
    expect(trends.json.pillars.map((pillar: { slug: string }) => pillar.slug)).toEqual([
      'estresse',
      'exercicio',
      'alimento',
      'sono',
      'relacionamentos',
      'substancias',
    ])
    expect(trends.json.pillars[3]).toEqual({
      slug: 'sono',
      latest: 75,
      change: 75,
      series: [
        { id: first.id, submitted_at: '2025-03-18T12:00:00.000Z', score: 0 },
        { id: second.id, submitted_at: '2025-03-25T12:00:00.000Z', score: 75 },
      ],
    })
    expect(trends.json.pillars[5]).toMatchObject({ slug: 'substancias', latest: 75, change: -25 })
  })

  it('charts the newest 24 submissions however many there are; the history has them all, by pages of at most 100', async () => {
    // 500 submissions a day apart, straight into the table: submitting is not limited, reading is.
    await database.db.execute(sql`INSERT INTO questionnaire_results (user_id, version, submitted_at, answers, scores, focus_pillars)
      SELECT ${ids.pedro}, '2025.1', timestamptz '2024-01-01T12:00:00Z' + n * interval '1 day', '{}', jsonb_build_object('sono', n % 101), '["sono"]' FROM generate_series(1, 500) n`)
    const answer = await api.get('/questionnaire/trends/', { token: tokens.pedro })
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    const trends = answer.json
    expect(trends.count).toBe(500)
    const sono = trends.pillars.find((pillar: { slug: string }) => pillar.slug === 'sono')
    expect(sono.series).toHaveLength(24)
    expect(sono.series.at(-1)).toMatchObject({ submitted_at: '2025-05-15T12:00:00.000Z', score: 500 % 101 })
    expect(sono.series[0].submitted_at < sono.series[1].submitted_at).toBe(true)
    expect(sono).toMatchObject({ latest: 500 % 101, change: 1 })
    expect((await api.get('/questionnaire/results/?page_size=1000', { token: tokens.pedro })).json.results).toHaveLength(100)
  })

  it('is for patients only', async () => {
    for (const path of ['/questionnaire/results/', '/questionnaire/latest/', '/questionnaire/trends/']) {
      expect((await api.get(path)).status).toBe(401)
      expect((await api.get(path, { token: tokens.paula })).status).toBe(403)
    }
  })
})

describe('GET /questionnaire/{id}/', () => {
  it('shows a result to its owner and to admins, and is 404 for everyone else', async () => {
    const { id } = await submit(tokens.pedro)
    expect((await api.get(`/questionnaire/${id}/`, { token: tokens.pedro })).status).toBe(200)
    expect((await api.get(`/questionnaire/${id}/`, { token: tokens.admin })).json.patient.id).toBe(ids.pedro)
    // Another patient, and a professional it is not shared with (even one who follows Pedro).
    for (const token of [tokens.mariana, tokens.paula, tokens.rafael]) {
      const hidden = await api.get(`/questionnaire/${id}/`, { token })
      expect(hidden.status).toBe(404)
      expect(hidden.json).toEqual({ detail: 'Not found.' })
    }
    expect((await api.get('/questionnaire/999/', { token: tokens.pedro })).status).toBe(404)
    // Past PostgreSQL's integer range no row can exist, and the query would fail: a 400 before it.
    expect((await api.get('/questionnaire/2147483648/', { token: tokens.admin })).json).toEqual({ detail: 'Invalid id. Ids are integers from 1 to 2147483647.' })
    expect((await api.get('/questionnaire/99999999999/', { token: tokens.admin })).status).toBe(400)
    expect((await api.get(`/questionnaire/${id}/`)).status).toBe(401)
  })
})

describe('sharing a result with professionals', () => {
  it('shares, lists, lets only the shared professional read it, and removes', async () => {
    const { id } = await submit(tokens.pedro)
    time.advance(60)
    const shared = await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.rafael, ids.paula, ids.paula] }, { token: tokens.pedro })
    expect(shared.status).toBe(200)
    expect(shared.json).toEqual({
      questionnaire: id,
      professionals: [
        {
          id: ids.paula,
          username: 'profissional',
          first_name: 'Paula',
          last_name: 'Ribeiro',
          email: 'profissional@innera.local',
          photo: null,
          specialty: 'Medicina do estilo de vida',
          shared_at: '2025-03-18T12:01:00.000Z',
        },
        expect.objectContaining({ id: ids.rafael, first_name: 'Rafael', specialty: 'Nutrição' }),
      ],
    })
    expect((await api.get(`/questionnaire/share/professionals/?questionnaire=${id}`, { token: tokens.pedro })).json).toEqual(shared.json)

    // Sharing again is harmless and keeps the first date.
    time.advance(60)
    expect((await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.paula] }, { token: tokens.pedro })).json).toEqual(shared.json)

    const asPaula = await api.get(`/questionnaire/${id}/`, { token: tokens.paula })
    expect(asPaula.status).toBe(200)
    expect(asPaula.json.answers).toEqual(answersScoring(FIRST))
    expect(asPaula.json.patient).toEqual({ id: ids.pedro, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' })

    const inbox = await api.get('/questionnaire/shared-with-me/', { token: tokens.paula })
    expect(inbox.json).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id,
          version: '2025.1',
          submitted_at: '2025-03-18T12:00:00.000Z',
          shared_at: '2025-03-18T12:01:00.000Z',
          scores: { estresse: 25, exercicio: 50, alimento: 75, sono: 0, relacionamentos: 100, substancias: 100 },
          focus_pillars: ['sono', 'estresse', 'exercicio'],
          patient: { id: ids.pedro, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' },
        },
      ],
    })

    const removed = await api.post('/questionnaire/share/remove/', { questionnaire: id, professional: ids.paula }, { token: tokens.pedro })
    expect(removed.status).toBe(200)
    expect(removed.json.professionals.map((professional: { id: number }) => professional.id)).toEqual([ids.rafael])
    expect((await api.get(`/questionnaire/${id}/`, { token: tokens.paula })).status).toBe(404)
    expect((await api.get('/questionnaire/shared-with-me/', { token: tokens.paula })).json.count).toBe(0)
    expect((await api.get(`/questionnaire/${id}/`, { token: tokens.rafael })).status).toBe(200)
    // Removing again is not an error.
    expect((await api.post('/questionnaire/share/remove/', { questionnaire: id, professional: ids.paula }, { token: tokens.pedro })).status).toBe(200)
  })

  it('lets only the owner share, list and remove shares', async () => {
    const { id } = await submit(tokens.pedro)
    await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.paula] }, { token: tokens.pedro })
    // Those who can read it but do not own it: 403.
    for (const token of [tokens.paula, tokens.admin]) {
      expect((await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.rafael] }, { token })).status).toBe(403)
      expect((await api.get(`/questionnaire/share/professionals/?questionnaire=${id}`, { token })).status).toBe(403)
      expect((await api.post('/questionnaire/share/remove/', { questionnaire: id, professional: ids.paula }, { token })).status).toBe(403)
    }
    // Those who cannot see it: 404.
    for (const token of [tokens.mariana, tokens.rafael]) {
      expect((await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.rafael] }, { token })).status).toBe(404)
      expect((await api.get(`/questionnaire/share/professionals/?questionnaire=${id}`, { token })).status).toBe(404)
      expect((await api.post('/questionnaire/share/remove/', { questionnaire: id, professional: ids.paula }, { token })).status).toBe(404)
    }
    expect((await api.post('/questionnaire/share/', { questionnaire: id, professionals: [ids.rafael] })).status).toBe(401)
    expect((await api.get(`/questionnaire/share/professionals/?questionnaire=${id}`, { token: tokens.pedro })).json.professionals).toHaveLength(1)
  })

  it('shares only with professionals and validates the body', async () => {
    const { id } = await submit(tokens.pedro)
    const share = (body: unknown) => api.post('/questionnaire/share/', body, { token: tokens.pedro })
    expect((await share({ questionnaire: id, professionals: [ids.paula, ids.mariana, ids.admin, 999] })).json).toEqual({
      professionals: [`Invalid pk "${ids.mariana}" - object does not exist.`, `Invalid pk "${ids.admin}" - object does not exist.`, 'Invalid pk "999" - object does not exist.'],
    })
    expect((await share({})).json).toEqual({ questionnaire: ['This field is required.'], professionals: ['This field is required.'] })
    expect((await share({ questionnaire: 'x', professionals: [] })).json).toEqual({
      questionnaire: ['A valid integer is required.'],
      professionals: ['This list may not be empty.'],
    })
    expect((await share({ questionnaire: id, professionals: ids.paula })).json).toEqual({ professionals: ['Expected a list of items but got type "int".'] })
    expect((await share({ questionnaire: id, professionals: ['paula'] })).json).toEqual({ professionals: ['Incorrect type. Expected pk value, received str.'] })
    expect((await share({ questionnaire: 999, professionals: [ids.paula] })).status).toBe(404)
    expect((await share({ questionnaire: id, professionals: [ids.paula, 2147483648] })).json).toEqual({ professionals: ['Invalid pk "2147483648" - object does not exist.'] })
    expect((await share({ questionnaire: 2147483648, professionals: [ids.paula] })).json).toEqual({
      questionnaire: ['Ensure this value is less than or equal to 2147483647.'],
    })
    // Nothing was shared by the refused requests.
    expect((await api.get(`/questionnaire/share/professionals/?questionnaire=${id}`, { token: tokens.pedro })).json.professionals).toEqual([])
    expect((await api.get('/questionnaire/share/professionals/', { token: tokens.pedro })).json).toEqual({ questionnaire: ['This field is required.'] })
    expect((await api.post('/questionnaire/share/remove/', { questionnaire: id }, { token: tokens.pedro })).json).toEqual({
      professional: ['This field is required.'],
    })
  })

  it('refuses a list of more than 100 professionals before looking at any of them', async () => {
    const { id } = await submit(tokens.pedro)
    // 100,000 ids once took seconds (a quadratic repeat check) and then failed in the database.
    const huge = Array.from({ length: 100_000 }, (_, index) => index + 1)
    const response = await api.post('/questionnaire/share/', { questionnaire: id, professionals: huge }, { token: tokens.pedro })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({ professionals: ['Ensure this field has no more than 100 elements.'] })
    // Even when every element is malformed: the length is what is refused.
    const junk = await api.post('/questionnaire/share/', { questionnaire: id, professionals: Array.from({ length: 101 }, () => 'x') }, { token: tokens.pedro })
    expect(junk.json).toEqual({ professionals: ['Ensure this field has no more than 100 elements.'] })
    // 100 is allowed, and repeats collapse (100 copies of one id share once).
    const repeated = await api.post('/questionnaire/share/', { questionnaire: id, professionals: Array.from({ length: 100 }, (_, index) => (index % 2 ? ids.paula : String(ids.paula))) }, { token: tokens.pedro })
    expect(repeated.status).toBe(200)
    expect(repeated.json.professionals.map((professional: { id: number }) => professional.id)).toEqual([ids.paula])
  })

  it('lists shared results for professionals only, filterable by patient', async () => {
    const pedro = await submit(tokens.pedro)
    time.advance(60)
    const mariana = await submit(tokens.mariana, SECOND)
    await api.post('/questionnaire/share/', { questionnaire: pedro.id, professionals: [ids.paula] }, { token: tokens.pedro })
    await api.post('/questionnaire/share/', { questionnaire: mariana.id, professionals: [ids.paula, ids.rafael] }, { token: tokens.mariana })

    const all = await api.get('/questionnaire/shared-with-me/', { token: tokens.paula })
    expect(all.json.results.map((result: { id: number }) => result.id)).toEqual([mariana.id, pedro.id])
    const onlyPedro = await api.get(`/questionnaire/shared-with-me/?patient=${ids.pedro}`, { token: tokens.paula })
    expect(onlyPedro.json.results.map((result: { id: number }) => result.id)).toEqual([pedro.id])
    const outOfRange = await api.get('/questionnaire/shared-with-me/?patient=2147483648', { token: tokens.paula })
    expect(outOfRange.status).toBe(400)
    expect(outOfRange.json).toEqual({ patient: ['Ensure this value is less than or equal to 2147483647.'] })
    expect((await api.get('/questionnaire/shared-with-me/?patient=abc', { token: tokens.paula })).json).toEqual({ patient: ['A valid integer is required.'] })
    expect((await api.get('/questionnaire/shared-with-me/', { token: tokens.rafael })).json.count).toBe(1)

    expect((await api.get('/questionnaire/shared-with-me/', { token: tokens.pedro })).status).toBe(403)
    expect((await api.get('/questionnaire/shared-with-me/', { token: tokens.admin })).status).toBe(403)
    expect((await api.get('/questionnaire/shared-with-me/')).status).toBe(401)
  })
})
