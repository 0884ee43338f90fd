import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { parseEnv } from '../app/env.server.ts'
import { DEMO_PASSWORD, accountMenu, accounts, expect, loginAs, messages, sessionData, test } from './fixtures'

test.describe('the session cookie', () => {
  test('is HttpOnly, SameSite=Lax, Path=/ and Secure in production', async ({ page }) => {
    const response = await page.request.post('/auth?mode=login', { form: { email: accounts.paciente, password: DEMO_PASSWORD }, maxRedirects: 0 })
    expect(response.status()).toBe(303)
    const cookie = response
      .headersArray()
      .filter((header) => header.name.toLowerCase() === 'set-cookie')
      .map((header) => header.value)
      .find((value) => value.startsWith('__session='))
    expect(cookie).toBeDefined()
    const attributes = cookie!.split(';').map((part) => part.trim().toLowerCase())
    expect(attributes).toContain('httponly')
    expect(attributes).toContain('samesite=lax')
    expect(attributes).toContain('path=/')
    // This instance runs with NODE_ENV=production and SESSION_COOKIE_SECURE unset.
    expect(attributes).toContain('secure')
    const stored = (await page.context().cookies()).find((item) => item.name === '__session')
    expect(stored).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: true, path: '/' })
  })

  test('Secure follows NODE_ENV unless SESSION_COOKIE_SECURE says otherwise', () => {
    const base = { PROVIDER_API_URL: 'http://127.0.0.1:8000', SESSION_SECRET: 'x'.repeat(40) }
    expect(parseEnv({ ...base, NODE_ENV: 'production' }).SESSION_COOKIE_SECURE).toBe(true)
    expect(parseEnv({ ...base, NODE_ENV: 'production', SESSION_COOKIE_SECURE: '' }).SESSION_COOKIE_SECURE).toBe(true)
    expect(parseEnv({ ...base, NODE_ENV: 'production', SESSION_COOKIE_SECURE: 'false' }).SESSION_COOKIE_SECURE).toBe(false)
    expect(parseEnv({ ...base, NODE_ENV: 'development' }).SESSION_COOKIE_SECURE).toBe(false)
    expect(parseEnv({ ...base, NODE_ENV: 'development', SESSION_COOKIE_SECURE: 'true' }).SESSION_COOKIE_SECURE).toBe(true)
  })
})

test.describe('Content-Security-Policy', () => {
  test('every document carries a nonce policy that its own scripts follow', async ({ page }) => {
    for (const path of ['/', '/auth?mode=login', '/faq', '/no-such-page']) {
      const response = await page.request.get(path)
      const policy = response.headers()['content-security-policy'] ?? ''
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[\w+/=]+' 'strict-dynamic'/)
      expect(policy, path).not.toContain('unsafe-inline')
      expect(policy, path).not.toContain('unsafe-eval')
      expect(policy, path).toContain("object-src 'none'")
      expect(policy, path).toContain("frame-ancestors 'none'")
      expect(policy, path).toContain("base-uri 'self'")
      const nonce = /'nonce-([\w+/=]+)'/.exec(policy)![1]
      const html = await response.text()
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0])
      expect(scripts.length, path).toBeGreaterThan(0)
      for (const tag of scripts) expect(tag, `${path}: every script has the nonce`).toContain(`nonce="${nonce}"`)
      expect(response.headers()['x-content-type-options']).toBe('nosniff')
      expect(response.headers()['x-frame-options']).toBe('DENY')
    }
    // Everything that is not a document may run nothing at all.
    const robots = await page.request.get('/robots.txt')
    expect(robots.headers()['content-security-policy']).toContain("default-src 'none'")
  })

  test('is enforced: an inline script or handler slipped into the page does not run', async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] }
      w.__violations = []
      document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.effectiveDirective} ${event.blockedURI}`))
    })
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const response = await route.fetch()
        const html = (await response.text()).replace(
          '</body>',
          '<script>window.__injected = 1</script><img src="/no-such-image.png" onerror="window.__onerror = 1" alt=""></body>',
        )
        await route.fulfill({ response, body: html })
      },
    )
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // The page's own (nonced) scripts ran: React hydrated.
    await page.waitForFunction(() => Object.keys(document.documentElement).some((key) => key.startsWith('__react')))
    const state = await page.evaluate(() => {
      const w = window as unknown as { __injected?: number; __onerror?: number; __violations: string[] }
      return { injected: w.__injected, onerror: w.__onerror, violations: w.__violations }
    })
    expect(state.injected).toBeUndefined()
    expect(state.onerror).toBeUndefined()
    expect(state.violations).toContain('script-src-elem inline')
    expect(state.violations).toContain('script-src-attr inline')
  })

  test("the app's own pages cause no violation", async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] }
      w.__violations = []
      document.addEventListener('securitypolicyviolation', (event) => w.__violations.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}`))
    })
    const violations: string[] = []
    for (const path of ['/', '/auth?mode=login', '/faq']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
      violations.push(...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)))
    }
    expect(violations).toEqual([])
  })
})

test.describe('tokens', () => {
  test('no token from the session cookie in any page, script, data answer or log line', async ({ page, context, instance }) => {
    await loginAs(page, accounts.profissional)
    const session = await sessionData(context)
    const tokens = [session?.access, session?.refresh].filter((token): token is string => Boolean(token))
    expect(tokens).toHaveLength(2)
    const bodies: Promise<string>[] = []
    page.on('response', (response) => {
      const type = response.headers()['content-type'] ?? ''
      if (/html|javascript|json|x-script|text\/plain/.test(type)) bodies.push(response.text().catch(() => ''))
    })
    for (const path of ['/dashboard', '/perfil', '/configuracoes', '/', '/contato']) {
      await page.goto(path)
      await page.waitForLoadState('networkidle')
    }
    // Client-side navigations too (single-fetch data answers).
    await page.getByRole('link', { name: 'Programa' }).first().click()
    await accountMenu(page).click()
    await page.getByRole('link', { name: 'Painel' }).click()
    await expect(page.getByRole('heading', { name: 'Seus pacientes' })).toBeVisible()
    const texts = await Promise.all(bodies)
    expect(texts.length).toBeGreaterThan(10)
    for (const text of texts) for (const token of tokens) expect(text.includes(token)).toBe(false)
    const logs = instance.logs()
    expect(logs.length).toBeGreaterThan(0)
    for (const token of tokens) expect(logs.includes(token)).toBe(false)
    // The proxy saw them go by (the fixture checks every token it saw, after every test).
    for (const token of tokens) expect(instance.proxy.tokens.has(token)).toBe(true)
  })
})

test.describe('cross-site requests', () => {
  const writes = ['/auth?mode=login', '/resources/locale', '/resources/cookie-consent', '/logout', '/perfil', '/configuracoes', '/resources/session/refresh', '/contato']

  test('a POST from another origin is refused with 403', async ({ page, baseURL }) => {
    await loginAs(page, accounts.paciente)
    for (const path of writes) {
      const foreign: Record<string, string>[] = [{ Origin: 'http://evil.example' }, { Origin: 'null' }, { 'Sec-Fetch-Site': 'cross-site' }, { Origin: 'http://localhost:1' }]
      for (const headers of foreign) {
        const response = await page.request.post(path, { form: { email: accounts.paciente, password: DEMO_PASSWORD, lng: 'en', intent: 'all' }, headers, maxRedirects: 0 })
        expect(response.status(), `${path} with ${JSON.stringify(headers)}`).toBe(403)
      }
    }
    // The same requests from this site go through.
    const same = await page.request.post('/resources/locale', { form: { lng: 'pt', redirectTo: '/' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
    expect(same.status()).toBe(303)
  })

  test('a form on another site that posts here is refused, and changes nothing', async ({ page, context, baseURL }) => {
    await loginAs(page, accounts.paciente)
    const attacker = http.createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html' })
      response.end(
        `<!doctype html><title>Win a prize</title><form id="f" method="post" action="${baseURL}/logout"></form><script>document.getElementById('f').submit()</script>`,
      )
    })
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
    try {
      const refused = page.waitForResponse((response) => response.url() === `${baseURL}/logout`)
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`)
      expect((await refused).status()).toBe(403)
      await page.goto('/dashboard')
      await expect(accountMenu(page), 'the other site could not sign the user out').toBeVisible()
      expect((await sessionData(context))?.refresh).toBeTruthy()
    } finally {
      attacker.close()
    }
  })
})

test.describe('open redirects', () => {
  const hostileTargets = [
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'http:evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' //evil.example',
    '%2F%2Fevil.example',
    '/%2F/evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/\u3002evil.example',
  ]

  function expectSameSite(location: string | undefined, baseURL: string, label: string) {
    expect(location, label).toBeTruthy()
    const target = new URL(location!, baseURL)
    expect(target.origin, `${label} → ${location}`).toBe(new URL(baseURL).origin)
  }

  test('login refuses a redirectTo that leaves the site (action and signed-in loader)', async ({ page, baseURL }) => {
    for (const redirectTo of hostileTargets) {
      await page.context().clearCookies()
      const response = await page.request.post('/auth?mode=login', {
        form: { email: accounts.paciente, password: DEMO_PASSWORD, redirectTo },
        headers: { Origin: baseURL! },
        maxRedirects: 0,
      })
      expect(response.status(), redirectTo).toBe(303)
      expectSameSite(response.headers().location, baseURL!, `login action, redirectTo ${JSON.stringify(redirectTo)}`)
      const signedIn = await page.request.get(`/auth?mode=login&redirectTo=${encodeURIComponent(redirectTo)}`, { maxRedirects: 0 })
      expectSameSite(signedIn.headers().location, baseURL!, `login loader, redirectTo ${JSON.stringify(redirectTo)}`)
    }
  })

  test('the language switcher and the cookie banner refuse a redirectTo that leaves the site', async ({ page, baseURL }) => {
    for (const redirectTo of hostileTargets) {
      const locale = await page.request.post('/resources/locale', { form: { lng: 'en', redirectTo }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(locale.status(), redirectTo).toBe(303)
      expectSameSite(locale.headers().location, baseURL!, `language switcher, redirectTo ${JSON.stringify(redirectTo)}`)
      const consent = await page.request.post('/resources/cookie-consent', { form: { intent: 'necessary', redirectTo }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(consent.status(), redirectTo).toBe(303)
      expectSameSite(consent.headers().location, baseURL!, `cookie banner, redirectTo ${JSON.stringify(redirectTo)}`)
    }
  })

  test('a login form opened with a hostile redirectTo lands on the dashboard', async ({ page }) => {
    await page.goto(`/auth?mode=login&redirectTo=${encodeURIComponent('//evil.example/steal')}`)
    await page.getByLabel('E-mail').fill(accounts.paciente)
    await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page).toHaveURL(/\/dashboard$/)
  })
})

test.describe('roles', () => {
  // The answer is the server's: checked as documents, without the browser's JavaScript.
  test.use({ javaScriptEnabled: false })

  for (const who of ['paciente', 'profissional'] as const) {
    test(`a ${who} on /admin/* gets 403`, async ({ page, baseURL }) => {
      await loginAs(page, accounts[who])
      for (const path of ['/admin', '/admin/dashboard', '/admin/users', '/admin/users?group=admin', '/admin/messages']) {
        const response = await page.goto(path)
        expect(response?.status(), path).toBe(403)
        await expect(page.getByRole('heading', { level: 1, name: messages.forbidden })).toBeVisible()
        await expect(page.locator('body')).not.toContainText('admin@innera.local')
      }
      const data = await page.request.get('/admin/users.data')
      expect(data.status()).toBe(403)
      expect(await data.text()).not.toContain('admin@innera.local')
      const write = await page.request.post('/admin/messages', { form: { intent: 'mark-handled', id: '1' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(write.status()).toBe(403)
    })
  }
})
