import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
let api: ReturnType<typeof client>

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db))
})
afterAll(() => database.close())
beforeEach(() => resetDatabase(database.db))

describe('pillars', () => {
  it('lists the six pillars in order with alternating positions, without authentication', async () => {
    const response = await api.get('/pillars/')
    expect(response.status).toBe(200)
    expect(response.json.map((pillar: { slug: string }) => pillar.slug)).toEqual([
      'estresse',
      'exercicio',
      'alimento',
      'sono',
      'relacionamentos',
      'substancias',
    ])
    expect(response.json.map((pillar: { position: string }) => pillar.position)).toEqual(['left', 'right', 'left', 'right', 'left', 'right'])
    expect(response.json.map((pillar: { order: number }) => pillar.order)).toEqual([1, 2, 3, 4, 5, 6])
    for (const pillar of response.json) {
      expect(Object.keys(pillar)).toEqual(['id', 'slug', 'order', 'icon', 'position', 'name', 'description'])
      for (const language of ['pt', 'en', 'es']) {
        expect(pillar.name[language]).toEqual(expect.any(String))
        // Two sentences in each language.
        expect(pillar.description[language].match(/[.!?](\s|$)/g)).toHaveLength(2)
      }
    }
    expect(response.json[0]).toMatchObject({ icon: 'brain', name: { pt: 'Gestão do estresse', en: 'Stress management', es: 'Manejo del estrés' } })
  })

  it('finds one pillar by id or slug', async () => {
    expect((await api.get('/pillars/4/')).json.slug).toBe('sono')
    expect((await api.get('/pillars/sono/')).json).toMatchObject({ id: 4, icon: 'moon', position: 'right' })
    expect(await api.get('/pillars/yoga/')).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await api.get('/pillars/99999999999/')).status).toBe(404)
  })
})

describe('GET /healthz/', () => {
  it('reports the database as healthy', async () => {
    expect(await api.get('/healthz/')).toMatchObject({ status: 200, json: { status: 'ok', database: 'ok' } })
  })
})

describe('dev mailbox', () => {
  it('shows sent messages newest first as an accessible page and as JSON, and clears them', async () => {
    await api.post('/users/password-reset/', { email: 'paciente@innera.local' })
    await api.post('/users/send-confirmation/', { email: 'paciente@innera.local' })
    // A name with markup is refused now (the name rule, issue 22).
    expect((await api.post('/users/register/', { email: 'bia@example.com', password: 'caminhada-ao-sol-7', name: 'Bia <b>Souza</b>' })).status).toBe(400)
    await api.post('/users/register/', { email: 'bia@example.com', password: 'caminhada-ao-sol-7', name: 'Bia Souza' })

    const json = await api.get('/dev/mailbox/messages/')
    expect(json.json.results.map((message: { to: string }) => message.to)).toEqual(['bia@example.com', 'paciente@innera.local'])
    expect(Object.keys(json.json.results[0]).sort()).toEqual(['created_at', 'delivery', 'html', 'id', 'subject', 'text', 'to'])
    // No SMTP_URL in tests: nothing is sent, the table is all there is.
    expect(json.json.results[0].delivery).toEqual({ status: 'pending', sent_at: null, failed_at: null, attempts: 0, last_error: null })
    expect((await api.get('/dev/mailbox/messages/?to=PACIENTE@innera.local')).json.results).toHaveLength(1)

    const page = await api.get('/dev/mailbox/')
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('<html lang="en">')
    expect(page.text).toMatch(/<main>[\s\S]*<h1>Development mailbox<\/h1>/)
    expect(page.text.indexOf('bia@example.com')).toBeLessThan(page.text.indexOf('paciente@innera.local'))
    expect(page.text).toMatch(/<a href="http:\/\/app\.test\/auth\/reset\/NA\/[^"]+">/)
    expect(page.text).toContain('Olá, Bia!')

    expect((await api.call('DELETE', '/dev/mailbox/messages/')).status).toBe(204)
    expect((await api.get('/dev/mailbox/messages/')).json.results).toEqual([])
  })

  it('is absent when DEV_MAILBOX and FAKE_GOOGLE are off', async () => {
    const production = client(testApp(database.db, { env: { DEV_MAILBOX: '0', FAKE_GOOGLE: '0' } }))
    expect((await production.get('/dev/mailbox/')).status).toBe(404)
    expect((await production.get('/dev/mailbox/messages/')).status).toBe(404)
    expect((await production.get('/fake-google/certs')).status).toBe(404)
  })
})

describe('PROVIDER_DELAY_MS', () => {
  it('delays API responses but not the health check', async () => {
    const slow = client(testApp(database.db, { env: { PROVIDER_DELAY_MS: '3000' } }))
    // Asked together: the health check answers while the API call still waits out its delay. A
    // delay never shortens, so the lower bound holds however busy the machine is.
    const started = performance.now()
    const answered: string[] = []
    const pillars = slow.get('/pillars/').then(() => answered.push('pillars'))
    await slow.get('/healthz/').then(() => answered.push('healthz'))
    await pillars
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_990)
    expect(answered).toEqual(['healthz', 'pillars'])
  })
})
