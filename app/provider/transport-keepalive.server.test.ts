import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { providerMock } from '#tests/mocks/provider.ts'
import { exchange } from './transport.server.ts'

/**
 * Against a real loopback server (msw set aside for this file): a kept-alive connection the server
 * drops as it is reused costs the caller nothing; a new connection that fails is a failure.
 */
describe('the provider exchange over kept-alive connections', () => {
  let server: http.Server
  let base: URL
  const seen: { method: string; reused: boolean }[] = []
  let dropAll = false

  beforeAll(async () => {
    providerMock.close()
    const requestsOn = new WeakMap<object, number>()
    server = http.createServer((req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1
      requestsOn.set(req.socket, count)
      seen.push({ method: req.method ?? '', reused: count > 1 })
      req.resume()
      req.on('end', () => {
        // What a server closing an idle connection looks like from the client: no answer at all.
        if (dropAll || count > 1) return void req.socket.destroy()
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ ok: true }))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    providerMock.listen({ onUnhandledRequest: 'error' })
  })

  test('a reused connection dropped before any answer is tried once more, on a new one', async () => {
    const call = (method: string) => exchange(new URL('things/', base), { method, headers: { 'Content-Type': 'application/json' }, body: method === 'POST' ? '{}' : undefined, timeoutMs: 2_000 })
    expect((await call('GET')).status).toBe(200)
    expect((await call('POST')).status).toBe(200)
    expect(seen).toEqual([
      { method: 'GET', reused: false },
      { method: 'POST', reused: true },
      { method: 'POST', reused: false },
    ])
  })

  test('a new connection that fails is not tried again', async () => {
    dropAll = true
    seen.length = 0
    const pending = exchange(new URL('things/', `http://127.0.0.1:${base.port}`), { method: 'GET', headers: { Connection: 'close' }, timeoutMs: 2_000 })
    await expect(pending).rejects.toMatchObject({ code: 'ECONNRESET' })
    expect(seen.filter((request) => !request.reused).length).toBeGreaterThanOrEqual(1)
    dropAll = false
  })
})
