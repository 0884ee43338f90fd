import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, mailboxFor, test } from './fixtures'

const SENT = 'Mensagem enviada. Obrigado! Responderemos pelo e-mail informado.'

type ContactInput = { name: string; email: string; phone: string; subject: string; message: string }

async function fillContactForm(page: Page, input: ContactInput) {
  await page.getByLabel('Nome', { exact: true }).fill(input.name)
  await page.getByLabel('E-mail', { exact: true }).fill(input.email)
  await page.getByLabel('Telefone (opcional)').fill(input.phone)
  await page.getByLabel('Assunto').selectOption(input.subject)
  await page.getByLabel('Mensagem', { exact: true }).fill(input.message)
}

const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`

for (const javaScriptEnabled of [true, false]) {
  test.describe(`contact form with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('a bad e-mail is refused and keeps everything else; a good message is sent', async ({ page }) => {
      const marker = unique(javaScriptEnabled ? 'js' : 'nojs')
      const input = {
        name: 'Ana Souza',
        email: 'ana@invalido',
        phone: '+55 (11) 91234-5678',
        subject: 'partnership',
        message: `Gostaríamos de conversar sobre uma parceria.\nReferência ${marker}`,
      }
      await page.goto('/contato')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fale com a Innera')
      await fillContactForm(page, input)
      await page.getByRole('button', { name: 'Enviar mensagem' }).click()

      await expect(page.getByText('Endereço de e-mail inválido')).toBeVisible()
      await expect(page.getByLabel('E-mail', { exact: true })).toHaveAttribute('aria-invalid', 'true')
      await expect(page.getByLabel('Nome', { exact: true })).toHaveValue(input.name)
      await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(input.email)
      await expect(page.getByLabel('Telefone (opcional)')).toHaveValue(input.phone)
      await expect(page.getByLabel('Assunto')).toHaveValue(input.subject)
      await expect(page.getByLabel('Mensagem', { exact: true })).toHaveValue(input.message)

      await page.getByLabel('E-mail', { exact: true }).fill(`ana.${marker}@example.com`)
      await page.getByRole('button', { name: 'Enviar mensagem' }).click()
      await expect(page.getByRole('status').getByText(SENT)).toBeVisible()
      await expect(page).toHaveURL(/\/contato$/)
      // A fresh, empty form for the next message.
      await expect(page.getByLabel('Mensagem', { exact: true })).toHaveValue('')
      await expect(page.getByLabel('Nome', { exact: true })).toHaveValue('')

      const notification = (await mailboxFor(page, 'contato@innera.local')).find((mail) => mail.text.includes(marker))
      expect(notification?.subject).toBe('[Contato] Parceria: Ana Souza')
    })

    test('empty fields say what is missing', async ({ page }) => {
      await page.goto('/contato')
      await page.getByRole('button', { name: 'Enviar mensagem' }).click()
      await expect(page.getByText('Este campo é obrigatório')).toHaveCount(4)
      await page.getByLabel('Mensagem', { exact: true }).fill('Curta')
      await page.getByRole('button', { name: 'Enviar mensagem' }).click()
      await expect(page.getByText('A mensagem precisa ter pelo menos 10 caracteres')).toBeVisible()
    })

    test(`the character counter is there only with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ page }) => {
      await page.goto('/contato')
      const counter = page.getByText(/de 5\.000 caracteres$/)
      if (javaScriptEnabled) {
        await expect(counter).toHaveText('0 de 5.000 caracteres')
        await page.getByLabel('Mensagem', { exact: true }).fill('Olá, Innera!')
        await expect(counter).toHaveText('12 de 5.000 caracteres')
      } else {
        await expect(page.getByLabel('Mensagem', { exact: true })).toBeVisible()
        await expect(counter).toHaveCount(0)
      }
    })

    test('the admin finds the message and marks it handled, then open again', async ({ page }) => {
      const marker = unique(javaScriptEnabled ? 'admin-js' : 'admin-nojs')
      const sent = await page.request.post('/contato', {
        form: { name: 'Bruno Lima', email: 'bruno@example.com', phone: '', subject: 'company', message: `Programa para a equipe.\nCódigo ${marker}`, website: '' },
        maxRedirects: 0,
      })
      expect(sent.status()).toBe(303)

      await loginAs(page, demoAccounts.admin)
      await page.goto('/admin/dashboard')
      await page.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Mensagens' }).click()
      await expect(page).toHaveURL(/\/admin\/messages$/)
      await page.getByLabel('Buscar por nome, e-mail ou texto').fill(marker)
      await page.getByRole('button', { name: 'Filtrar' }).click()
      await expect(page).toHaveURL(new RegExp(`search=${marker}`))

      const article = page.getByRole('article', { name: 'Bruno Lima' })
      await expect(article).toHaveCount(1)
      await expect(article.getByText('Empresa')).toBeVisible()
      await expect(article.getByRole('link', { name: 'bruno@example.com' })).toHaveAttribute('href', 'mailto:bruno@example.com')
      await expect(article.getByText('não informado')).toBeVisible()
      await expect(article.getByText(`Código ${marker}`)).toBeVisible()
      await expect(article.getByText('Aberta', { exact: true })).toBeVisible()

      await article.getByRole('button', { name: 'Marcar como atendida' }).click()
      await expect(page.getByRole('status').getByText('Mensagem marcada como atendida.')).toBeVisible()
      await expect(page).toHaveURL(new RegExp(`search=${marker}`))
      await expect(article.getByText('Atendida', { exact: true })).toBeVisible()
      await expect(article.getByText(/^Atendida em /)).toBeVisible()

      await page.getByLabel('Situação').selectOption('false')
      await page.getByRole('button', { name: 'Filtrar' }).click()
      await expect(page.getByText('Nenhuma mensagem encontrada.')).toBeVisible()
      await page.getByLabel('Situação').selectOption('true')
      await page.getByRole('button', { name: 'Filtrar' }).click()
      await article.getByRole('button', { name: 'Reabrir' }).click()
      await expect(page.getByRole('status').getByText('Mensagem reaberta.')).toBeVisible()
    })
  })
}

test('a patient gets 403 on /admin/messages; a visitor the sign-in page', async ({ page }) => {
  await page.goto('/admin/messages')
  await expect(page).toHaveURL(/\/auth\?mode=login&redirectTo=%2Fadmin%2Fmessages$/)
  await loginAs(page, demoAccounts.paciente)
  const response = await page.goto('/admin/messages')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso negado')
})

test('the contact page and the messages page have no accessibility violations', async ({ page }) => {
  test.slow()
  for (const lng of ['pt', 'en', 'es']) {
    await page.goto(`/contato?lng=${lng}`)
    await expectNoAxeViolations(page)
  }
  // With the errors shown, too.
  await page.goto('/contato?lng=pt')
  await page.getByRole('button', { name: 'Enviar mensagem' }).click()
  await expect(page.getByText('Este campo é obrigatório').first()).toBeVisible()
  await expectNoAxeViolations(page)

  await page.request.post('/contato', {
    form: { name: 'Carla Dias', email: 'carla@example.com', phone: '11 3333-4444', subject: 'professional', message: 'Sou médica e quero me credenciar.', website: '' },
    maxRedirects: 0,
  })
  await loginAs(page, demoAccounts.admin)
  for (const path of ['/admin/messages', '/admin/messages?handled=false&subject=professional', '/admin/messages?search=nada-encontrado']) {
    await page.goto(path)
    await expectNoAxeViolations(page)
  }
})
