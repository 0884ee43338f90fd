import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, type Browser, type BrowserContextOptions, test as base, expect, type Page } from '@playwright/test'
import { DEMO_PASSWORD, acceptNecessaryCookies, demoAccounts, loginAs } from './support/sign-in.ts'

export { DEMO_PASSWORD, acceptNecessaryCookies, demoAccounts, loginAs } from './support/sign-in.ts'

export const providerUrl = `http://127.0.0.1:${process.env.E2E_PROVIDER_PORT}`

/**
 * axe with the WCAG 2.1 AA rules; the test fails on any violation, listing them. Every rule runs on
 * every node, in two ways cheaper than the builder's defaults (decision 0069): only violations are
 * reported in full (axe otherwise builds a selector for every node that passed), and the run
 * happens in the page itself (legacy mode) instead of finishing in a blank page the builder opens
 * for every scan, a renderer started and closed each time. The legacy mode would miss
 * cross-origin frames; the app's pages have none.
 */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze()
  const summary = results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
  expect(summary, 'axe violations').toEqual([])
}

/** A node of the DevTools protocol's DOM tree, as far as timeInputFields reads it. */
type DomNode = { nodeName: string; nodeValue: string; backendNodeId: number; attributes?: string[]; children?: DomNode[]; shadowRoots?: DomNode[] }

/**
 * What each visible time input of the page shows, and whether the input's box cuts it off.
 * Chromium draws the hour, minutes and AM/PM in the input's own (user-agent) shadow tree and
 * clips them to the room left beside the picker icon without any overflow a page can see (the
 * input's scrollWidth equals its clientWidth), so the boxes are read through the DevTools
 * protocol: the fields are cut off when they reach past the edit area that holds them.
 */
export async function timeInputFields(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode }
    const attribute = (node: DomNode, name: string) => node.attributes?.[node.attributes.indexOf(name) + 1] ?? null
    const descendants = (node: DomNode): DomNode[] => [...(node.children ?? []), ...(node.shadowRoots ?? [])].flatMap((child) => [child, ...descendants(child)])
    const right = async (node: DomNode) => {
      const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: node.backendNodeId })
      return Math.max(...model.border.filter((_, index) => index % 2 === 0))
    }
    const inputs = descendants(root).filter((node) => node.nodeName === 'INPUT' && attribute(node, 'type') === 'time')
    const shown: { id: string | null; text: string; cutOff: boolean }[] = []
    for (const input of inputs) {
      const inside = descendants(input)
      const edit = inside.find((node) => attribute(node, 'pseudo') === '-webkit-datetime-edit')
      const fields = inside.find((node) => attribute(node, 'pseudo') === '-webkit-datetime-edit-fields-wrapper')
      if (!edit || !fields) continue
      // A hidden input has no box: nothing of it shows, nothing is cut off.
      const [editRight, fieldsRight] = await Promise.all([right(edit), right(fields)]).catch(() => [null, null])
      if (editRight === null || fieldsRight === null) continue
      const text = descendants(fields).filter((node) => node.nodeName === '#text').map((node) => node.nodeValue).join('')
      shown.push({ id: attribute(input, 'id'), text, cutOff: fieldsRight > editRight + 0.5 })
    }
    return shown
  } finally {
    await cdp.detach()
  }
}

/** Waits until the page is hydrated (root.tsx marks <html>), before a click only JavaScript handles. */
export async function hydrated(page: Page) {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' })
}

/** Registers a new patient through the app and signs them in on this page's context. */
export async function registerFreshPatient(page: Page, label = 'teste') {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  // A person's name is letters (docs/product.md §5): the label's digits stay in the username only.
  const account = { name: `Pessoa ${label.replace(/[^\p{L}]/gu, '') || 'Teste'}`, username: `${label}${stamp}`, email: `${label}.${stamp}@example.com`, password: "caminhada-matinal-2025" }
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

/** The seeded content a walk edits through the admin's pages, kept as it was found. */
export type SeededContent = {
  /** A course's published fields (title, description, pillar, order, product) as they are now: published back after the test. */
  keepCourse: (slug: string) => Promise<void>
  /** A pillar's published texts (name, description) as they are now: published back after the test. */
  keepPillar: (slug: string) => Promise<void>
  /** A product's price as it is now: set back after the test. */
  keepProductPrice: (slug: string) => Promise<void>
}

/** An Authorization header of the seeded admin, signed in on the provider now. */
async function adminAuthorization(api: APIRequestContext) {
  const login = await api.post('/authentication/custom-login/', { data: { email: demoAccounts.admin, password: DEMO_PASSWORD } })
  expect(login.status(), 'admin login on the provider').toBe(200)
  return { Authorization: `Bearer ${((await login.json()) as { access: string }).access}` }
}

/**
 * Every test's page starts with the cookie choice made, unless it asks for `consent: false`. And
 * every test fails on an uncaught error in its pages (a failed hydration is one: React reports a
 * mismatch that way, then redraws the page and loses what was typed).
 *
 * `seeded` puts back the seeded content a test edits, through the provider's API after the test
 * whatever happened (a failed step, a timeout): a later test, or a retry, finds the seed's.
 */
export const test = base.extend<{ consent: boolean; seeded: SeededContent }>({
  seeded: async ({ playwright }, use) => {
    const api = await playwright.request.newContext({ baseURL: providerUrl })
    const restores: ((headers: Record<string, string>) => Promise<void>)[] = []
    const keep = (kind: 'courses' | 'pillars', fields: readonly string[]) => async (slug: string) => {
      const path = `/admin/content/${kind}/${encodeURIComponent(slug)}/`
      const found = await api.get(path, { headers: await adminAuthorization(api) })
      expect(found.status(), `${path} before the test`).toBe(200)
      const { published } = (await found.json()) as { published: Record<string, unknown> | null }
      expect(published, `${path} is published`).not.toBeNull()
      const body = Object.fromEntries(fields.map((field) => [field, published![field]]))
      restores.push(async (headers) => {
        // Publishing removes the draft the test may have left.
        const put = await api.post(`${path}publish/`, { headers, data: body })
        expect(put.status(), `${path} published back: ${await put.text()}`).toBe(200)
      })
    }
    const keepProductPrice = async (slug: string) => {
      const listed = await api.get('/products/', { params: { page_size: 100 } })
      expect(listed.status(), 'the products before the test').toBe(200)
      const product = ((await listed.json()) as { results: { id: number; slug: string; price_cents: number }[] }).results.find((item) => item.slug === slug)
      expect(product, `product ${slug}`).toBeDefined()
      restores.push(async (headers) => {
        const now = await api.get(`/products/${product!.id}/`)
        if (((await now.json()) as { price_cents: number }).price_cents === product!.price_cents) return
        const put = await api.patch(`/products/${product!.id}/`, { headers, data: { price_cents: product!.price_cents } })
        expect(put.status(), `${slug}'s price set back: ${await put.text()}`).toBe(200)
      })
    }
    await use({ keepCourse: keep('courses', ['title', 'description', 'pillar', 'sort_order', 'active', 'product_id']), keepPillar: keep('pillars', ['name', 'description']), keepProductPrice })
    if (restores.length) {
      const headers = await adminAuthorization(api)
      for (const restore of restores.reverse()) await restore(headers)
    }
    await api.dispose()
  },
  consent: [true, { option: true }],
  context: async ({ context, consent, baseURL }, use) => {
    if (consent) await acceptNecessaryCookies(context, baseURL!)
    const errors: string[] = []
    context.on('weberror', (error) => errors.push(`${error.page()?.url() ?? ''}: ${error.error().message}`))
    await use(context)
    expect(errors, 'uncaught errors in the pages').toEqual([])
  },
})
export { payConsultationByPix, payPixPurchase, waitUntilPaid } from './support/payments.ts'
export { expect }
