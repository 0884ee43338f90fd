import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { client, createMemoryDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createMemoryDatabase()
})
afterAll(() => database.close())

describe('GET /healthz/ and Redis', () => {
  it('says nothing of Redis when the throttles count in memory', async () => {
    const response = await client(testApp(database.db, { env: { THROTTLE_DISABLED: '0' } })).get('/healthz/')
    expect(response).toMatchObject({ status: 200, json: { status: 'ok', database: 'ok' } })
    expect(response.json).not.toHaveProperty('redis')
  })

  it('reports an unreachable Redis as degraded, still 200: the throttles fall back to memory', async () => {
    // Nothing listens on port 1.
    const app = testApp(database.db, { env: { THROTTLE_DISABLED: '0', REDIS_URL: 'redis://127.0.0.1:1' } })
    try {
      expect(await client(app).get('/healthz/')).toMatchObject({ status: 200, json: { status: 'degraded', database: 'ok', redis: 'error' } })
    } finally {
      await app.services.throttle.close()
    }
  })
})
