import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
let api: ReturnType<typeof client>
const tokens: Record<'admin' | 'paula' | 'rafael' | 'pedro' | 'mariana', string> = { admin: '', paula: '', rafael: '', pedro: '', mariana: '' }
// Seed order: 1 admin, 2 Paula (profissional), 3 Rafael (profissional), 4 Pedro, 5 Mariana,
// 6 Inês (profissional), 7 Lucas (profissional).
const PEDRO = 4
const MARIANA = 5

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db))
  // The reset keeps ids (RESTART IDENTITY) and the seeded users' sessions, so one login each will do.
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.rafael = (await api.login('nutricionista@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.mariana = (await api.login('paciente2@innera.local')).access
})
afterAll(() => database.close())
beforeEach(() => resetDatabase(database.db))

describe('GET /users/ (admin)', () => {
  it('paginates like DRF', async () => {
    const first = await api.get('/users/?page_size=2', { token: tokens.admin })
    expect(first.status).toBe(200)
    expect(first.json.count).toBe(7)
    expect(first.json.previous).toBeNull()
    expect(first.json.next).toBe(`${PUBLIC_URL}/users/?page_size=2&page=2`)
    expect(first.json.results.map((user: { id: number }) => user.id)).toEqual([1, 2])
    expect(Object.keys(first.json.results[0]).sort()).toEqual(
      ['date_joined', 'email', 'email_verified', 'first_name', 'groups', 'id', 'is_active', 'last_login', 'last_name', 'photo', 'username'].sort(),
    )
    const last = await api.get('/users/?page_size=2&page=4', { token: tokens.admin })
    expect(last.json.next).toBeNull()
    expect(last.json.previous).toBe(`${PUBLIC_URL}/users/?page_size=2&page=3`)
    expect(await api.get('/users/?page=9', { token: tokens.admin })).toMatchObject({ status: 404, json: { detail: 'Invalid page.' } })
  })

  it('searches usernames, e-mails and names case-insensitively and filters by group', async () => {
    const byName = await api.get('/users/?search=RIBEIRO', { token: tokens.admin })
    expect(byName.json.results.map((user: { username: string }) => user.username)).toEqual(['profissional'])
    const byFullName = await api.get(`/users/?search=${encodeURIComponent('mariana alves')}`, { token: tokens.admin })
    expect(byFullName.json.count).toBe(1)
    const group = await api.get('/users/?group=profissional', { token: tokens.admin })
    expect(group.json.results.map((user: { id: number }) => user.id)).toEqual([2, 3, 6, 7])
    const wildcard = await api.get('/users/?search=%25', { token: tokens.admin })
    expect(wildcard.json.count).toBe(0)
  })

  it("pages a search as the whole list is paged: one statement's page and count, then the last page and past the end", async () => {
    // "innera.local" is in every seeded e-mail: 7 users, 3 a page.
    const second = await api.get('/users/?search=innera.local&page_size=3&page=2', { token: tokens.admin })
    expect(second.json).toMatchObject({ count: 7, next: `${PUBLIC_URL}/users/?search=innera.local&page_size=3&page=3`, previous: `${PUBLIC_URL}/users/?search=innera.local&page_size=3` })
    expect(second.json.results.map((user: { id: number }) => user.id)).toEqual([4, 5, 6])
    const last = await api.get('/users/?search=innera.local&page_size=3&page=last', { token: tokens.admin })
    expect(last.json.results.map((user: { id: number }) => user.id)).toEqual([7])
    expect(await api.get('/users/?search=innera.local&page_size=3&page=4', { token: tokens.admin })).toMatchObject({ status: 404, json: { detail: 'Invalid page.' } })
    expect(await api.get('/users/?search=innera.local&page=x', { token: tokens.admin })).toMatchObject({ status: 404, json: { detail: 'Invalid page.' } })
    // No match: an empty first page, not a 404.
    expect((await api.get('/users/?search=nobody-at-all', { token: tokens.admin })).json).toMatchObject({ count: 0, results: [] })
  })

  it('is for admins only', async () => {
    expect((await api.get('/users/', { token: tokens.paula })).status).toBe(403)
    expect(await api.get('/users/', { token: tokens.pedro })).toMatchObject({
      status: 403,
      json: { detail: 'You do not have permission to perform this action.' },
    })
    expect((await api.get('/users/')).status).toBe(401)
  })
})

describe('GET /users/stats/', () => {
  it('counts users by state and group', async () => {
    const response = await api.get('/users/stats/', { token: tokens.admin })
    expect(response.json).toEqual({ total: 7, active: 7, by_group: { admin: 1, profissional: 4, paciente: 2 } })
    expect((await api.get('/users/stats/', { token: tokens.pedro })).status).toBe(403)
  })
})

describe('/users/{id}/', () => {
  it('shows a user to themself, to admins and to their professionals only; to anyone else they do not exist (404)', async () => {
    expect((await api.get(`/users/${PEDRO}/`, { token: tokens.pedro })).json.username).toBe('paciente')
    expect((await api.get(`/users/${PEDRO}/`, { token: tokens.admin })).status).toBe(200)
    expect((await api.get(`/users/${PEDRO}/`, { token: tokens.paula })).status).toBe(200)
    expect(await api.get(`/users/${PEDRO}/`, { token: tokens.rafael })).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await api.get(`/users/${MARIANA}/`, { token: tokens.rafael })).status).toBe(200)
    expect(await api.get(`/users/${MARIANA}/`, { token: tokens.pedro })).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect(await api.get('/users/999/', { token: tokens.pedro })).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
  })

  it('lets admins edit names, groups and activity', async () => {
    const response = await api.patch(`/users/${PEDRO}/`, { first_name: 'Pedro Paulo', groups: ['paciente', 'profissional'], is_active: false }, { token: tokens.admin })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({ first_name: 'Pedro Paulo', groups: ['profissional', 'paciente'], is_active: false })
    expect((await api.get('/users/me/', { token: tokens.pedro })).status).toBe(401)
  })

  it('validates admin edits and protects the admin from locking themself out', async () => {
    const unknownGroup = await api.patch(`/users/${PEDRO}/`, { groups: ['superuser'] }, { token: tokens.admin })
    expect(unknownGroup).toMatchObject({ status: 400, json: { groups: ['Object with name=superuser does not exist.'] } })
    const self = await api.patch('/users/1/', { is_active: false, groups: ['paciente'] }, { token: tokens.admin })
    expect(self.json).toEqual({
      groups: ['You cannot remove your own admin role.'],
      is_active: ['You cannot deactivate your own account.'],
    })
    const manyGroups = await api.patch(`/users/${PEDRO}/`, { groups: Array.from({ length: 100_000 }, () => 'paciente') }, { token: tokens.admin })
    expect(manyGroups).toMatchObject({ status: 400, json: { groups: ['Ensure this field has no more than 20 elements.'] } })
    expect((await api.patch(`/users/${PEDRO}/`, { groups: 'paciente' }, { token: tokens.admin })).json).toEqual({ groups: ['Expected a list of items but got type "str".'] })
    // Repeats collapse: one membership, one error per unknown name.
    expect((await api.patch(`/users/${PEDRO}/`, { groups: ['paciente', 'paciente '] }, { token: tokens.admin })).json.groups).toEqual(['paciente'])
    expect((await api.patch(`/users/${PEDRO}/`, { groups: ['x', 'x'] }, { token: tokens.admin })).json).toEqual({ groups: ['Object with name=x does not exist.'] })
    expect((await api.patch(`/users/${PEDRO}/`, { is_active: 'maybe' }, { token: tokens.admin })).json).toEqual({
      is_active: ['Must be a valid boolean.'],
    })
    expect((await api.patch(`/users/${PEDRO}/`, { first_name: 'Pedro https://evil.example', last_name: 'Santos\nPIX' }, { token: tokens.admin })).json).toEqual({
      first_name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'],
      last_name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'],
    })
    expect((await api.patch(`/users/${PEDRO}/`, { first_name: 'X' }, { token: tokens.paula })).status).toBe(403)
    expect((await api.patch('/users/999/', { first_name: 'X' }, { token: tokens.admin })).status).toBe(404)
  })
})

describe('professionals', () => {
  // By name.
  const expected = [
    { username: 'psicologa', first_name: 'Inês', last_name: 'Marques', specialty: 'Psicologia' },
    { username: 'educador', first_name: 'Lucas', last_name: 'Ferreira', specialty: 'Educação física' },
    { username: 'profissional', first_name: 'Paula', last_name: 'Ribeiro', specialty: 'Medicina do estilo de vida' },
    { username: 'nutricionista', first_name: 'Rafael', last_name: 'Costa', specialty: 'Nutrição' },
  ]

  it('lists professionals to any signed-in user, on both paths', async () => {
    for (const path of ['/users/professionals/', '/groups/profissional/users/']) {
      const response = await api.get(path, { token: tokens.pedro })
      expect(response.status).toBe(200)
      expect(response.json).toMatchObject(expected)
      expect(Object.keys(response.json[0]).sort()).toEqual(['email', 'first_name', 'id', 'last_name', 'photo', 'specialty', 'username'])
      expect((await api.get(path)).status).toBe(401)
    }
  })

  it("lists a professional's own patients", async () => {
    const paula = await api.get('/users/professionals/patients/', { token: tokens.paula })
    // Sorted by name: Mariana, then Pedro.
    expect(paula.json).toMatchObject({ count: 2, next: null, previous: null })
    expect(paula.json.results.map((patient: { id: number }) => patient.id)).toEqual([MARIANA, PEDRO])
    expect(Object.keys(paula.json.results[0]).sort()).toEqual(['email', 'first_name', 'id', 'last_name', 'linked_at', 'photo', 'username'])
    const rafael = await api.get('/users/professionals/patients/', { token: tokens.rafael })
    expect(rafael.json.results.map((patient: { id: number }) => patient.id)).toEqual([MARIANA])
    expect((await api.get('/users/professionals/patients/', { token: tokens.pedro })).status).toBe(403)
    expect((await api.get('/users/professionals/patients/', { token: tokens.admin })).status).toBe(403)
  })

  it("answers a professional's patients by pages of 20 (at most 100), however many booked", async () => {
    // 250 patients linked to Paula, straight into the tables (each booking links one).
    await database.db.execute(sql`INSERT INTO users (username, email, password, first_name) SELECT 'p' || n, 'p' || n || '@example.test', '!', 'Paciente ' || lpad(n::text, 3, '0') FROM generate_series(1, 250) n`)
    await database.db.execute(sql`INSERT INTO professional_patients (professional_id, patient_id) SELECT 2, id FROM users WHERE username LIKE 'p%' AND email LIKE '%@example.test'`)
    const first = await api.get('/users/professionals/patients/', { token: tokens.paula })
    expect(first.json).toMatchObject({ count: 252, previous: null, next: `${PUBLIC_URL}/users/professionals/patients/?page=2` })
    expect(first.json.results).toHaveLength(20)
    expect(first.headers.get('cache-control')).toBe('private, no-store')
    expect(first.json.results[0].first_name).toBe('Mariana')
    expect((await api.get('/users/professionals/patients/?page_size=1000', { token: tokens.paula })).json.results).toHaveLength(100)
    expect((await api.get('/users/professionals/patients/?page=last', { token: tokens.paula })).json.results).toHaveLength(12)
    expect(await api.get('/users/professionals/patients/?page=14', { token: tokens.paula })).toMatchObject({ status: 404, json: { detail: 'Invalid page.' } })
  })

  it("shows a patient's profile to their professionals and to admins", async () => {
    const paula = await api.get(`/users/patients/?patient=${PEDRO}`, { token: tokens.paula })
    expect(paula.status).toBe(200)
    expect(paula.json).toMatchObject({ id: PEDRO, first_name: 'Pedro', groups: ['paciente'], email_verified: true })
    // Not his patient: answered as no patient, so ids cannot be probed.
    expect(await api.get(`/users/patients/?patient=${PEDRO}`, { token: tokens.rafael })).toMatchObject({ status: 404, json: { detail: 'Not found.' } })
    expect((await api.get(`/users/patients/?patient=${PEDRO}`, { token: tokens.admin })).status).toBe(200)
    expect((await api.get(`/users/patients/?patient=2`, { token: tokens.admin })).status).toBe(404)
    expect((await api.get('/users/patients/?patient=999', { token: tokens.paula })).status).toBe(404)
    expect((await api.get(`/users/patients/?patient=${MARIANA}`, { token: tokens.pedro })).status).toBe(403)
  })

  it('requires a numeric patient parameter', async () => {
    expect(await api.get('/users/patients/', { token: tokens.paula })).toMatchObject({ status: 400, json: { patient: ['This field is required.'] } })
    expect(await api.get('/users/patients/?patient=abc', { token: tokens.paula })).toMatchObject({
      status: 400,
      json: { patient: ['A valid integer is required.'] },
    })
  })
})
