import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { saveDraft } from '#server/content/drafts.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, fakeClock, resetDatabase, testApp } from '#server/testing/harness.ts'

/** The content editor's front page (decision 0064): what is published and what waits as a draft; admins only. */

const time = fakeClock(Date.parse('2026-03-10T15:00:00Z'))
let database: DatabaseHandle
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', pedro: '' }

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
})
afterAll(() => database.close())
beforeEach(() => resetDatabase(database.db))

describe('GET /admin/content/', () => {
  it('is for admins only: 401 anonymous, 403 a patient and a professional', async () => {
    expect((await api.get('/admin/content/')).status).toBe(401)
    expect((await api.get('/admin/content/', { token: tokens.pedro })).status).toBe(403)
    expect((await api.get('/admin/content/', { token: tokens.paula })).status).toBe(403)
  })

  it('counts what is published and the drafts waiting, per kind', async () => {
    const before = await api.get('/admin/content/', { token: tokens.admin })
    expect(before.status).toBe(200)
    expect(before.headers.get('cache-control')).toBe('private, no-store')
    expect(before.json.pillars).toEqual({ published: 6, drafts: 0 })
    expect(before.json.questionnaire).toMatchObject({ versions: expect.any(Number), current: expect.any(String), drafts: 0 })
    expect(before.json.products.on_sale).toBeLessThanOrEqual(before.json.products.published)

    await saveDraft(database.db, 'pillar', 'sono', { name: { pt: 'Sono', en: '', es: '' } }, 1, time.clock())
    await saveDraft(database.db, 'course', 'novo-curso', {}, 1, time.clock())
    await saveDraft(database.db, 'lesson', 'nova-aula', {}, 1, time.clock())
    // Saving again replaces the draft: still one.
    await saveDraft(database.db, 'pillar', 'sono', { name: { pt: 'Sono bom', en: '', es: '' } }, 1, time.clock())
    const after = (await api.get('/admin/content/', { token: tokens.admin })).json
    expect(after.pillars.drafts).toBe(1)
    expect(after.courses.drafts).toBe(2)
    expect(after.products.drafts).toBe(0)
  })
})
