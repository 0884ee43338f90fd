import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PILLAR_DISPLAY_TTL_MS, pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { demoPillars, providerMock, providerUrl } from '#tests/mocks/provider.ts'

/** The pillar names and icons beside other content come from a short-lived copy per process (decision 0030). */
describe('pillarsForDisplay', () => {
  let calls = 0
  let answer: () => Response = () => HttpResponse.json(demoPillars)
  beforeEach(() => {
    calls = 0
    answer = () => HttpResponse.json(demoPillars)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-25T12:00:00Z'))
    providerMock.use(
      http.get(providerUrl('/pillars/'), () => {
        calls += 1
        return answer()
      }),
    )
  })
  afterEach(() => vi.useRealTimers())

  it('reads once for concurrent requests, then answers from the copy until it is a minute old', async () => {
    const [first, second] = await Promise.all([pillarsForDisplay(), pillarsForDisplay()])
    expect(first.map((pillar) => pillar.slug)).toEqual(demoPillars.map((pillar) => pillar.slug))
    expect(second).toBe(first)
    expect(calls).toBe(1)
    vi.setSystemTime(Date.now() + PILLAR_DISPLAY_TTL_MS - 1)
    expect(await pillarsForDisplay()).toBe(first)
    expect(calls).toBe(1)
  })

  it('answers a stale copy at once and refreshes it behind; the next request gets the new one', async () => {
    await pillarsForDisplay()
    answer = () => HttpResponse.json(demoPillars.map((pillar) => ({ ...pillar, name: { ...pillar.name, pt: `${pillar.name.pt}!` } })))
    vi.setSystemTime(Date.now() + PILLAR_DISPLAY_TTL_MS)
    expect((await pillarsForDisplay())[0]!.name.pt).toBe('Gestão do estresse')
    await vi.waitFor(async () => expect((await pillarsForDisplay())[0]!.name.pt).toBe('Gestão do estresse!'))
    expect(calls).toBe(2)
  })

  it('keeps the stale copy when the refresh fails; with no copy, the failure reaches the page', async () => {
    answer = () => HttpResponse.json({ detail: 'down' }, { status: 503 })
    await expect(pillarsForDisplay()).rejects.toThrow()
    answer = () => HttpResponse.json(demoPillars)
    const kept = await pillarsForDisplay()
    answer = () => HttpResponse.json({ detail: 'down' }, { status: 503 })
    vi.setSystemTime(Date.now() + PILLAR_DISPLAY_TTL_MS + 1)
    expect(await pillarsForDisplay()).toBe(kept)
    await vi.waitFor(() => expect(calls).toBe(3))
    expect(await pillarsForDisplay()).toBe(kept)
  })
})
