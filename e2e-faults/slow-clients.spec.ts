import net from 'node:net'
import { test as base, expect } from '@playwright/test'
import { type FaultInstance, startFaultInstance } from './support/instance.ts'

/**
 * Slow clients, with real sockets (decision 0038): bodies and headers that trickle in, and one
 * address opening many connections. The app here has small limits so that the attack is cheap:
 * 4 render slots, 2 s for headers and for a form's body, 6 connections per address. The visitor
 * asking for the home page connects from 127.0.0.1; the slow ones from other loopback addresses
 * (127.0.0.0/8 is all this machine's), each its own "place".
 */
const RENDER_SLOTS = 4
const PER_ADDRESS = 6
const test = base.extend<object, { slowApp: FaultInstance }>({
  slowApp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from this pattern
    async ({}, use) => {
      const instance = await startFaultInstance({
        appEnv: {
          APP_MAX_CONCURRENT_REQUESTS: String(RENDER_SLOTS),
          APP_HEADERS_TIMEOUT_MS: '2000',
          APP_BODY_TIMEOUT_MS: '2000',
          APP_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
        },
      })
      await use(instance)
      await instance.close()
    },
    { scope: 'worker' },
  ],
})

test.describe.configure({ mode: 'default' })

type Client = { socket: net.Socket; answer: Promise<string>; closed: Promise<void> }

/** A connection from `localAddress` to the app, collecting what comes back until it closes. */
function connect(baseURL: string, localAddress: string): Promise<Client> {
  const { port } = new URL(baseURL)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress }, () => {
      let received = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => (received += chunk))
      const closed = new Promise<void>((done) => socket.once('close', () => done()))
      resolve({ socket, answer: closed.then(() => received), closed })
    })
    socket.once('error', reject)
  })
}

/** Starts a form post that declares 1,000 bytes and then sends one every half second. */
async function tricklingPost(baseURL: string, localAddress: string, path: string) {
  const client = await connect(baseURL, localAddress)
  client.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n`,
  )
  const drip = setInterval(() => client.socket.writable && client.socket.write('a'), 500)
  client.closed.finally(() => clearInterval(drip))
  return client
}

async function homePageAnswers(baseURL: string) {
  const response = await fetch(`${baseURL}/`, { signal: AbortSignal.timeout(60_000) })
  return response.status
}

test('bodies that trickle in never hold a render slot, and are cut off within seconds', async ({ slowApp }) => {
  // Three times the render slots, from two places (each under its connection limit).
  const paths = ['/auth?mode=login', '/contato', '/resources/locale']
  const slow = await Promise.all(
    Array.from({ length: RENDER_SLOTS * 3 }, (_, index) =>
      tricklingPost(slowApp.baseURL, index % 2 === 0 ? '127.0.0.2' : '127.0.0.3', paths[index % paths.length]!),
    ),
  )
  // Let them all get their headers in and start trickling.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(await homePageAnswers(slowApp.baseURL)).toBe(200)
  // Each is answered 408 and closed once its body's time is up, long before Node's own 5 minutes.
  const answers = await Promise.all(slow.map((client) => client.answer))
  for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /)
})

test('headers that trickle in are cut off within seconds', async ({ slowApp }) => {
  const client = await connect(slowApp.baseURL, '127.0.0.4')
  client.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n')
  const drip = setInterval(() => client.socket.writable && client.socket.write('X-Slow: a\r\n'), 500)
  await client.closed.finally(() => clearInterval(drip))
  expect(await client.answer).toMatch(/^HTTP\/1\.1 408 /)
})

test('one address holds a bounded number of connections; the next is refused at once, the others still served', async ({ slowApp }) => {
  const held = await Promise.all(Array.from({ length: PER_ADDRESS }, () => connect(slowApp.baseURL, '127.0.0.5')))
  const refused = await connect(slowApp.baseURL, '127.0.0.5')
  expect(await refused.answer).toMatch(/^HTTP\/1\.1 503 /)
  // Those held are served as usual, and someone else is not affected.
  const first = held[0]!
  first.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
  expect(await first.answer).toMatch(/^HTTP\/1\.1 200 /)
  expect(await homePageAnswers(slowApp.baseURL)).toBe(200)
  for (const client of held) client.socket.destroy()
})
