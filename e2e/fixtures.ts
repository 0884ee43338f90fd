import AxeBuilder from '@axe-core/playwright'
import { type Browser, type BrowserContextOptions, test as base, expect, type Page } from '@playwright/test'
import { acceptNecessaryCookies, loginAs } from './support/sign-in.ts'

export { DEMO_PASSWORD, acceptNecessaryCookies, demoAccounts, loginAs } from './support/sign-in.ts'

export const providerUrl = `http://127.0.0.1:${process.env.E2E_PROVIDER_PORT}`

/** axe with the WCAG 2.1 AA rules; the test fails on any violation, listing them. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(summary, 'axe violations').toEqual([])
}

/** Waits until the page is hydrated (root.tsx marks <html>), before a click only JavaScript handles. */
export async function hydrated(page: Page) {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

/** Registers a new patient through the app and signs them in on this page's context. */
export async function registerFreshPatient(page: Page, label = 'teste') {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  const account = { name: `Pessoa ${label}`, username: `${label}${stamp}`, email: `${label}.${stamp}@example.com`, password: "caminhada-matinal-2025" }
  const response = await page.request.post('/auth?mode=register', {
    form: { name: account.name, username: account.username, email: account.email, password: account.password, confirmPassword: account.password, acceptTerms: 'on' },
    maxRedirects: 0,
  })
  expect(response.status(), 'registration').toBe(303)
  // Registration never signs in (decision 0010). The provider creates the account just after
  // answering; its mailbox answers once that is done, and then the new patient signs in.
  await mailboxFor(page, account.email)
  await loginAs(page, account.email, account.password)
  return account
}

/** The messages the embedded provider's development mailbox holds for an address, newest first. */
export async function mailboxFor(page: Page, to: string) {
  const response = await page.request.get(`${providerUrl}/dev/mailbox/messages/?to=${encodeURIComponent(to)}`)
  expect(response.ok()).toBe(true)
  const body = (await response.json()) as { results: { to: string; subject: string; text: string }[] }
  return body.results
}

/** browser.newContext with the consent already given (pass consent: false to see the banner). */
export async function newContext(browser: Browser, options: BrowserContextOptions & { consent?: boolean } = {}) {
  const { consent = true, ...rest } = options
  const context = await browser.newContext({ locale: 'pt-BR', ...rest, baseURL: rest.baseURL ?? `http://localhost:${process.env.E2E_APP_PORT}` })
  if (consent) await acceptNecessaryCookies(context, rest.baseURL ?? `http://localhost:${process.env.E2E_APP_PORT}`)
  return context
}

/**
 * Every test's page starts with the cookie choice made, unless it asks for `consent: false`. And
 * every test fails on an uncaught error in its pages (a failed hydration is one: React reports a
 * mismatch that way, then redraws the page and loses what was typed).
 */
export const test = base.extend<{ consent: boolean }>({
  consent: [true, { option: true }],
  context: async ({ context, consent, baseURL }, use) => {
    if (consent) await acceptNecessaryCookies(context, baseURL!)
    const errors: string[] = []
    context.on('weberror', (error) => errors.push(`${error.page()?.url() ?? ''}: ${error.error().message}`))
    await use(context)
    expect(errors, 'uncaught errors in the pages').toEqual([])
  },
})
export { expect }
