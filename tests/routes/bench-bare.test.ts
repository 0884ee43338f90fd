import { afterEach, describe, expect, test, vi } from 'vitest'

/** The route reads the environment once per process: each case loads it afresh. */
async function benchBareLoader(value: string | undefined) {
  vi.resetModules()
  vi.stubEnv('APP_BENCH_ROUTES', value)
  const { loader } = await import('#app/routes/bench.bare.tsx')
  return loader
}

describe('/bench/bare', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  test('is an unknown page unless the bench asks for it', async () => {
    for (const value of [undefined, 'off']) {
      const loader = await benchBareLoader(value)
      const thrown = await Promise.resolve().then(loader).catch((error: unknown) => error)
      expect(thrown, String(value)).toBeInstanceOf(Response)
      expect((thrown as Response).status).toBe(404)
    }
  })

  test('is served with APP_BENCH_ROUTES=on', async () => {
    const loader = await benchBareLoader('on')
    expect(loader()).toBeNull()
  })
})
