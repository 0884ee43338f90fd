import { type BrowserContext } from '@playwright/test'
import { DEMO_PASSWORD, demoAccounts, expect, loginAs, newContext, test } from './fixtures'
import { startInstance } from './support/instance'

/** The tokens inside a (signed, not encrypted) session cookie's value. */
function tokensOf(value: string) {
  const payload = decodeURIComponent(value).split('.')[0]!
  const session = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { access?: string; refresh?: string }
  return [session.access, session.refresh].filter((token): token is string => Boolean(token))
}

/** The tokens inside the browser's session cookie, to look for them in responses. */
async function tokensIn(context: BrowserContext) {
  const cookie = (await context.cookies()).find((item) => item.name === '__session')
  return cookie ? tokensOf(cookie.value) : []
}

test('no token appears in any HTML, JavaScript or data response', async ({ page, context }) => {
  await page.goto('/')
  await loginAs(page, demoAccounts.profissional)
  const tokens = await tokensIn(context)
  expect(tokens).toHaveLength(2)
  const bodies: string[] = []
  page.on('response', async (response) => {
    const type = response.headers()['content-type'] ?? ''
    if (/html|javascript|json|x-script|turbo-stream|text\/plain/.test(type) || response.url().includes('.data')) {
      bodies.push(await response.text().catch(() => ''))
    }
  })
  for (const path of ['/dashboard', '/perfil', '/configuracoes', '/']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
  }
  await page.getByRole('link', { name: 'Programa' }).first().click().catch(() => undefined)
  await page.waitForLoadState('networkidle')
  expect(bodies.length).toBeGreaterThan(4)
  for (const body of bodies) {
    for (const token of tokens) expect(body.includes(token)).toBe(false)
    expect(body).not.toMatch(/eyJ[\w-]{10,}\.eyJ[\w-]{10,}\.[\w-]{10,}/)
  }
  const cookie = (await context.cookies()).find((item) => item.name === '__session')
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' })
})

test('an expired access token is refreshed without the user noticing', async ({ browser }) => {
  test.slow()
  // A private instance whose access tokens live 6 seconds.
  const instance = await startInstance({ ACCESS_TOKEN_LIFETIME: '6' })
  try {
    const context = await newContext(browser, { baseURL: instance.baseURL, locale: 'pt-BR', javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/auth?mode=login')
    await page.getByLabel('E-mail').fill(demoAccounts.profissional)
    await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
    const [before] = await tokensIn(context)
    await page.waitForTimeout(7_000)
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
    await expect(page.getByText('Horários no fuso America/Sao_Paulo.')).toBeVisible()
    const [after] = await tokensIn(context)
    expect(after).not.toBe(before)
    await context.close()

    // With JavaScript on, the page refreshes in the background before the token expires.
    const live = await newContext(browser, { baseURL: instance.baseURL, locale: 'pt-BR' })
    const livePage = await live.newPage()
    await livePage.goto('/auth?mode=login')
    await livePage.getByLabel('E-mail').fill(demoAccounts.paciente)
    await livePage.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD)
    // Watched from before the sign-in: on a busy machine the first refresh can come early.
    const refreshed = livePage.waitForResponse((response) => response.url().endsWith('/resources/session/refresh') && response.status() === 200, { timeout: 60_000 })
    await livePage.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(livePage).toHaveURL(/\/dashboard$/)
    const response = await refreshed
    // The token the refresh replaced is the one its request carried, whenever it ran.
    const sent = /(?:^|;\s*)__session=([^;]+)/.exec((await response.request().headerValue('cookie')) ?? '')
    expect(sent, 'the refresh request carried the session').toBeTruthy()
    const [liveBefore] = tokensOf(sent![1]!)
    await expect.poll(async () => (await tokensIn(live))[0], { timeout: 30_000 }).not.toBe(liveBefore)
    await live.close()
  } finally {
    await instance.close()
  }
})

test('with the provider stopped, pages say so in Portuguese and the session survives', async ({ browser }) => {
  test.slow()
  const instance = await startInstance()
  try {
    const context = await newContext(browser, { baseURL: instance.baseURL, locale: 'pt-BR' })
    const page = await context.newPage()
    await page.goto('/auth?mode=login')
    await page.getByLabel('E-mail').fill(demoAccounts.profissional)
    await page.getByLabel('Senha', { exact: true }).fill(DEMO_PASSWORD)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()

    await instance.stopProvider()
    await page.goto('/dashboard')
    await expect(page.getByText('Erro de conexão. Verifique sua internet e configurações.')).toBeVisible()
    // Still signed in: the header keeps the account menu.
    await expect(page.locator('summary[aria-label="Menu da conta de Paula Ribeiro"]')).toBeVisible()

    await page.goto('/auth?mode=login')
    await expect(page).toHaveURL(/\/dashboard$/)

    await instance.startProvider()
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
    await expect(page.getByText('Horários no fuso America/Sao_Paulo.')).toBeVisible()
    await context.close()
  } finally {
    await instance.close()
  }
})
