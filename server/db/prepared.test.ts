import { describe, expect, it, vi } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { preparedQuery } from '#server/db/prepared.ts'

describe('preparedQuery', () => {
  it('prepares once per database and reuses it', () => {
    const build = vi.fn((db: Database) => ({ db }))
    const query = preparedQuery(build)
    const [first, second] = [{} as Database, {} as Database]
    expect(query(first)).toBe(query(first))
    expect(query(second).db).toBe(second)
    expect(build).toHaveBeenCalledTimes(2)
  })
})
