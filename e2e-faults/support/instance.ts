import { startInstance } from '../../bench/lib/instance.mjs'
import { FaultProxy } from './fault-proxy.ts'

/**
 * The app's provider timeout in this suite: the 'slow' fault waits longer than this. Generous
 * enough that a sign-in (a password hash) beside a CPU-bound load never reaches it.
 */
export const PROVIDER_TIMEOUT_MS = 5_000
/** A fault's hold that outlasts the app's timeout, with room for a busy machine's late timers. */
export const BEYOND_TIMEOUT_MS = PROVIDER_TIMEOUT_MS + 3_000
/** Known to the tests so that they can read and re-sign the (signed, not encrypted) session cookie. */
export const SESSION_SECRET = 'faults-suite-session-secret-long-enough-to-sign'
/** Shared by the app and the provider: the app vouches for the visitor's address with it. */
export const FORWARDING_SECRET = 'faults-suite-forwarding-secret-0123456789'

export type FaultInstance = Awaited<ReturnType<typeof startFaultInstance>>

/**
 * One worker's private product: the embedded provider (in-memory database), the fault proxy in
 * front of it, and the built app talking to the proxy. Every process's output goes to a file,
 * so the suite can check that no token ever reaches a log line.
 */
export async function startFaultInstance({ appEnv = {} }: { appEnv?: Record<string, string> } = {}) {
  const buildDir = process.env.FAULTS_BUILD_DIR
  if (!buildDir) throw new Error('FAULTS_BUILD_DIR is unset: run through playwright.faults.config.ts')
  let proxy: FaultProxy | undefined
  try {
    const instance = await startInstance({
      name: 'faults',
      buildDir,
      host: 'localhost',
      providerEnv: {
        PROVIDER_JWT_SECRET: 'faults-suite-provider-jwt-secret-long-enough',
        DEV_MAILBOX: 'on',
        PROVIDER_FORWARDING_SECRET: FORWARDING_SECRET,
        // Paid consultations are paid through the fake Stripe (its PIX page), as with `npm start`.
        FAKE_STRIPE: 'on',
      },
      appEnv: {
        PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS),
        SESSION_SECRET,
        // Left unset on purpose: in production the session cookie must then be Secure.
        SESSION_COOKIE_SECURE: '',
        // Unset on purpose too: a forged X-Forwarded-For must then never name the visitor (security.spec.ts).
        TRUST_PROXY: '',
        PROVIDER_FORWARDING_SECRET: FORWARDING_SECRET,
        // Every request and every provider call is logged: all of it is searched for tokens.
        LOG_LEVEL: 'debug',
        ...appEnv,
      },
      providerVia: async (providerURL) => {
        proxy = await FaultProxy.start(providerURL)
        return proxy.url
      },
    })
    const started = proxy!
    return {
      baseURL: instance.baseURL,
      providerURL: instance.providerURL,
      proxy: started,
      /** Everything the app and the provider have written so far. */
      logs() {
        return (['providerOut', 'providerErr', 'appOut', 'appErr'] as const).map((file) => instance.read(file)).join('\n')
      },
      async close() {
        await started.close()
        await instance.close()
      },
    }
  } catch (error) {
    await proxy?.close()
    throw error
  }
}
