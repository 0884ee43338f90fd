import { type Page } from '@playwright/test'
import { DEMO_PASSWORD, demoAccounts, expect, expectNoAxeViolations, loginAs, mailboxFor, test } from './fixtures'

async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/auth?mode=login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
}

test('with JavaScript on, fields are checked in the browser once focused, and the other forms arrive when shown', async ({ page }) => {
  await page.goto('/auth?mode=login')
  const email = page.getByLabel('E-mail')
  await email.click()
  // The schemas load on that first focus; from then on a blur checks the field without a request.
  const posts: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request.url())
  })
  await expect(async () => {
    await email.fill('not-an-email')
    await email.blur()
    await expect(page.getByText('Endereço de e-mail inválido')).toBeVisible({ timeout: 500 })
  }).toPass()
  expect(posts).toEqual([])

  await page.getByRole('navigation', { name: 'Entrar ou criar conta' }).getByRole('link', { name: 'Criar conta' }).click()
  await expect(page).toHaveURL(/mode=register/)
  await expect(page.getByLabel('Nome completo')).toBeVisible()
  await expect(page.locator('#register-form').getByRole('link', { name: 'Termos e condições' })).toHaveAttribute('target', '_blank')
})

for (const javaScriptEnabled of [true, false]) {
  test.describe(`sign-in with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('each role lands on its default route', async ({ page }) => {
      await signIn(page, demoAccounts.paciente)
      await expect(page).toHaveURL(/\/dashboard$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Olá, Pedro!')
      await page.locator('summary[aria-label^="Menu da conta"]').click()
      await page.getByRole('button', { name: 'Sair' }).click()
      await expect(page).toHaveURL(/\/auth\?mode=login$/)

      await signIn(page, demoAccounts.profissional)
      await expect(page).toHaveURL(/\/dashboard$/)
      await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
      await expect(page.getByText('Horários no fuso America/Sao_Paulo.')).toBeVisible()
      await page.locator('summary[aria-label^="Menu da conta"]').click()
      await page.getByRole('button', { name: 'Sair' }).click()
      await expect(page).toHaveURL(/\/auth\?mode=login$/)

      await signIn(page, demoAccounts.admin)
      await expect(page).toHaveURL(/\/admin\/dashboard$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Administração')
    })

    test('a wrong password keeps the e-mail and says why, in each language', async ({ page }) => {
      await signIn(page, demoAccounts.paciente, 'wrong-password')
      await expect(page.getByRole('alert')).toHaveText('Falha no login. Verifique suas credenciais.')
      await expect(page.getByLabel('E-mail')).toHaveValue(demoAccounts.paciente)
      await expect(page.getByLabel('Senha', { exact: true })).toHaveValue('')

      await page.goto('/auth?mode=login&lng=en')
      await page.getByLabel('Email').fill(demoAccounts.paciente)
      await page.getByLabel('Password', { exact: true }).fill('wrong-password')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page.getByRole('alert')).toHaveText('Login failed. Please check your credentials.')

      await page.goto('/auth?mode=login&lng=es')
      await page.getByLabel('Correo electrónico').fill(demoAccounts.paciente)
      await page.getByLabel('Contraseña', { exact: true }).fill('wrong-password')
      await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click()
      await expect(page.getByRole('alert')).toHaveText('Error al iniciar sesión. Verifica tus credenciales.')
    })

    test('empty fields show the required message', async ({ page }) => {
      await page.goto('/auth?mode=login&lng=en')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page.getByText('This field is required')).toHaveCount(2)
      // With JavaScript the answer shows before the page's data is read again; a second submit in
      // the middle of that read aborts it, and Remix leaves the abort uncaught (seen on a busy
      // machine). A person's second try comes after it: so does this one.
      await page.waitForLoadState('networkidle')
      await page.getByLabel('Email').fill('not-an-email')
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await expect(page.getByText('Invalid email address')).toBeVisible()
    })

    test('register, then the confirmation mail is in the outbox and confirms the address', async ({ page }) => {
      const email = `nova.${javaScriptEnabled ? 'js' : 'nojs'}.${Date.now()}@example.com`
      await page.goto('/auth?mode=register')
      await page.getByLabel('Nome completo').fill('Nova Pessoa')
      await page.getByLabel('Nome de usuário').fill(`nova${Date.now()}`)
      await page.getByLabel('E-mail').fill(email)
      await page.getByLabel('Senha', { exact: true }).fill('uma-senha-boa-1')
      await page.getByLabel('Confirme a senha').fill('outra-senha')
      await page.getByRole('button', { name: 'Criar conta', exact: true }).click()
      await expect(page.getByText('As senhas não coincidem')).toBeVisible()
      await expect(page.getByText('Aceite os termos e a política de privacidade para continuar')).toBeVisible()
      await expect(page.getByLabel('Nome completo')).toHaveValue('Nova Pessoa')

      await page.getByLabel('Senha', { exact: true }).fill('uma-senha-boa-1')
      await page.getByLabel('Confirme a senha').fill('uma-senha-boa-1')
      await page.getByLabel(/Li e aceito/).check()
      await page.getByRole('button', { name: 'Criar conta', exact: true }).click()
      // Registration ends on the sign-in page, as it does for an address that already has an account.
      await expect(page).toHaveURL(/\/auth\?mode=login$/)
      await expect(page.getByText(/Conta criada! Enviamos um e-mail/)).toBeVisible()
      await signIn(page, email, 'uma-senha-boa-1')
      await expect(page).toHaveURL(/\/dashboard$/)

      const [mail] = await mailboxFor(page, email)
      const link = /https?:\/\/\S+\/auth\/confirm\/\S+/.exec(mail!.text)?.[0]
      expect(link).toBeTruthy()
      await page.goto(new URL(link!).pathname)
      await page.getByRole('button', { name: 'Confirmar meu e-mail' }).click()
      await expect(page.getByText('E-mail confirmado. Obrigado!')).toBeVisible()
    })

    test('a password reset through the outbox link', async ({ page, browser }) => {
      // A fresh account, so the other tests keep the demo password.
      const email = `reset.${javaScriptEnabled ? 'js' : 'nojs'}.${Date.now()}@example.com`
      const setup = await browser.newContext()
      const setupPage = await setup.newPage()
      await setupPage.request.post('/auth?mode=register', {
        form: { name: 'Rita Reset', username: `rita${Date.now()}`, email, password: 'senha-antiga-1', confirmPassword: 'senha-antiga-1', acceptTerms: 'on' },
        maxRedirects: 0,
      })
      await setup.close()

      await page.goto('/auth?mode=forgot')
      await page.getByLabel('E-mail').fill(email)
      await page.getByRole('button', { name: 'Enviar link' }).click()
      await expect(page.getByText(/enviamos um link para redefinir a senha/)).toBeVisible()

      const mails = await mailboxFor(page, email)
      const reset = mails.find((mail) => /\/auth\/reset\//.test(mail.text))
      const link = /https?:\/\/\S+\/auth\/reset\/\S+/.exec(reset!.text)?.[0]
      await page.goto(new URL(link!).pathname)
      await page.getByLabel('Nova senha').fill('senha-nova-123')
      await page.getByLabel('Confirme a senha').fill('senha-nova-123')
      await page.getByRole('button', { name: 'Salvar nova senha' }).click()
      await expect(page).toHaveURL(/\/auth\?mode=login$/)
      await expect(page.getByText('Senha alterada. Entre com a nova senha.')).toBeVisible()

      await signIn(page, email, 'senha-nova-123')
      await expect(page).toHaveURL(/\/dashboard$/)
    })

    test('a patient on /admin/dashboard gets 403; a visitor gets the sign-in page', async ({ page }) => {
      const anonymous = await page.goto('/admin/dashboard')
      await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fadmin%2Fdashboard$/)
      expect(anonymous?.status()).toBe(200)

      await signIn(page, demoAccounts.paciente)
      await expect(page).toHaveURL(/\/dashboard$/)
      const response = await page.goto('/admin/dashboard')
      expect(response?.status()).toBe(403)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso negado')
    })

    test('sign in with Google through the fake provider welcomes a new patient', async ({ page }) => {
      await page.goto('/auth?mode=login')
      await page.getByRole('button', { name: 'Entrar com Google' }).click()
      await page.getByRole('button', { name: /Ana Souza/ }).click()
      await expect(page).toHaveURL(/\/dashboard\?welcome=1$/)
      await expect(page.getByRole('heading', { name: 'Boas-vindas à Innera' })).toBeVisible()
    })
  })
}

test('Google sign-in with an e-mail that already has a password account says to sign in normally', async ({ page }) => {
  await page.goto('/auth?mode=login')
  await page.getByRole('button', { name: 'Entrar com Google' }).click()
  await page.getByRole('button', { name: /paciente@innera\.local/ }).click()
  await expect(page).toHaveURL(/\/auth\?mode=login$/)
  await expect(page.getByText('Já existe uma conta com este email. Faça login normalmente.')).toBeVisible()
})

// One test per form, each with its own bound: twelve scans in one test took 54 s on a quiet machine
// and more than 180 s beside a second test run.
for (const mode of ['login', 'register', 'forgot', 'resend']) {
  test(`the sign-in page (${mode}) has no accessibility violations in pt, en and es`, async ({ page }) => {
    test.slow()
    for (const lng of ['pt', 'en', 'es']) {
      await page.goto(`/auth?mode=${mode}&lng=${lng}`)
      await expectNoAxeViolations(page)
    }
  })
}

test('the signed-in pages have no accessibility violations', async ({ page }) => {
  test.slow()
  await page.goto('/')
  await loginAs(page, demoAccounts.profissional)
  for (const path of ['/dashboard', '/perfil', '/configuracoes']) {
    await page.goto(path)
    await expectNoAxeViolations(page)
  }
  await page.context().clearCookies()
  await loginAs(page, demoAccounts.admin)
  for (const path of ['/admin/dashboard', '/admin/users', '/admin/users?search=pac']) {
    await page.goto(path)
    await expectNoAxeViolations(page)
  }
  await page.context().clearCookies()
  await loginAs(page, demoAccounts.paciente)
  await page.goto('/dashboard?welcome=1')
  await expectNoAxeViolations(page)
})
