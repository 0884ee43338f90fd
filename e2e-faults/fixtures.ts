import { type BrowserContext, type Page, test as base, expect } from '@playwright/test'
import { createCookieSessionStorage } from '@remix-run/node'
import { type FaultMode, type FaultProxy, type FaultTarget } from './support/fault-proxy.ts'
import { acceptNecessaryCookies } from '../e2e/support/sign-in.ts'
import { BEYOND_TIMEOUT_MS, type FaultInstance, SESSION_SECRET, startFaultInstance } from './support/instance.ts'

export { DEMO_PASSWORD, demoAccounts as accounts, loginAs } from '../e2e/support/sign-in.ts'

/** docs/product.md §8 texts as the app shows them in Portuguese. */
export const messages = {
  network: 'Erro de conexão. Verifique sua internet e configurações.',
  sessionExpired: 'Sessão expirada. Faça login novamente.',
  server: 'Erro interno do servidor',
  badGateway: 'Erro 502: Bad Gateway',
  forbidden: 'Acesso negado',
} as const

/**
 * The fault classes, each with its modes. A page or form is put through each class once, with one
 * of its modes chosen in rotation (`oneOf`), so that across the suite every mode is still hit
 * several times while no page or form loops over all of them: which message each single mode
 * becomes is proved against msw in tests/provider-fetch.test.ts. Test titles name the mode used.
 */
export type Fault = { name: string; mode: FaultMode }
export type BadAnswer = Fault & { message: string }

/** The provider out of reach: the network message, the session kept. */
export const networkFaults: Fault[] = [
  { name: 'connection refused', mode: { kind: 'refused' } },
  { name: 'socket destroyed', mode: { kind: 'down' } },
  { name: 'slower than the timeout', mode: { kind: 'slow', delayMs: BEYOND_TIMEOUT_MS } },
]
/**
 * The network faults that fail at once. 'Slow' is left out where the request is only abandoned by
 * the app, not by the proxy: the write would then still reach the provider after the test moved on
 * (and it is the server's case, checked with JavaScript off).
 */
export const quickNetworkFaults: Fault[] = networkFaults.filter(({ mode }) => mode.kind !== 'slow')

/** The provider answering nonsense: the message of each. */
export const badAnswerFaults: BadAnswer[] = [
  { name: '500', mode: { kind: 'status', status: 500 }, message: messages.server },
  { name: 'malformed JSON', mode: { kind: 'malformed-json' }, message: messages.badGateway },
  { name: 'HTML instead of JSON', mode: { kind: 'html' }, message: messages.badGateway },
]

/** A storm of 401s (the refresh too): the session ends, with the session-expired message. */
export const unauthorizedFault: Fault = { name: '401 storm', mode: { kind: 'unauthorized' } }

/** The item for the `index`-th page or form of a list: the modes of a class in rotation. */
export function oneOf<T>(list: readonly T[], index: number): T {
  if (list.length === 0) throw new Error('oneOf: an empty list')
  return list[((index % list.length) + list.length) % list.length]!
}

type WorkerFixtures = { instance: FaultInstance }
type TestFixtures = {
  /** Not `proxy`: that name is Playwright's own option (the browser's proxy). */
  faultProxy: FaultProxy
  /** Switches the proxy's fault for the rest of the test (it is reset to pass-through afterwards). */
  fault: (mode: FaultMode, target?: FaultTarget) => Promise<void>
  /** Checked after every test: no token seen by the proxy in any page response or log line. */
  noTokenLeaks: void
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Playwright's fixture callback is called `provide` here: eslint's React rules take `use` for React's.
  instance: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a function asks for from this pattern
    async ({}, provide) => {
      const instance = await startFaultInstance()
      await provide(instance)
      await instance.close()
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ instance }, provide) => provide(instance.baseURL),
  faultProxy: async ({ instance }, provide) => {
    await instance.proxy.reset()
    await provide(instance.proxy)
    await instance.proxy.reset()
  },
  fault: async ({ faultProxy }, provide) => provide((mode, target) => faultProxy.set(mode, target)),
  context: async ({ context, baseURL }, provide) => {
    await acceptNecessaryCookies(context, baseURL!)
    await provide(context)
  },
  noTokenLeaks: [
    async ({ context, instance }, provide) => {
      const bodies: { url: string; body: Promise<string> }[] = []
      context.on('response', (response) => {
        const type = response.headers()['content-type'] ?? ''
        if (/html|javascript|json|text\/plain|x-script/.test(type) || response.url().includes('.data')) {
          bodies.push({ url: response.url(), body: response.text().catch(() => '') })
        }
      })
      await provide()
      const tokens = [...instance.proxy.tokens]
      for (const { url, body } of bodies) {
        const text = await body
        for (const token of tokens) expect(text.includes(token), `a token in ${url}`).toBe(false)
      }
      const logs = instance.logs()
      for (const token of tokens) expect(logs.includes(token), 'a token in the app or provider logs').toBe(false)
      // Any JWT-shaped string at all, in case a token never passed the proxy (e.g. one the app forged).
      expect(logs).not.toMatch(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}/)
    },
    { auto: true },
  ],
})
export { expect }

export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === '__session')
}

/** The session as stored in the cookie (signed, not encrypted: base64 JSON before the first '.'). */
export async function sessionData(context: BrowserContext): Promise<{ access?: string; refresh?: string; user?: { email: string } } | null> {
  const cookie = await sessionCookie(context)
  if (!cookie?.value) return null
  const payload = decodeURIComponent(cookie.value).split('.')[0]!
  try {
    return JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { access?: string; refresh?: string }
  } catch {
    return null
  }
}

const storage = createCookieSessionStorage({
  cookie: { name: '__session', httpOnly: true, sameSite: 'lax', path: '/', secure: true, secrets: [SESSION_SECRET] },
})

/** A JWT-shaped token (unsigned) that expired a minute ago: the app only reads its exp claim. */
export function expiredToken() {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ token_type: 'access', exp: Math.floor(Date.now() / 1000) - 60, user_id: 1 })}.c2lnbmF0dXJl`
}

/** Rewrites the session cookie, signed with the suite's secret. */
async function rewriteSession(context: BrowserContext, baseURL: string, change: (session: Awaited<ReturnType<typeof storage.getSession>>) => void) {
  const cookie = await sessionCookie(context)
  if (!cookie) throw new Error('not signed in')
  const session = await storage.getSession(`__session=${cookie.value}`)
  change(session)
  const header = await storage.commitSession(session)
  const value = header.split(';')[0]!.slice('__session='.length)
  await context.addCookies([{ name: '__session', value, url: baseURL, httpOnly: true, secure: true, sameSite: 'Lax' }])
}

/** As if the access token had expired. */
export const expireAccessToken = (context: BrowserContext, baseURL: string) => rewriteSession(context, baseURL, (session) => session.set('access', expiredToken()))

/** As if the stored user had been confirmed more than a minute ago: the next page asks /users/me/ again. */
export const staleUserCheck = (context: BrowserContext, baseURL: string) => rewriteSession(context, baseURL, (session) => session.unset('userCheckedAt'))

/** The header's account menu: present exactly when the page was rendered for a signed-in user. */
export function accountMenu(page: Page) {
  return page.locator('summary[aria-label^="Menu da conta de"]')
}
