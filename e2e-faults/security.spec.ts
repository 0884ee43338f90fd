import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { parseEnv } from '../app/env.server.ts'
import { DEMO_PASSWORD, accountMenu, accounts, expect, loginAs, messages, sessionData, test } from './fixtures'
import { FORWARDING_SECRET } from './support/instance.ts'

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
    // In the browser, JavaScript on: one page drawn (the document, every script it loads, what
    // hydration asks for), then client-side navigations (single-fetch data answers, route modules).
    await page.goto('/dashboard')
    await page.waitForLoadState('networkidle')
    await page.getByRole('link', { name: 'Programa' }).first().click()
    await expect(page).toHaveURL(/\/programa$/)
    await accountMenu(page).click()
    await page.getByRole('link', { name: 'Painel', exact: true }).click()
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
    // Every signed-in page as a document and as a data answer, with the same cookie: what the
    // browser would be sent, without drawing each page again.
    for (const path of ['/dashboard', '/perfil', '/configuracoes', '/', '/contato']) {
      const url = new URL(path, 'http://x')
      for (const address of [path, `${url.pathname === '/' ? '/_root' : url.pathname}.data`]) {
        const response = await page.request.get(address, { maxRedirects: 0 })
        expect(response.status(), address).toBe(200)
        bodies.push(response.text())
      }
    }
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
    // Dot segments that collapse into a protocol-relative `//` once the URL is normalised.
    '/.//evil.example',
    '/x/..//evil.example',
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
      for (const path of ['/admin', '/admin/dashboard', '/admin/users', '/admin/users?group=admin', '/admin/products', '/admin/messages', '/admin/content', '/admin/pillars/sono', '/admin/products/new', '/admin/courses', '/admin/live-classes', '/admin/questionnaire']) {
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
      const price = await page.request.post('/admin/products', { form: { product_id: '1', price: '1,00' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(price.status()).toBe(403)
      const publish = await page.request.post('/admin/pillars/sono', { form: { intent: 'publish', 'name.pt': 'Sono', 'name.en': 'Sleep', 'name.es': 'Sueño' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
      expect(publish.status()).toBe(403)
    })
  }
})

/** A request with full control of its headers (Host, chunked bodies), which the browser's API does not give. */
function rawRequest(
  baseURL: string,
  { method = 'GET', path, headers = {}, body, chunks }: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(path, baseURL)
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const parts: Buffer[] = []
      response.on('data', (part: Buffer) => parts.push(part))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(parts).toString('utf8') }))
      response.on('error', reject)
    })
    // The server may answer before the whole upload is in: that answer is what is checked.
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)))
    if (chunks) {
      for (const chunk of chunks) request.write(chunk)
      request.end()
    } else request.end(body)
  })
}

const contactForm = (message: string) =>
  new URLSearchParams({ name: 'Ana Souza', email: 'ana@example.com', subject: 'other', message }).toString()

test.describe('request body limits (issue 10, finding 5)', () => {
  const tooLargeTitle = 'Formulário grande demais'

  test('a form body over 1 MB is refused with 413 and the translated page, never echoed back', async ({ page, baseURL }) => {
    const headers = { Origin: baseURL!, 'Content-Type': 'application/x-www-form-urlencoded' }
    const oversized = contactForm('x'.repeat(2 * 1024 * 1024))
    const declared = await page.request.post('/contato', { data: oversized, headers, maxRedirects: 0 })
    expect(declared.status()).toBe(413)
    const html = await declared.text()
    expect(html).toContain(tooLargeTitle)
    expect(html.length, 'nothing of the body comes back').toBeLessThan(100_000)
    const english = await page.request.post('/contato', { data: oversized, headers: { ...headers, 'Accept-Language': 'en' }, maxRedirects: 0 })
    expect(english.status()).toBe(413)
    expect(await english.text()).toContain('Form too large')

    // A chunked body declares no length: it is counted as it arrives.
    const chunked = await rawRequest(baseURL!, {
      method: 'POST',
      path: '/contato',
      headers: { ...headers, 'Transfer-Encoding': 'chunked' },
      chunks: Array.from({ length: 40 }, () => Buffer.from('x'.repeat(64 * 1024))),
    })
    expect(chunked.status).toBe(413)
    expect(chunked.text).toContain(tooLargeTitle)
    expect(chunked.text.length).toBeLessThan(100_000)

    // The same answer to a data request (JavaScript on).
    const data = await page.request.post('/contato.data', { data: oversized, headers, maxRedirects: 0 })
    expect(data.status()).toBe(413)
    expect(await data.text()).toContain('too-large')
  })

  test('too many fields, or one enormous value, are refused with 413 without being shown again', async ({ page, baseURL }) => {
    const headers = { Origin: baseURL!, 'Content-Type': 'application/x-www-form-urlencoded' }
    const manyFields = `${contactForm('Uma mensagem longa o bastante.')}&${Array.from({ length: 400 }, (_, index) => `extra${index}=1`).join('&')}`
    const many = await page.request.post('/contato', { data: manyFields, headers, maxRedirects: 0 })
    expect(many.status()).toBe(413)
    expect(await many.text()).toContain(tooLargeTitle)
    const marker = 'ECHO-ME-'.repeat(8_000) // 64,000 characters, under the byte limit
    const long = await page.request.post('/contato', { data: contactForm(marker), headers, maxRedirects: 0 })
    expect(long.status()).toBe(413)
    expect(await long.text()).not.toContain('ECHO-ME-ECHO-ME-')
  })

  test('the profile photo may be larger than a form, up to its own limit', async ({ page, baseURL }) => {
    await loginAs(page, accounts.paciente2)
    const photo = (bytes: number) => ({ name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(bytes, 0xff) })
    const fields = { first_name: 'Mariana', last_name: 'Alves', email: accounts.paciente2 }
    const under = await page.request.post('/perfil', { multipart: { ...fields, photo: photo(1_500_000) }, headers: { Origin: baseURL! }, maxRedirects: 0 })
    expect(under.status(), 'a 1.5 MB photo reaches the action (the provider judges the image)').not.toBe(413)
    const over = await page.request.post('/perfil', { multipart: { ...fields, photo: photo(7 * 1024 * 1024) }, headers: { Origin: baseURL! }, maxRedirects: 0 })
    expect(over.status()).toBe(413)
    expect(await over.text()).toContain(tooLargeTitle)
  })

  for (const javaScriptEnabled of [true, false]) {
    test(`a form that turns out too big shows the translated page (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ page }) => {
      await page.goto('/contato')
      if (javaScriptEnabled) await page.waitForFunction(() => Object.keys(document.documentElement).some((key) => key.startsWith('__react')))
      await page.locator('form [name="name"]').fill('Ana Souza')
      await page.locator('form [name="email"]').fill('ana@example.com')
      await page.locator('form select[name="subject"]').selectOption('other')
      await page.locator('form [name="message"]').fill('Uma mensagem longa o bastante para passar.')
      // A tampered form: more fields than any of ours.
      await page.locator('form:has([name="message"])').evaluate((form) => {
        for (let index = 0; index < 400; index++) {
          const input = document.createElement('input')
          input.type = 'hidden'
          input.name = `extra${index}`
          input.value = '1'
          form.append(input)
        }
      })
      const answered = page.waitForResponse((response) => response.request().method() === 'POST')
      await page.getByRole('button', { name: 'Enviar mensagem', exact: true }).click()
      expect((await answered).status()).toBe(413)
      await expect(page.getByRole('heading', { level: 1, name: tooLargeTitle })).toBeVisible()
    })
  }
})

test.describe('signed-in answers are never cached (issue 10, finding 12)', () => {
  /** The single-fetch data URL of a page. */
  const dataUrl = (path: string) => {
    const url = new URL(path, 'http://x')
    return `${url.pathname === '/' ? '/_root' : url.pathname}.data${url.search}`
  }

  test('every page and data answer that depends on the session says private, no-store', async ({ page }) => {
    await loginAs(page, accounts.paciente)
    const paths = ['/', '/dashboard', '/perfil', '/configuracoes', '/meu-programa', '/pilares', '/avaliacao', '/avaliacao/historico', '/contato']
    // A result page too, when this patient has one.
    const history = await (await page.request.get('/avaliacao/historico')).text()
    const result = /href="(\/avaliacao\/resultado\/[^"]+)"/.exec(history)?.[1]
    if (result) paths.push(result)
    for (const path of paths) {
      for (const url of [path, dataUrl(path)]) {
        const response = await page.request.get(url, { maxRedirects: 0 })
        expect(response.headers()['cache-control'], url).toBe('private, no-store')
      }
    }
    await page.context().clearCookies()
    await loginAs(page, accounts.admin)
    for (const path of ['/admin/dashboard', '/admin/users', '/admin/users?group=admin', '/admin/products', '/admin/messages', '/admin/content', '/admin/pillars', '/admin/courses', '/admin/live-classes', '/admin/questionnaire']) {
      for (const url of [path, dataUrl(path)]) {
        const response = await page.request.get(url, { maxRedirects: 0 })
        expect(response.headers()['cache-control'], url).toBe('private, no-store')
      }
    }
  })

  test('so does an answer that sets a cookie; static files keep their own caching', async ({ page, baseURL }) => {
    const signIn = await page.request.post('/auth?mode=login', { form: { email: accounts.paciente, password: DEMO_PASSWORD }, headers: { Origin: baseURL! }, maxRedirects: 0 })
    expect(signIn.headers()['cache-control']).toBe('private, no-store')
    const html = await (await page.request.get('/')).text()
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)![0]
    const script = await page.request.get(asset)
    expect(script.headers()['cache-control']).toContain('immutable')
    expect(script.headers()['cache-control']).not.toContain('no-store')
  })
})

test.describe('absolute URLs ignore the Host a visitor sends (issue 10, finding 13)', () => {
  const forgedHosts: Record<string, string>[] = [{ Host: 'evil.example' }, { 'X-Forwarded-Host': 'evil.example' }, { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example:8443' }]

  test('robots.txt, the sitemap and the hreflang links name the configured origin', async ({ baseURL }) => {
    const origin = new URL(baseURL!).origin
    for (const headers of forgedHosts) {
      const label = JSON.stringify(headers)
      const robots = await rawRequest(baseURL!, { path: '/robots.txt', headers })
      expect(robots.text, label).toContain(`Sitemap: ${origin}/sitemap.xml`)
      const sitemap = await rawRequest(baseURL!, { path: '/sitemap.xml', headers })
      expect(sitemap.status, label).toBe(200)
      expect(sitemap.text, label).not.toContain('evil.example')
      expect(sitemap.text, label).toContain(`<loc>${origin}/sobre</loc>`)
      const home = await rawRequest(baseURL!, { path: '/sobre', headers })
      const alternates = [...home.text.matchAll(/<link rel="alternate" hrefLang="[^"]+" href="([^"]+)"/g)].map((match) => match[1]!)
      expect(alternates.length, label).toBe(4)
      for (const href of alternates) expect(new URL(href).origin, label).toBe(origin)
    }
  })

  test('a forged X-Forwarded-Host does not make another origin this site for the cross-site check', async ({ baseURL }) => {
    const response = await rawRequest(baseURL!, {
      method: 'POST',
      path: '/resources/locale',
      headers: { Origin: 'http://evil.example', 'X-Forwarded-Host': 'evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'lng=en&redirectTo=/',
    })
    expect(response.status).toBe(403)
  })
})

test.describe("the visitor's address (issue 10, finding 6)", () => {
  test('with TRUST_PROXY unset, a forged X-Forwarded-For never reaches the provider as the visitor', async ({ baseURL, faultProxy }) => {
    // This suite's app runs with TRUST_PROXY unset and a forwarding secret it shares with the
    // provider (support/instance.ts); the fault proxy between them records what the app sends.
    const mark = faultProxy.requests.length
    const response = await rawRequest(baseURL!, {
      method: 'POST',
      path: '/contato',
      headers: { Origin: baseURL!, 'X-Forwarded-For': '198.51.100.7', 'X-Real-IP': '198.51.100.7', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: contactForm('Uma mensagem longa o bastante para passar.'),
    })
    expect(response.status).toBe(303)
    const contact = faultProxy.since(mark).find((call) => call.path.startsWith('/contact/'))
    expect(contact, 'the message reached the provider').toBeDefined()
    expect(contact!.forwardedFor).not.toContain('198.51.100.7')
    // The visitor is the socket's peer (this test, on loopback), vouched for by the secret.
    expect(contact!.forwardedFor).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/)
    expect(contact!.forwardingSecret).toBe(FORWARDING_SECRET)
  })
})
