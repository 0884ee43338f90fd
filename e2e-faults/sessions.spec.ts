import { type Browser, type BrowserContext, type Page } from '@playwright/test'
import { accountMenu, accounts, expect, loginAs, sessionCookie, sessionData, test } from './fixtures'

/**
 * Sessions end for real (issue 10, finding 2): after logout, a copy of the old cookie opens
 * nothing and its refresh token renews nothing; a password change or a reset by e-mail ends every
 * other session, while the user who changed it stays signed in.
 */
test.use({ javaScriptEnabled: false })

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
const strong = (tag: string) => `Sessoes-${tag}-Fortes-2025!`

/**
 * A fresh patient account, so that changing its password disturbs no other test. The provider
 * creates it just after answering; its mailbox answers once that work is done.
 */
async function registerPatient(page: Page, providerURL: string, password: string) {
  const id = unique()
  const email = `sessao.${id}@example.com`
  const response = await page.request.post('/auth?mode=register', {
    form: { name: 'Sessão Teste', username: `sessao${id}`, email, password, confirmPassword: password, acceptTerms: 'on' },
    maxRedirects: 0,
  })
  expect(response.status(), 'registered').toBe(303)
  expect((await page.request.get(new URL(`dev/mailbox/messages/?to=${encodeURIComponent(email)}`, providerURL).href)).ok()).toBe(true)
  return email
}

async function signedInContext(browser: Browser, baseURL: string, email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false })
  const page = await context.newPage()
  await loginAs(page, email, password)
  return { context, page }
}

async function expectSignedOut(page: Page) {
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/auth\?mode=login/)
  await expect(accountMenu(page)).toHaveCount(0)
}

test('after logout, a copy of the old cookie opens nothing and its refresh token renews nothing', async ({ page, context, browser, baseURL, instance }) => {
  await loginAs(page, accounts.paciente)
  await page.goto('/dashboard')
  await expect(accountMenu(page)).toBeVisible()
  const copied = (await sessionCookie(context))!
  const { refresh } = (await sessionData(context))!

  await accountMenu(page).click()
  await page.getByRole('button', { name: 'Sair' }).click()
  await expect(page).toHaveURL(/\/auth\?mode=login$/)

  const thief = await browser.newContext({ baseURL, javaScriptEnabled: false })
  await thief.addCookies([{ ...copied }])
  await expectSignedOut(await thief.newPage())
  await thief.close()

  const renewed = await page.request.post(new URL('authentication/token/refresh/', instance.providerURL).href, { data: { refresh } })
  expect(renewed.status()).toBe(401)
})

test('a password change keeps this session and ends every other one', async ({ page, browser, baseURL, instance }) => {
  const oldPassword = strong('antiga')
  const newPassword = strong('nova')
  const email = await registerPatient(page, instance.providerURL, oldPassword)
  const here = await signedInContext(browser, baseURL!, email, oldPassword)
  const elsewhere = await signedInContext(browser, baseURL!, email, oldPassword)
  try {
    await here.page.goto('/configuracoes')
    await here.page.getByLabel('Senha atual').fill(oldPassword)
    await here.page.getByLabel('Nova senha', { exact: true }).fill(newPassword)
    await here.page.getByLabel('Confirme a nova senha').fill(newPassword)
    await here.page.getByRole('button', { name: 'Alterar senha' }).click()
    await expect(here.page.getByText('Senha alterada.')).toBeVisible()

    await here.page.goto('/dashboard')
    await expect(accountMenu(here.page), 'still signed in where the password was changed').toBeVisible()
    await expectSignedOut(elsewhere.page)
  } finally {
    await here.context.close()
    await elsewhere.context.close()
  }
})

test('a password reset by e-mail ends every session', async ({ page, browser, baseURL, instance }) => {
  const oldPassword = strong('esquecida')
  const email = await registerPatient(page, instance.providerURL, oldPassword)
  const elsewhere = await signedInContext(browser, baseURL!, email, oldPassword)
  try {
    await page.goto('/auth?mode=forgot')
    await page.getByLabel('E-mail').fill(email)
    await page.getByRole('button', { name: 'Enviar link' }).click()

    const mailbox = new URL(`dev/mailbox/messages/?to=${encodeURIComponent(email)}`, instance.providerURL).href
    let link: string | undefined
    await expect
      .poll(async () => {
        const { results } = (await (await page.request.get(mailbox)).json()) as { results: { text: string }[] }
        link = results.map((mail) => /https?:\/\/\S+\/auth\/reset\/\S+/.exec(mail.text)?.[0]).find(Boolean)
        return link
      })
      .toBeTruthy()

    const newPassword = strong('redefinida')
    await page.goto(new URL(link!).pathname)
    await page.getByLabel('Nova senha').fill(newPassword)
    await page.getByLabel('Confirme a senha').fill(newPassword)
    await page.getByRole('button', { name: 'Salvar nova senha' }).click()
    await expect(page).toHaveURL(/\/auth\?mode=login$/)

    await expectSignedOut(elsewhere.page)
  } finally {
    await elsewhere.context.close()
  }
})
