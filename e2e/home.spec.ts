import { expect, expectNoAxeViolations, newContext, test } from './fixtures'

const pillarsPt = ['Gestão do estresse', 'Atividade física', 'Alimentação', 'Sono', 'Relacionamentos', 'Controle de substâncias']

test.describe('home page', () => {
  test('serves Portuguese by default with the six pillars from the provider @mobile', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Saúde que se constrói no dia a dia')
    const pillars = page.locator('#pillars-title + p + ol > li h3')
    await expect(pillars).toHaveCount(6)
    const names = await pillars.allTextContents()
    expect(names.map((name) => name.trim())).toEqual(expect.arrayContaining(pillarsPt))
    await expect(page.getByRole('link', { name: 'Fazer a avaliação' })).toHaveAttribute('href', '/avaliacao')
    await expect(page.getByRole('link', { name: 'Conheça o programa' }).first()).toHaveAttribute('href', '/programa')
    await expectNoAxeViolations(page)
  })

  test('?lng=en and ?lng=es switch the language; ?lng=fr stays Portuguese', async ({ page }) => {
    await page.goto('/?lng=en')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByRole('heading', { name: 'The six pillars' })).toBeVisible()
    await expectNoAxeViolations(page)

    await page.goto('/?lng=es')
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    await expect(page.getByRole('heading', { name: 'Los seis pilares' })).toBeVisible()
    await expectNoAxeViolations(page)

    await page.context().clearCookies()
    await page.goto('/?lng=fr')
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR')
    await expect(page.getByRole('heading', { name: 'Os seis pilares' })).toBeVisible()
  })

  test('a ?lng= choice is remembered on the next page', async ({ page }) => {
    await page.goto('/?lng=es')
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
  })

  for (const javaScriptEnabled of [true, false]) {
    test(`the language switcher works and remembers the choice (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser }) => {
      const context = await newContext(browser, { javaScriptEnabled })
      const page = await context.newPage()
      await page.goto('/')
      await page.getByRole('button', { name: 'English' }).click()
      await expect(page.locator('html')).toHaveAttribute('lang', 'en')
      await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true')
      await page.goto('/')
      await expect(page.getByRole('heading', { name: 'The six pillars' })).toBeVisible()
      await page.getByRole('button', { name: 'Español' }).click()
      await expect(page.locator('html')).toHaveAttribute('lang', 'es')
      await context.close()
    })
  }

  test('the browser language is used when nothing else chooses one', async ({ browser }) => {
    const context = await newContext(browser, { locale: 'es-ES' })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    await context.close()
  })
})

test.describe('errors', () => {
  for (const [lng, title, back] of [
    ['pt', 'Página não encontrada', 'Voltar ao início'],
    ['en', 'Page not found', 'Back to home'],
    ['es', 'Página no encontrada', 'Volver al inicio'],
  ] as const) {
    test(`an unknown path is a 404 page in ${lng}`, async ({ page }) => {
      const response = await page.goto(`/nao-existe?lng=${lng}`)
      expect(response?.status()).toBe(404)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
      await expect(page.getByRole('link', { name: back })).toBeVisible()
      await expectNoAxeViolations(page)
    })
  }
})

test.describe('operations', () => {
  test('/healthz answers JSON with the app and the provider', async ({ request }) => {
    const response = await request.get('/healthz')
    expect(response.status()).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ok', app: { status: 'ok' }, provider: { status: 'ok' } })
  })

  test('documents carry the security headers and an enforced CSP with a nonce', async ({ request, page }) => {
    const response = await request.get('/')
    const headers = response.headers()
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(headers['permissions-policy']).toContain('camera=()')
    expect(headers['content-security-policy-report-only']).toBeUndefined()

    // The policy is enforced: a script injected into the page without the nonce does not run.
    await page.route('**/', async (route) => {
      const original = await route.fetch()
      const html = (await original.text()).replace('</body>', '<script>window.__injected = true</script></body>')
      await route.fulfill({ response: original, body: html })
    })
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const ran = await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected === true)
    expect(ran).toBe(false)
  })

  test('a cross-site POST is refused', async ({ request }) => {
    const response = await request.post('/resources/locale', {
      form: { lng: 'en', redirectTo: '/' },
      headers: { Origin: 'https://evil.example' },
      maxRedirects: 0,
    })
    expect(response.status()).toBe(403)
  })
})
