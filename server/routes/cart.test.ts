import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { users } from '#server/db/schema.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
let api: ReturnType<typeof client>
const tokens = { pedro: '', paula: '', admin: '' }
const clock = fakeClock(Date.parse('2026-11-26T12:00:00Z'))

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: clock.clock }))
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
})
afterAll(() => database.close())
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "carts"`)
})

const put = (token: string, body: unknown) => api.call('PUT', '/cart/', { body, token })

describe('/cart/', () => {
  it('is empty for an account that never had one, and private', async () => {
    const response = await api.get('/cart/', { token: tokens.pedro })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.json).toEqual({ items: [], updated_at: null })
  })

  it('keeps what each account puts in it, in order, apart from the others (every role has one)', async () => {
    const pedro = await put(tokens.pedro, { items: [{ product_id: 8, quantity: 1 }, { product_id: 2, quantity: 3 }] })
    expect(pedro.status).toBe(200)
    expect(pedro.json).toEqual({ items: [{ product_id: 8, quantity: 1 }, { product_id: 2, quantity: 3 }], updated_at: '2026-11-26T12:00:00.000Z' })
    expect((await put(tokens.paula, { items: [{ product_id: 5, quantity: 1 }] })).status).toBe(200)
    expect((await put(tokens.admin, { items: [] })).json.items).toEqual([])
    expect((await api.get('/cart/', { token: tokens.pedro })).json.items).toEqual([{ product_id: 8, quantity: 1 }, { product_id: 2, quantity: 3 }])
    expect((await api.get('/cart/', { token: tokens.paula })).json.items).toEqual([{ product_id: 5, quantity: 1 }])
    // A new cart replaces the old one whole.
    expect((await put(tokens.pedro, { items: [{ product_id: 2, quantity: 1 }] })).json.items).toEqual([{ product_id: 2, quantity: 1 }])
    expect((await api.get('/cart/', { token: tokens.pedro })).json.items).toEqual([{ product_id: 2, quantity: 1 }])
  })

  it('refuses a visitor without a token', async () => {
    expect((await api.get('/cart/')).status).toBe(401)
    expect((await put('', { items: [] })).status).toBe(401)
  })

  it('refuses a cart beyond its bounds and keeps the stored one', async () => {
    await put(tokens.pedro, { items: [{ product_id: 8, quantity: 1 }] })
    const line = (product_id: unknown, quantity: unknown = 1) => ({ product_id, quantity })
    const cases: [unknown, string][] = [
      [{}, 'items'],
      [{ items: 'x' }, 'items'],
      [{ items: Array.from({ length: 21 }, (_, index) => line(index + 1)) }, 'items'],
      [{ items: [line(8), line(8)] }, 'items'],
      [{ items: [line(0)] }, 'items'],
      [{ items: [line(2_147_483_648)] }, 'items'],
      [{ items: [line(8, 0)] }, 'items'],
      [{ items: [line(8, 11)] }, 'items'],
      [{ items: [line(8, 1.5)] }, 'items'],
      [{ items: [line(8, -1)] }, 'items'],
      [{ items: [line('8\u0000')] }, 'detail'],
    ]
    for (const [body, field] of cases) {
      const response = await put(tokens.pedro, body)
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(response.json, JSON.stringify(body).slice(0, 80)).toHaveProperty(field)
    }
    expect((await api.get('/cart/', { token: tokens.pedro })).json.items).toEqual([{ product_id: 8, quantity: 1 }])
  })

  it('holds 20 lines at most in the database too', async () => {
    const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
    const lines = JSON.stringify(Array.from({ length: 21 }, (_, index) => ({ product_id: index + 1, quantity: 1 })))
    await expect(database.db.execute(sql`INSERT INTO carts (user_id, lines) VALUES (${user!.id}, ${lines}::jsonb)`)).rejects.toThrow()
  })

  it('answers 405 to other methods', async () => {
    expect((await api.post('/cart/', { items: [] }, { token: tokens.pedro })).status).toBe(405)
  })
})
