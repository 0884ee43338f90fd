import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, test } from 'vitest'
import { action as wizardAction, loader as wizardLoader } from '#app/routes/avaliacao/route.tsx'
import { loader as historyLoader } from '#app/routes/avaliacao_.historico.tsx'
import { action as resultAction, loader as resultLoader } from '#app/routes/avaliacao_.resultado.$id.tsx'
import { loader as sharedLoader } from '#app/routes/profissional.avaliacoes.tsx'
import { forgetDefinition } from '#app/provider/questionnaire.server.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run } from '#tests/mocks/route.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

const text = (pt: string) => ({ pt, en: `${pt} (en)`, es: `${pt} (es)` })
const slugs = ['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias']
const definition = {
  version: '2025.1',
  current: true,
  title: text('Avaliação de saúde'),
  description: text('Não é um diagnóstico'),
  estimated_minutes: 10,
  question_count: 12,
  scale: { min: 0, max: 4 },
  pillars: slugs.map((slug, index) => ({
    slug,
    order: index + 1,
    name: text(`Pilar ${slug}`),
    questions: [1, 2].map((order) => ({
      id: index * 2 + order,
      code: `${slug}_${order}`,
      order,
      reverse: false,
      text: text(`Pergunta ${slug} ${order}?`),
      options: [0, 1, 2, 3, 4].map((value) => ({ value, label: text(`Opção ${value}`) })),
    })),
  })),
}
const scores = Object.fromEntries(slugs.map((slug, index) => [slug, index * 20]))
const result = { id: 7, version: '2025.1', submitted_at: '2025-03-18T12:00:00.000Z', scores, focus_pillars: ['estresse', 'exercicio', 'alimento'] }
const fullResult = { ...result, answers: {}, patient: { id: demoPatient.id, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' } }
const paula = { id: 2, username: 'profissional', first_name: 'Paula', last_name: 'Ribeiro', email: 'profissional@innera.local', photo: null, specialty: 'MEV' }

const definitionHandler = http.get(providerUrl('/questionnaire/get/'), () => HttpResponse.json(definition))
/** The cookies a response sets, merged over the ones sent. */
function nextCookie(previous: string, headers: Headers) {
  const jar = new Map(previous.split('; ').filter(Boolean).map((pair) => [pair.split('=')[0]!, pair] as const))
  for (const cookie of headers.getSetCookie()) {
    const pair = cookie.split(';')[0]!
    jar.set(pair.split('=')[0]!, pair)
  }
  return [...jar.values()].join('; ')
}
const stepAnswers = (slug: string, value = '2') => ({ [`${slug}_1`]: value, [`${slug}_2`]: value })
type Wizard = { step: number; answers: Record<string, number>; steps: { slug: string; questions: { text: string }[] }[] }

async function post(cookie: string, fields: Record<string, string>) {
  const response = await run(wizardAction, formRequest('http://app.test/avaliacao', fields, { Cookie: cookie }))
  return { response, cookie: nextCookie(cookie, response.headers) }
}
async function wizard(cookie: string) {
  return ((await run(wizardLoader, getRequest('http://app.test/avaliacao', cookie))).data as { wizard: Wizard }).wizard
}
async function answerAll(cookie: string) {
  for (const [index, slug] of slugs.entries()) {
    ;({ cookie } = await post(cookie, { intent: index === slugs.length - 1 ? 'review' : 'next', ...stepAnswers(slug) }))
  }
  return cookie
}

beforeEach(() => forgetDefinition())

describe('assessment wizard', () => {
  test('anonymous visitors see the intro', async () => {
    const data = (await run(wizardLoader, new Request('http://app.test/avaliacao'))).data as { mode: string; wizard: unknown }
    expect(data).toMatchObject({ mode: 'anonymous', wizard: null })
  })

  test('a patient sees the first step in their language', async () => {
    providerMock.use(definitionHandler)
    const data = (await run(wizardLoader, getRequest('http://app.test/avaliacao?lng=en', await signedIn()))).data as { wizard: Wizard }
    expect(data.wizard.step).toBe(0)
    expect(data.wizard.steps).toHaveLength(6)
    expect(data.wizard.steps[0]!.questions[0]!.text).toBe('Pergunta estresse 1? (en)')
  })

  test('a missing answer names the question; an out-of-range one is refused', async () => {
    providerMock.use(definitionHandler)
    const cookie = await signedIn()
    const missing = await post(cookie, { intent: 'next', estresse_1: '1' })
    expect(missing.response.status).toBe(400)
    expect((missing.response.data as { problems: Record<string, string> }).problems).toEqual({ estresse_2: 'Responda: Pergunta estresse 2?' })
    const range = await post(missing.cookie, { intent: 'next', estresse_1: '1', estresse_2: '7' })
    expect(range.response.status).toBe(400)
    expect(Object.keys((range.response.data as { problems: Record<string, string> }).problems)).toEqual(['estresse_2'])
    expect(range.response.data).toMatchObject({ step: 0, answers: { estresse_1: 1 } })
    expect((await wizard(range.cookie)).step).toBe(0)
  })

  test('back and forward keep every answer; review then submit stores the pillars and redirects', async () => {
    let submitted: unknown
    providerMock.use(
      definitionHandler,
      http.post(providerUrl('/questionnaire/submit/'), async ({ request }) => {
        submitted = await request.json()
        return HttpResponse.json(fullResult, { status: 201 })
      }),
    )
    let cookie = await signedIn()
    const first = await post(cookie, { intent: 'next', ...stepAnswers('estresse', '3') })
    expect(first.response.status).toBe(303)
    expect(first.response.location).toBe('/avaliacao')
    cookie = first.cookie
    ;({ cookie } = await post(cookie, { intent: 'back' }))
    const back = await wizard(cookie)
    expect(back.step).toBe(0)
    expect(back.answers).toEqual({ estresse_1: 3, estresse_2: 3 })
    cookie = await answerAll(cookie)
    const review = await wizard(cookie)
    expect(review.step).toBe(6)
    expect(Object.keys(review.answers)).toHaveLength(12)
    ;({ cookie } = await post(cookie, { intent: 'edit-3' }))
    expect((await wizard(cookie)).step).toBe(3)
    ;({ cookie } = await post(cookie, { intent: 'review', ...stepAnswers('sono', '4') }))
    const done = await post(cookie, { intent: 'submit' })
    expect(done.response.status).toBe(303)
    expect(done.response.location).toBe('/avaliacao/resultado/7')
    expect(submitted).toMatchObject({ version: '2025.1', answers: { estresse_1: 2, sono_1: 4 } })
    expect(done.response.headers.getSetCookie().some((value) => value.startsWith('questionnaire_pillars='))).toBe(true)
    expect((await wizard(done.cookie)).step).toBe(0)
  })

  test('a provider failure on submit keeps every answer and shows the message', async () => {
    providerMock.use(definitionHandler, http.post(providerUrl('/questionnaire/submit/'), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })))
    const cookie = await answerAll(await signedIn())
    const failed = await post(cookie, { intent: 'submit' })
    expect(failed.response.status).toBe(400)
    expect((failed.response.data as { formError: string }).formError).toBeTruthy()
    const kept = await wizard(failed.cookie)
    expect(kept.step).toBe(6)
    expect(Object.keys(kept.answers)).toHaveLength(12)
  })

  test('the provider unreachable while a step is posted: the definition read before serves, the step moves on, nothing is lost', async () => {
    providerMock.use(definitionHandler)
    const first = await wizard(await signedIn())
    expect(first.step).toBe(0)
    providerMock.use(http.all(providerUrl('/*'), () => HttpResponse.error()))
    const posted = await post(await signedIn(), { intent: 'next', ...stepAnswers('estresse', '3') })
    expect(posted.response.location).toBe('/avaliacao')
    const kept = await wizard(posted.cookie)
    expect(kept.step).toBe(1)
    expect(kept.answers).toMatchObject({ estresse_1: 3, estresse_2: 3 })
  })

  test('with no definition at hand, the posted answers are kept before the failure shows, and come back once the provider answers', async () => {
    providerMock.use(http.all(providerUrl('/*'), () => HttpResponse.error()))
    const posted = await post(await signedIn(), { intent: 'next', ...stepAnswers('estresse', '4'), 'not a code': '1' })
    // Post/redirect/get: the page that follows says what happened (the network page while it lasts).
    expect(posted.response.status).toBe(303)
    expect(posted.response.location).toBe('/avaliacao')
    providerMock.resetHandlers()
    providerMock.use(definitionHandler)
    const kept = await wizard(posted.cookie)
    expect(kept.answers).toEqual({ estresse_1: 4, estresse_2: 4 })
  })

  test('provider field errors per question map onto the questions', async () => {
    providerMock.use(definitionHandler, http.post(providerUrl('/questionnaire/submit/'), () => HttpResponse.json({ sono_1: ['Choose a value between 0 and 4.'] }, { status: 400 })))
    const failed = await post(await answerAll(await signedIn()), { intent: 'submit' })
    expect(failed.response.status).toBe(400)
    expect((failed.response.data as { problems: Record<string, string> }).problems.sono_1).toContain('Pergunta sono 1?')
  })
})

describe('assessment results', () => {
  test('the owner sees scores, focus pillars and the sharing controls', async () => {
    providerMock.use(
      definitionHandler,
      http.get(providerUrl('/questionnaire/7/'), () => HttpResponse.json(fullResult)),
      http.get(providerUrl('/questionnaire/share/professionals/'), () => HttpResponse.json({ questionnaire: 7, professionals: [{ ...paula, shared_at: '2025-03-18T12:01:00.000Z' }] })),
      http.get(providerUrl('/users/professionals/'), () => HttpResponse.json([paula])),
    )
    const loaded = await run(resultLoader, getRequest('http://app.test/avaliacao/resultado/7', await signedIn()), { id: '7' })
    const data = loaded.data as { isOwner: boolean; result: { scores: { score: number }[]; focus: { label: string }[] }; sharing: { shares: { id: number }[] } }
    expect(data.isOwner).toBe(true)
    expect(data.result.scores.map((row) => row.score)).toEqual([0, 20, 40, 60, 80, 100])
    expect(data.result.focus[0]!.label).toBe('Pilar estresse')
    expect(data.sharing.shares.map((share) => share.id)).toEqual([2])
  })

  test('a professional reads a shared result without sharing controls', async () => {
    providerMock.use(definitionHandler, http.get(providerUrl('/questionnaire/7/'), () => HttpResponse.json(fullResult)))
    const loaded = await run(resultLoader, getRequest('http://app.test/avaliacao/resultado/7', await signedIn(demoProfessional)), { id: '7' })
    expect(loaded.data).toMatchObject({ isOwner: false, sharing: null, result: { patient: 'Pedro Santos' } })
  })

  test('an unknown result is 404', async () => {
    providerMock.use(definitionHandler, http.get(providerUrl('/questionnaire/9/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    const loaded = await run(resultLoader, getRequest('http://app.test/avaliacao/resultado/9', await signedIn()), { id: '9' })
    expect(loaded.status).toBe(404)
  })

  test('share and remove post to the provider', async () => {
    const bodies: unknown[] = []
    const echo = async ({ request }: { request: Request }) => {
      bodies.push(await request.json())
      return HttpResponse.json({ questionnaire: 7, professionals: [] })
    }
    providerMock.use(http.post(providerUrl('/questionnaire/share/'), echo), http.post(providerUrl('/questionnaire/share/remove/'), echo))
    const cookie = await signedIn()
    const shared = await run(resultAction, formRequest('http://app.test/avaliacao/resultado/7', { intent: 'share', professional: '2' }, { Cookie: cookie }), { id: '7' })
    expect(shared.location).toBe('/avaliacao/resultado/7')
    const removed = await run(resultAction, formRequest('http://app.test/avaliacao/resultado/7', { intent: 'remove', professional: '2' }, { Cookie: cookie }), { id: '7' })
    expect(removed.location).toBe('/avaliacao/resultado/7')
    expect(bodies).toEqual([{ questionnaire: 7, professionals: [2] }, { questionnaire: 7, professional: 2 }])
    const empty = await run(resultAction, formRequest('http://app.test/avaliacao/resultado/7', { intent: 'share' }, { Cookie: cookie }), { id: '7' })
    expect(empty.status).toBe(400)
  })

  test('a share failure shows the message', async () => {
    providerMock.use(http.post(providerUrl('/questionnaire/share/'), () => HttpResponse.error()))
    const failed = await run(resultAction, formRequest('http://app.test/avaliacao/resultado/7', { intent: 'share', professional: '2' }, { Cookie: await signedIn() }), { id: '7' })
    expect(failed.status).toBe(400)
    expect((failed.data as { formError: string }).formError).toBeTruthy()
  })
})

describe('history and shared with me', () => {
  test('history lists submissions and shows trends from two', async () => {
    providerMock.use(
      definitionHandler,
      http.get(providerUrl('/questionnaire/results/'), () => HttpResponse.json({ count: 2, next: null, previous: null, results: [{ ...result, id: 9 }, result] })),
      http.get(providerUrl('/questionnaire/trends/'), () =>
        HttpResponse.json({
          count: 2,
          pillars: slugs.map((slug) => ({ slug, latest: 50, change: 10, series: [{ id: 7, submitted_at: result.submitted_at, score: 40 }, { id: 9, submitted_at: '2025-03-25T12:00:00.000Z', score: 50 }] })),
        }),
      ),
    )
    const data = (await run(historyLoader, getRequest('http://app.test/avaliacao/historico', await signedIn()))).data as { results: { id: number }[]; trends: { points: unknown[] }[] }
    expect(data.results.map((row) => row.id)).toEqual([9, 7])
    expect(data.trends).toHaveLength(6)
    expect(data.trends[0]!.points).toHaveLength(2)
  })

  test('the trends say when they chart only the newest submissions', async () => {
    const series = (n: number) => Array.from({ length: n }, (_, index) => ({ id: index + 1, submitted_at: result.submitted_at, score: 40 }))
    const trends = (count: number, points: number) => http.get(providerUrl('/questionnaire/trends/'), () => HttpResponse.json({ count, pillars: slugs.map((slug) => ({ slug, latest: 40, change: 0, series: series(points) })) }))
    const load = async () => (await run(historyLoader, getRequest('http://app.test/avaliacao/historico', await signedIn()))).data as { trendsOf: number | null }
    providerMock.use(definitionHandler, http.get(providerUrl('/questionnaire/results/'), () => HttpResponse.json({ count: 1, next: null, previous: null, results: [result] })), trends(300, 24))
    expect((await load()).trendsOf).toBe(24)
    providerMock.use(trends(5, 5))
    expect((await load()).trendsOf).toBeNull()
  })

  test('no trends with one submission', async () => {
    providerMock.use(
      definitionHandler,
      http.get(providerUrl('/questionnaire/results/'), () => HttpResponse.json({ count: 1, next: null, previous: null, results: [result] })),
      http.get(providerUrl('/questionnaire/trends/'), () => HttpResponse.json({ count: 1, pillars: [] })),
    )
    const data = (await run(historyLoader, getRequest('http://app.test/avaliacao/historico', await signedIn()))).data as { trends: unknown[] }
    expect(data.trends).toEqual([])
  })

  test('a professional sees the results shared with them', async () => {
    providerMock.use(
      definitionHandler,
      http.get(providerUrl('/questionnaire/shared-with-me/'), () =>
        HttpResponse.json({ count: 1, next: null, previous: null, results: [{ ...result, shared_at: result.submitted_at, patient: fullResult.patient }] }),
      ),
    )
    const data = (await run(sharedLoader, getRequest('http://app.test/profissional/avaliacoes', await signedIn(demoProfessional)))).data as { results: { id: number; patient: string }[] }
    expect(data.results).toEqual([expect.objectContaining({ id: 7, patient: 'Pedro Santos' })])
  })

  test('a patient cannot open the professional list', async () => {
    const loaded = await run(sharedLoader, getRequest('http://app.test/profissional/avaliacoes', await signedIn()))
    expect(loaded.status).toBe(403)
  })
})
