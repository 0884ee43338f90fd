import { http, HttpResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { demoPillars, providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { listPillars } from './pillars.server.ts'

describe('listPillars', () => {
  it('keeps the list for five minutes, then reads it again', async () => {
    let reads = 0
    providerMock.use(
      http.get(providerUrl('/pillars/'), () => {
        reads += 1
        return HttpResponse.json(demoPillars)
      }),
    )
    const start = Date.UTC(2026, 10, 23, 12)
    expect(await listPillars(start)).toHaveLength(demoPillars.length)
    await listPillars(start + 4 * 60 * 1000)
    expect(reads).toBe(1)
    await listPillars(start + 5 * 60 * 1000)
    expect(reads).toBe(2)
  })

  it('does not keep a failed read', async () => {
    providerMock.use(http.get(providerUrl('/pillars/'), () => HttpResponse.json({ detail: 'down' }, { status: 500 }), { once: true }))
    const now = Date.UTC(2026, 10, 23, 12)
    await expect(listPillars(now)).rejects.toThrow()
    expect(await listPillars(now + 1000)).toHaveLength(demoPillars.length)
  })
})
