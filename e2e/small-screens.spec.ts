import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, registerFreshPatient, test } from './fixtures'

/**
 * Every page of the member area, the shop and the admin console at 360 px (issue 42, decision
 * 0080): none is wider than the screen (`document.documentElement.scrollWidth <= 360`), signed in
 * or out, with a cart or without. The cookie banner takes at most a third of a 360 × 740 screen and
 * hides neither a page's main message nor, with a toast, the header's controls.
 */

test.use({ viewport: { width: 360, height: 740 } })

const WIDTH = 360

/** A path, or a list's path and the pattern of the page to follow from it. */
type Entry = string | [string, RegExp] | [string, RegExp, 'optional']

/** A fresh patient's pending PIX purchase of the course, made from the cart: its page (the PIX code's). */
async function pendingPixPurchase(page: Page): Promise<string> {
  await page.goto('/solucoes?tipo=course')
  await page.getByTestId('products').getByRole('article').filter({ hasText: 'Curso Sono reparador' }).getByRole('button', { name: /^Adicionar ao carrinho/ }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
  await page.goto('/carrinho')
  await page.getByRole('button', { name: /^Pagar R\$/ }).click()
  await expect(page).toHaveURL(/\/compras\/\d+$/)
  return new URL(page.url()).pathname
}

/** Opens each path and notes every one wider than the screen; pages with an id are found through the lists' links. */
class Walk {
  readonly wide: string[] = []
  readonly seen: string[] = []
  constructor(private readonly page: Page) {}

  async visit(path: string) {
    const response = await this.page.goto(path)
    expect(response?.status() ?? 0, `${path} answers`).toBeLessThan(400)
    this.seen.push(path)
    const width = await this.page.evaluate(() => document.documentElement.scrollWidth)
    if (width > WIDTH) this.wide.push(`${path}: ${width} px`)
  }

  /**
   * The first link of the current page whose path matches, opened. None found fails, unless the
   * entry says the seed may have none (`optional`: what other walks make, in any order).
   */
  async follow(pattern: RegExp, optional = false) {
    const hrefs = await this.page.locator('main a[href]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).pathname))
    const href = hrefs.find((candidate) => pattern.test(candidate))
    if (!href && optional) return
    expect(href, `a link like ${pattern} on ${this.page.url()}`).toBeTruthy()
    await this.visit(href!)
  }

  async all(paths: Entry[]) {
    for (const entry of paths) {
      if (typeof entry === 'string') await this.visit(entry)
      else {
        await this.visit(entry[0])
        await this.follow(entry[1], entry[2] === 'optional')
      }
    }
  }

  done() {
    expect(this.wide, `pages wider than ${WIDTH} px`).toEqual([])
  }
}

const shop: Entry[] = ['/solucoes', ['/solucoes?tipo=course', /^\/produto\/\d+$/], ['/solucoes?tipo=subscription', /^\/produto\/\d+$/], '/carrinho', '/pilares', '/programa']

const patientPages: Entry[] = [
  '/dashboard',
  '/perfil',
  '/configuracoes',
  '/configuracoes/privacidade',
  '/avaliacao',
  ['/avaliacao/historico', /^\/avaliacao\/resultado\/\d+$/, 'optional'],
  '/meu-programa',
  '/habitos/novo',
  ['/habitos', /^\/habitos\/\d+$/, 'optional'],
  ['/consultas/profissionais', /^\/consultas\/agendar\/\d+$/],
  ['/consultas', /^\/consultas\/\d+$/, 'optional'],
  ['/mensagens', /^\/mensagens\/\d+$/, 'optional'],
  ['/cursos', /^\/cursos\/\d+$/],
  ['/aulas-ao-vivo', /^\/aulas-ao-vivo\/\d+$/],
  '/meus-produtos',
  ['/compras', /^\/compras\/\d+$/, 'optional'],
  ['/assinaturas', /^\/assinaturas\/\d+$/, 'optional'],
  ...shop,
]

test.describe('at 360 px no page is wider than the screen', () => {
  test('a visitor with a cart: the public shop and its pages @small-screen', async ({ page }) => {
    await page.goto('/solucoes?tipo=course')
    await page.getByTestId('products').getByRole('article').filter({ hasText: 'Curso Sono reparador' }).getByRole('button', { name: /^Adicionar ao carrinho/ }).click()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
    const walk = new Walk(page)
    await walk.all([...shop, '/', '/cursos', '/aula/2', '/auth?mode=login', '/auth?mode=register'])
    walk.done()
  })

  test('a patient without a cart: every page of the member area and the shop @small-screen', async ({ page }) => {
    test.slow()
    await loginAs(page, demoAccounts.paciente)
    const walk = new Walk(page)
    await walk.all(patientPages)
    walk.done()
    await expectNoAxeViolations(page)
  })

  test('a patient with a cart, a long name and a toast: the header fits, the toast covers none of its controls @small-screen', async ({ page }) => {
    await registerFreshPatient(page, 'larguradocarrinho')
    await page.goto('/solucoes?tipo=course')
    await page.getByTestId('products').getByRole('article').filter({ hasText: 'Curso Sono reparador' }).getByRole('button', { name: /^Adicionar ao carrinho/ }).click()
    const header = page.getByRole('banner')
    const toast = page.getByRole('status').filter({ hasText: 'foi adicionado ao carrinho' })
    await expect(toast).toBeVisible()
    const toastBox = (await toast.boundingBox())!
    for (const control of [header.getByRole('link', { name: 'Carrinho, 1 item' }), header.locator('summary[aria-label^="Menu da conta"]'), header.getByRole('link', { name: 'Innera' }).first()]) {
      const box = (await control.boundingBox())!
      expect(box.x + box.width, 'a header control inside the screen').toBeLessThanOrEqual(WIDTH)
      const overlaps = box.x < toastBox.x + toastBox.width && toastBox.x < box.x + box.width && box.y < toastBox.y + toastBox.height && toastBox.y < box.y + box.height
      expect(overlaps, 'the toast covers a header control').toBe(false)
    }
    const walk = new Walk(page)
    await walk.all(['/carrinho', '/dashboard', '/meus-produtos', '/assinaturas', '/consultas', '/cursos', '/habitos', '/configuracoes/privacidade'])
    // The cart paid by PIX: the PIX code's page, then the list with it.
    await page.goto('/carrinho')
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()
    await expect(page).toHaveURL(/\/compras\/\d+$/)
    const pix = new URL(page.url()).pathname
    // The unpaid purchase's cancel step (decision 0079) fits and passes axe too.
    await walk.all([pix, `${pix}?confirmar=cancelar`])
    await expect(page.getByTestId('confirm-step')).toBeVisible()
    await expectNoAxeViolations(page)
    await walk.all(['/compras'])
    walk.done()
  })

  test('a professional: every page of their area @small-screen', async ({ page }) => {
    await loginAs(page, demoAccounts.profissional)
    const walk = new Walk(page)
    await walk.all([
      '/dashboard',
      '/perfil',
      '/agenda/disponibilidade',
      '/agenda/calendario',
      ['/profissional/pacientes', /^\/profissional\/pacientes\/\d+$/],
      '/profissional/avaliacoes',
      ['/consultas', /^\/consultas\/\d+$/, 'optional'],
      '/configuracoes/privacidade',
    ])
    walk.done()
  })

  test('an admin: every page of the console, and no cart in the header @small-screen', async ({ page, browser }) => {
    test.slow()
    // A purchase for its pages, made by a patient of its own.
    const buyer = await newContext(browser)
    const buyerPage = await buyer.newPage()
    await registerFreshPatient(buyerPage, 'largura')
    await pendingPixPurchase(buyerPage)
    await buyer.close()
    await loginAs(page, demoAccounts.admin)
    const walk = new Walk(page)
    await walk.all([
      '/admin/dashboard',
      ['/admin/users', /^\/admin\/users\/\d+$/],
      '/admin/content',
      '/admin/pillars',
      '/admin/pillars/sono',
      '/admin/products',
      '/admin/products/pacote-4-consultas',
      '/admin/products/new',
      '/admin/courses',
      '/admin/courses/sono-reparador',
      '/admin/courses/sono-reparador/lessons/sono-reparador-1-ritmo-circadiano',
      '/admin/courses/sono-reparador/lessons/new',
      '/admin/courses/new',
      ['/admin/live-classes', /^\/admin\/live-classes\/[^/]+$/],
      '/admin/live-classes/new',
      '/admin/messages',
      ['/admin/purchases', /^\/admin\/purchases\/\d+$/],
      ['/admin/questionnaire', /^\/admin\/questionnaire\/[^/]+$/],
      '/admin/audit',
    ])
    // A draft version's editor, its questions' long codes in their legends.
    await page.goto('/admin/questionnaire')
    const version = `e2e.w${Date.now().toString(36)}`
    await page.getByLabel('Nome da versão').fill(version)
    await page.getByRole('button', { name: 'Começar nova versão' }).click()
    await expect(page.getByRole('heading', { level: 1, name: `Versão ${version}` })).toBeVisible()
    await walk.visit(new URL(page.url()).pathname)
    walk.done()
    await expect(page.getByRole('banner').getByRole('link', { name: /^Carrinho/ })).toHaveCount(0)
  })
})

test.describe('the cookie banner at 360 × 740', () => {
  test.use({ consent: false })

  test('takes at most a third of the screen and never hides the locked lesson’s explanation @small-screen', async ({ page }) => {
    await registerFreshPatient(page, 'banner')
    // The account's welcome toast shown first, so only the banner is over the page.
    await page.goto('/dashboard')
    await page.goto('/aula/2')
    const banner = page.locator('section[aria-labelledby="cookie-banner-title"]')
    await expect(banner).toBeVisible()
    const box = (await banner.boundingBox())!
    expect(box.height, 'the banner’s height').toBeLessThanOrEqual(740 / 3)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH)
    // The explanation as the page opens, and brought to the middle of the screen: the screen shows it there, not the banner.
    const lock = page.locator('#lock-title')
    const covered = () =>
      lock.evaluate((element) => {
        const rect = element.getBoundingClientRect()
        if (rect.top >= window.innerHeight) return false
        const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2)
        return !(top && (element === top || element.contains(top)))
      })
    expect(await covered(), 'the banner covers the locked lesson’s explanation').toBe(false)
    await lock.evaluate((element) => element.scrollIntoView({ block: 'center' }))
    expect(await covered(), 'the banner covers the locked lesson’s explanation').toBe(false)
    await expectNoAxeViolations(page)
  })
})

test('the public menu is one line at 1280 px in Portuguese, a toast clear of the header, and an admin gets no cart', async ({ browser }) => {
  const context = await newContext(browser, { viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await page.goto('/')
  const links = page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link')
  const tops = new Set<number>()
  for (const link of await links.all()) if (await link.isVisible()) tops.add(Math.round((await link.boundingBox())!.y))
  expect(tops.size, 'rows of the public menu').toBe(1)
  // A toast on a desktop covers none of the header's controls either.
  await page.goto('/solucoes?tipo=course')
  await page.getByTestId('products').getByRole('article').filter({ hasText: 'Curso Sono reparador' }).getByRole('button', { name: /^Adicionar ao carrinho/ }).click()
  const toast = page.getByRole('status').filter({ hasText: 'foi adicionado ao carrinho' })
  await expect(toast).toBeVisible()
  const header = (await page.getByRole('banner').boundingBox())!
  const toastBox = (await toast.boundingBox())!
  expect(toastBox.y, 'the toast below the header').toBeGreaterThanOrEqual(header.y + header.height)
  await loginAs(page, demoAccounts.admin)
  await page.goto('/admin/dashboard')
  await expect(page.getByRole('banner').getByRole('link', { name: /^Carrinho/ })).toHaveCount(0)
  await context.close()
})
