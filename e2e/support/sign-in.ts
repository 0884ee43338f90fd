import { type BrowserContext, type Page, expect } from '@playwright/test'

/**
 * Signing in and the cookie choice, shared by both browser suites (e2e/fixtures.ts and
 * e2e-faults/fixtures.ts): each starts its pages signed in the same way.
 */

/** The seeded demo accounts' password (README, "Demo accounts"). */
export const DEMO_PASSWORD = 'innera-demo-2025'

export const demoAccounts = {
  admin: 'admin@innera.local',
  profissional: 'profissional@innera.local',
  nutricionista: 'nutricionista@innera.local',
  paciente: 'paciente@innera.local',
  /** Mariana: a patient of her own for the tests that change data the others read. */
  paciente2: 'paciente2@innera.local',
} as const

/** Signs in through the real form endpoint (no UI), the cookies landing in the page's context. */
export async function loginAs(page: Page, email: string, password = DEMO_PASSWORD) {
  const response = await page.request.post('/auth?mode=login', { form: { email, password }, maxRedirects: 0 })
  if (response.status() === 303) return
  // What the sign-in page said (wrong password, provider out of reach, throttled), so a failure
  // names its cause.
  const html = await response.text().catch(() => '')
  const alerts = [...html.matchAll(/role="alert"[^>]*>([\s\S]*?)<\/(?:div|p|span)>/g)].map(([, text]) => text!.replace(/<[^>]+>/g, '').trim()).filter(Boolean)
  expect(response.status(), `login as ${email}: ${alerts.join(' | ') || html.slice(0, 300)}`).toBe(303)
}

/** A necessary-only consent, so the cookie banner stays out of the way of tests about other things. */
export async function acceptNecessaryCookies(context: BrowserContext, baseURL: string) {
  const consent = { necessary: true, preferences: false, analytics: false, marketing: false, consented: true, timestamp: new Date().toISOString(), version: '1.0' }
  await context.addCookies([{ name: 'innera_consent', value: encodeURIComponent(JSON.stringify(consent)), url: baseURL }])
}
