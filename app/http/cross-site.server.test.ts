import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import express from 'express'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { languageCookie } from '#app/i18n/detection.server.ts'
import { providerMock } from '#tests/mocks/provider.ts'
import { refuseCrossSiteWrites } from './cross-site.server.ts'

/**
 * The cross-site write check as the HTTP server runs it, over a real socket (msw set aside for
 * this file), in front of Remix's own request handler with a one-route build: what the check lets
 * through, Remix's action check (which throws, a 500 and an error line, on an Origin that is not
 * the Host) accepts; what it refuses is a 403 in the visitor's language, before Remix.
 */

const actions: string[] = []
const remixErrors: string[] = []
const build = {
  mode: 'production',
  entry: {
    module: {
      default: (_request: Request, status: number) => new Response('the page', { status, headers: { 'Content-Type': 'text/html' } }),
      // What entry.server.tsx does with a thrown error: an error line (and Remix answers 500).
      handleError: (error: unknown) => void remixErrors.push(String(error)),
    },
  },
  routes: {
    root: {
      id: 'root',
      path: '',
      module: {
        action: () => {
          actions.push('ran')
          return null
        },
        default: () => null,
      },
    },
  },
  assets: {
    entry: { imports: [], module: '' },
    routes: { root: { id: 'root', module: '', hasAction: true, hasLoader: false, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: false, imports: [] } },
    url: '',
    version: '1',
  },
  publicPath: '/',
  assetsBuildDirectory: 'build/client',
  future: { v3_singleFetch: true },
  isSpaMode: false,
} as unknown as ServerBuild

let server: http.Server
let port: number
const PUBLIC = 'http://localhost:3000'

beforeAll(async () => {
  providerMock.close()
  const handleRemix = createRequestHandler(build, 'production')
  const app = express()
  // As app/http/server.ts: a trusted proxy (here the loopback, when the test says so) may name the host.
  app.set('trust proxy', 'loopback')
  app.use(refuseCrossSiteWrites({ publicOrigin: PUBLIC, requestHost: (req) => (req.get('x-trusted') ? req.get('x-forwarded-host') : undefined) || req.get('host') || 'localhost' }))
  app.all('*', async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const response = await handleRemix(new Request(new URL(req.originalUrl, `http://${req.get('host')}`), { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) }))
    res.status(response.status).send(await response.text())
  })
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  providerMock.listen({ onUnhandledRequest: 'error' })
})
beforeEach(() => {
  actions.length = 0
  remixErrors.length = 0
})

/** A form post with exactly these headers (fetch would not send another Host). */
function post(path: string, headers: Record<string, string>): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'], body }))
    })
    request.on('error', reject)
    request.end('email=a%40b.test&password=x')
  })
}

describe('a write whose Origin is not this site', () => {
  test("the report's: the public origin posted to the app's own address is a 403 with the error catalogue's text, before Remix, no error logged", async () => {
    const refused = await post('/auth?mode=login', { Host: '127.0.0.1:3000', Origin: PUBLIC })
    expect(refused).toEqual({ status: 403, type: 'text/plain; charset=utf-8', body: 'Acesso negado. Você não tem permissão para este recurso.' })
    expect(actions).toEqual([])
    expect(remixErrors).toEqual([])
  })

  test("in the visitor's language: ?lng=, the language cookie, Accept-Language, as the pages choose it", async () => {
    const headers = { Host: '127.0.0.1:3000', Origin: 'https://evil.example' }
    expect((await post('/auth?mode=login&lng=en', headers)).body).toBe('Access denied. You do not have permission for this resource.')
    expect((await post('/contato', { ...headers, Cookie: await languageCookie().serialize('es') })).body).toBe('Acceso denegado. No tienes permiso para este recurso.')
    expect((await post('/contato', { ...headers, 'Accept-Language': 'en-GB,en;q=0.8' })).body).toBe('Access denied. You do not have permission for this resource.')
    expect((await post('/contato', { ...headers, 'Accept-Language': 'de' })).body).toBe('Acesso negado. Você não tem permissão para este recurso.')
    expect(actions).toEqual([])
  })
})

describe('what passes the check reaches the action, and Remix never refuses it', () => {
  test.each([
    ['this site', { Host: 'localhost:3000', Origin: PUBLIC }],
    ['no Origin (an older browser), same-origin by Sec-Fetch-Site', { Host: 'localhost:3000', 'Sec-Fetch-Site': 'same-origin' }],
    ['a trusted proxy naming the public host', { Host: '10.0.0.5:3000', 'X-Forwarded-Host': 'localhost:3000', 'X-Trusted': '1', Origin: PUBLIC }],
    ['a proxy not configured as trusted, naming the public host', { Host: '10.0.0.5:3000', 'X-Forwarded-Host': 'localhost:3000', Origin: PUBLIC }],
  ])('%s', async (_name, headers) => {
    expect((await post('/?index', headers)).status).toBe(200)
    expect(actions).toEqual(['ran'])
    expect(remixErrors).toEqual([])
  })

  test('and every other mix of Origin, Host and X-Forwarded-Host is refused here, never a 500', async () => {
    const origins = [PUBLIC, 'http://127.0.0.1:3000', 'https://evil.example', 'null', 'not a url']
    const hosts = ['localhost:3000', '127.0.0.1:3000', '10.0.0.5:3000']
    const forwarded = [undefined, 'localhost:3000', 'evil.example']
    for (const Origin of origins) {
      for (const Host of hosts) {
        for (const forwardedHost of forwarded) {
          for (const trusted of [false, true]) {
            const headers: Record<string, string> = { Host, Origin, ...(forwardedHost ? { 'X-Forwarded-Host': forwardedHost } : {}), ...(trusted ? { 'X-Trusted': '1' } : {}) }
            const { status } = await post('/?index', headers)
            expect([200, 403], JSON.stringify(headers)).toContain(status)
          }
        }
      }
    }
    expect(remixErrors).toEqual([])
  })
})
