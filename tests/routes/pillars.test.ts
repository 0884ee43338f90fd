import { describe, expect, test } from 'vitest'
import { action, loader } from '#app/routes/pilares.tsx'
import { formRequest, run } from '#tests/mocks/route.ts'

/** The cookies a response sets, as a Cookie header for the next request. */
const cookiesOf = (headers: Headers) => headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ')
type Loaded = { state: { mode: string; selected: string[]; completed: string[] }; pillars: { slug: string; position: string; name: string }[] }

async function load(url: string, cookie = '') {
  return (await run(loader, new Request(url, { headers: cookie ? { Cookie: cookie } : {} }))).data as Loaded
}

describe('pillar selection', () => {
  test('the six pillars in order, alternately left and right, in the visitor language', async () => {
    const data = await load('http://app.test/pilares?lng=en')
    expect(data.pillars.map((pillar) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect(data.pillars.map((pillar) => pillar.position)).toEqual(['left', 'right', 'left', 'right', 'left', 'right'])
    expect(data.pillars[3]?.name).toBe('Sleep')
  })

  test('multiple mode preselects the completed pillars and toggles', async () => {
    const completed = `questionnaire_pillars=${encodeURIComponent(Buffer.from(JSON.stringify(['sono', 'alimento'])).toString('base64'))}`
    expect((await load('http://app.test/pilares', completed)).state).toEqual({ mode: 'multiple', selected: ['alimento', 'sono'], completed: ['alimento', 'sono'] })

    const toggled = await run(action, formRequest('http://app.test/pilares', { intent: 'choose', mode: 'multiple', pillar: 'sono' }, { Cookie: completed }))
    expect(toggled.location).toBe('/pilares?mode=multiple')
    const after = await load('http://app.test/pilares?mode=multiple', cookiesOf(toggled.headers))
    expect(after.state.selected).toEqual(['alimento'])
    expect(after.state.completed).toEqual(['alimento', 'sono'])
  })

  test('single mode selects one pillar', async () => {
    const first = await run(action, formRequest('http://app.test/pilares', { intent: 'choose', mode: 'single', pillar: 'estresse' }))
    const second = await run(action, formRequest('http://app.test/pilares', { intent: 'choose', mode: 'single', pillar: 'sono' }, { Cookie: cookiesOf(first.headers) }))
    expect((await load('http://app.test/pilares?mode=single', cookiesOf(second.headers))).state.selected).toEqual(['sono'])
  })

  test('reset clears the selection and the completed pillars', async () => {
    const completed = `questionnaire_pillars=${encodeURIComponent(Buffer.from(JSON.stringify(['sono'])).toString('base64'))}`
    const result = await run(action, formRequest('http://app.test/pilares', { intent: 'reset', mode: 'multiple' }, { Cookie: completed }))
    const after = await load('http://app.test/pilares', cookiesOf(result.headers))
    expect(after.state).toEqual({ mode: 'multiple', selected: [], completed: [] })
  })

  test('an unknown pillar or intent is refused', async () => {
    const result = await run(action, formRequest('http://app.test/pilares', { intent: 'choose', mode: 'multiple', pillar: 'magic' }))
    expect(result.status).toBe(400)
  })
})

describe('pillar selection for a signed-in patient', () => {
  test('the completed pillars mirror the latest result from the provider', async () => {
    const { http, HttpResponse } = await import('msw')
    const { providerMock, providerUrl } = await import('#tests/mocks/provider.ts')
    const { demoPatient, fakeJwt, sessionCookie } = await import('#tests/mocks/session.ts')
    providerMock.use(
      http.get(providerUrl('/questionnaire/latest/'), () =>
        HttpResponse.json({
          id: 7,
          version: '2025.1',
          submitted_at: '2026-11-20T12:00:00.000Z',
          scores: { estresse: 40, exercicio: 70, alimento: 55, sono: 30, relacionamentos: 90, substancias: 100 },
          focus_pillars: ['sono', 'estresse', 'alimento'],
          answers: {},
          patient: { id: 4, username: 'paciente', first_name: 'Pedro', last_name: 'Santos' },
        }),
      ),
    )
    const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user: demoPatient })
    const data = await load('http://app.test/pilares', cookie)
    expect(data.state.completed).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    expect(data.state.selected).toEqual(data.state.completed)
  })
})
