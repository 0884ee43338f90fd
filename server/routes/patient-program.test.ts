import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', rafael: '', pedro: '', mariana: '' }
// Seed: 1 admin, 2 Paula (linked to Pedro and Mariana), 3 Rafael (linked to Mariana only), 4 Pedro, 5 Mariana.
const PAULA = 2
const PEDRO = 4
const START = Date.UTC(2025, 2, 18, 12, 0, 0)

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.rafael = (await api.login('nutricionista@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.mariana = (await api.login('paciente2@innera.local')).access
})
afterAll(() => database.close())
// These tests change no users, so emptying the program tables is reset enough.
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "questionnaire_results", "programs" RESTART IDENTITY CASCADE`)
  time.set(START)
})

const programOf = (patient: number, token: string) => api.get(`/users/patients/${patient}/program/`, { token })

describe("GET /users/patients/{id}/program/ (a patient's program, for their professional)", () => {
  it('answers the linked professional and admins with the program summary, without the weekly goals', async () => {
    expect((await api.post('/program/', { focus_pillars: ['sono', 'alimento'] }, { token: tokens.pedro })).status).toBe(201)
    const paula = await programOf(PEDRO, tokens.paula)
    expect(paula.status).toBe(200)
    expect(paula.json).toMatchObject({
      id: 1,
      source: 'selection',
      focus_pillars: ['sono', 'alimento'],
      starts_on: '2025-03-18',
      current_week: 1,
      finished: false,
      progress: { done: 0, total: expect.any(Number) },
    })
    expect(paula.json).not.toHaveProperty('schedule')
    expect(await programOf(PEDRO, tokens.admin)).toMatchObject({
      status: 200,
      json: { focus_pillars: ['sono', 'alimento'] },
    })
  })

  it('is 404 for a professional not linked to the patient (as for no patient: ids cannot be probed), 403 for patients', async () => {
    expect((await api.post('/program/', { focus_pillars: ['sono'] }, { token: tokens.pedro })).status).toBe(201)
    expect(await programOf(PEDRO, tokens.rafael)).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await programOf(PEDRO, tokens.pedro)).status).toBe(403)
    expect((await programOf(PEDRO, tokens.mariana)).status).toBe(403)
    expect((await api.get(`/users/patients/${PEDRO}/program/`)).status).toBe(401)
  })

  it('is 404 when the patient has no program yet, and for an id that is no patient', async () => {
    expect(await programOf(PEDRO, tokens.paula)).toMatchObject({ status: 404 })
    expect((await programOf(999, tokens.paula)).status).toBe(404)
    expect((await programOf(PAULA, tokens.admin)).status).toBe(404)
  })
})
