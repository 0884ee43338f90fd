import { http, HttpResponse, delay } from 'msw'
import { afterAll, describe, expect, test, vi } from 'vitest'
import type { RequestContext } from '#app/http/request-context.server.ts'
// The mock provider the setup file started: imported before the modules are renewed below.
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'

// Read by the first getEnv() of this file: the modules below are imported afresh (test files share
// a worker's modules), and again after it for the files that follow. Reads time out after 200 ms,
// writes after the setup's 1000 ms.
const saved = { read: process.env.PROVIDER_READ_TIMEOUT_MS, secret: process.env.PROVIDER_FORWARDING_SECRET }
process.env.PROVIDER_READ_TIMEOUT_MS = '200'
process.env.PROVIDER_FORWARDING_SECRET = 'forwarding-secret-for-the-tests-0123456789'
vi.resetModules()
afterAll(() => {
  for (const [name, value] of [['PROVIDER_READ_TIMEOUT_MS', saved.read], ['PROVIDER_FORWARDING_SECRET', saved.secret]] as const) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  vi.resetModules()
})

const { requestContextStorage } = await import('#app/http/request-context.server.ts')
const { providerFetch } = await import('#app/provider/fetch.server.ts')
const { ProviderError, messageForFailure } = await import('#app/provider/errors.ts')
const { loader: rootLoader } = await import('#app/root.tsx')
const { run } = await import('#tests/mocks/route.ts')
const { demoPatient, fakeJwt, sessionCookie, sessionFrom } = await import('#tests/mocks/session.ts')

const SLOWER_THAN_A_READ_MS = 500

/** Counts the calls each path receives; `slow` paths answer after the read timeout. */
function provider({ slow = [] as string[] } = {}) {
  const calls: Record<string, number> = {}
  const answer = async (path: string) => {
    calls[path] = (calls[path] ?? 0) + 1
    if (slow.includes(path)) await delay(SLOWER_THAN_A_READ_MS)
    return HttpResponse.json({ ok: true })
  }
  providerMock.use(
    http.get(providerUrl('/slow/'), () => answer('/slow/')),
    http.post(providerUrl('/slow/'), () => answer('/slow/')),
    http.get(providerUrl('/other/'), () => answer('/other/')),
    http.post(providerUrl('/other/'), () => answer('/other/')),
  )
  return calls
}

const newContext = (): RequestContext => ({ requestId: 'r-1', providerTimings: [] })

async function failure(promise: Promise<unknown>) {
  try {
    await promise
    return 'ok'
  } catch (error) {
    return error instanceof ProviderError && error.isNetwork ? 'network' : error
  }
}

describe('provider timeouts', () => {
  test('a read gives up after PROVIDER_READ_TIMEOUT_MS; a write waits up to PROVIDER_TIMEOUT_MS', async () => {
    provider({ slow: ['/slow/'] })
    expect(await failure(providerFetch('/slow/'))).toBe('network')
    expect(await failure(providerFetch('/slow/', { method: 'POST', json: {} }))).toBe('ok')
  })
})

/**
 * Every fault mode of the browser fault suite (e2e-faults/fixtures.ts), and the docs/product.md §8 message it
 * becomes, for a read and a write. That suite puts each page and form through one mode per fault
 * class, in rotation: the mapping of every single mode is proved here.
 */
describe('each fault mode of the fault suite, and the message it becomes', () => {
  const json = { 'Content-Type': 'application/json' }
  const network = { key: 'errors.network' }
  const badGateway = { key: 'errors.otherStatus', values: { status: 502, message: 'Bad Gateway' } }
  const modes: [string, () => Response | Promise<Response>, unknown][] = [
    ['connection refused', () => HttpResponse.error(), network],
    [
      // The answer begun, then the connection gone: reading the body fails.
      'socket destroyed',
      () => new HttpResponse(new ReadableStream({ start: (controller) => controller.error(new Error('socket hang up')) }), { headers: json }),
      network,
    ],
    [
      'slower than the timeout', // longer than the write timeout (1000 ms here), so than the read one too
      async () => {
        await delay(1_200)
        return HttpResponse.json({ ok: true })
      },
      network,
    ],
    ['500', () => HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 }), { key: 'errors.server' }],
    ['malformed JSON', () => new HttpResponse('{"id": 1, "username": "paula", "email": ', { headers: json }), badGateway],
    ['HTML instead of JSON', () => new HttpResponse('<!doctype html><title>Gateway</title><h1>Please sign in to the Wi-Fi</h1>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } }), badGateway],
  ]

  test.each(modes)('%s', async (_name, answer, message) => {
    providerMock.use(http.get(providerUrl('/fault/'), answer), http.post(providerUrl('/fault/'), answer))
    const outcomes = await Promise.all(
      [providerFetch('/fault/'), providerFetch('/fault/', { method: 'POST', json: {} })].map((call) =>
        call.then(
          () => 'ok',
          (error: unknown) => (error instanceof ProviderError ? messageForFailure(error.failure) : error),
        ),
      ),
    )
    expect(outcomes).toEqual([message, message])
  })
})

describe('one unreachable provider per visitor request', () => {
  test('after a call timed out, the next calls of the same request fail at once without reaching the provider', async () => {
    const calls = provider({ slow: ['/slow/'] })
    const context = newContext()
    const outcomes = await requestContextStorage.run(context, async () => [
      await failure(providerFetch('/slow/')),
      await failure(providerFetch('/other/')),
      await failure(providerFetch('/other/', { method: 'POST', json: {} })),
    ])
    expect(outcomes).toEqual(['network', 'network', 'network'])
    expect(calls).toEqual({ '/slow/': 1 })
    expect(context.providerUnreachable).toBe(true)
  })

  test('a refused connection counts too', async () => {
    const calls = provider()
    providerMock.use(http.get(providerUrl('/down/'), () => HttpResponse.error()))
    const outcomes = await requestContextStorage.run(newContext(), async () => [await failure(providerFetch('/down/')), await failure(providerFetch('/other/'))])
    expect(outcomes).toEqual(['network', 'network'])
    expect(calls).toEqual({})
  })

  test('another request (its own context) tries again', async () => {
    const calls = provider({ slow: ['/slow/'] })
    await requestContextStorage.run(newContext(), () => failure(providerFetch('/slow/')))
    expect(await requestContextStorage.run(newContext(), () => failure(providerFetch('/other/')))).toBe('ok')
    expect(calls).toEqual({ '/slow/': 1, '/other/': 1 })
  })

  test("the caller's own abort (the visitor left) is not a provider failure", async () => {
    const calls = provider({ slow: ['/slow/'] })
    const context = newContext()
    await requestContextStorage.run(context, async () => {
      const controller = new AbortController()
      const pending = failure(providerFetch('/slow/', { signal: controller.signal }))
      controller.abort()
      expect(await pending).not.toBe('ok')
      expect(await failure(providerFetch('/other/'))).toBe('ok')
    })
    expect(context.providerUnreachable).toBeUndefined()
    expect(calls['/other/']).toBe(1)
  })

  test('docs/product.md §4: a refresh that times out keeps the session, and the user fetch after it does not wait again', async () => {
    let me = 0
    providerMock.use(
      http.post(providerUrl('/authentication/token/refresh/'), async () => {
        await delay(1_500) // longer than the write timeout
        return HttpResponse.json({ access: fakeJwt(300) })
      }),
      http.get(providerUrl('/users/me/'), () => {
        me += 1
        return HttpResponse.json(demoPatient)
      }),
    )
    const cookie = await sessionCookie({ access: fakeJwt(-5), refresh: fakeJwt(3600), user: demoPatient })
    const result = await requestContextStorage.run(newContext(), () => run(rootLoader, new Request('http://app.test/', { headers: { Cookie: cookie } })))
    expect(me).toBe(0)
    // Nothing cleared: a network failure keeps the stored session.
    expect((await sessionFrom(result))?.cleared ?? false).toBe(false)
    expect((result.data as { user: unknown }).user).not.toBeNull()
  })
})

describe("the visitor's address", () => {
  test('goes to the provider with the forwarding secret that vouches for it', async () => {
    const seen: { forwardedFor: string | null; secret: string | null }[] = []
    providerMock.use(
      http.get(providerUrl('/other/'), ({ request }) => {
        seen.push({ forwardedFor: request.headers.get('x-forwarded-for'), secret: request.headers.get('x-forwarding-secret') })
        return HttpResponse.json({})
      }),
    )
    await requestContextStorage.run({ ...newContext(), clientAddress: '203.0.113.9' }, () => providerFetch('/other/'))
    await providerFetch('/other/')
    expect(seen).toEqual([
      { forwardedFor: '203.0.113.9', secret: 'forwarding-secret-for-the-tests-0123456789' },
      // No visitor (a call outside any request): nothing to vouch for.
      { forwardedFor: null, secret: null },
    ])
  })
})
