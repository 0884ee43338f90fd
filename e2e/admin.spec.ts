import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, mailboxFor, newContext, payConsultationByPix, payPixPurchase, registerFreshPatient, test } from './fixtures'

/**
 * The admin console (issue 26, decisions 0059, 0061, 0062): an admin accredits a new professional,
 * who is then in the directory and booked by a patient; an admin refunds a patient's purchase;
 * both changes are in the audit log. The pages pass axe at 360 px and on a desktop, and a patient
 * gets 403 from each of them, their data (`.data`) and the exports.
 */

/** Letters only (a person's name is letters, docs/product.md §5), different on every call. */
const uniqueLetters = () => Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')

/** A new account made through the app's registration (not signed in anywhere), with a name no other test has. */
async function registerAccount(page: Page, label: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`
  const surname = uniqueLetters()
  const account = { name: `Clara ${surname[0]!.toUpperCase()}${surname.slice(1)}`, email: `${label}.${stamp}@example.com`, password: 'caminhada-matinal-2025' }
  const response = await page.request.post('/auth?mode=register', {
    form: { name: account.name, username: `${label}${stamp}`, email: account.email, password: account.password, confirmPassword: account.password, acceptTerms: 'on' },
    maxRedirects: 0,
  })
  expect(response.status(), 'registration').toBe(303)
  // The provider makes the account just after answering; its mailbox answers once that is done.
  await mailboxFor(page, account.email)
  return account
}

/** The page at 360 px, then on a desktop, passes axe (JavaScript on: axe runs in the page). */
async function expectAxeAtBothWidths(page: Page) {
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 800 })
  await expectNoAxeViolations(page)
}

test.describe('accreditation without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an admin accredits a new professional, who is then in the directory and booked by a patient; the audit log has it; the pages pass axe', async ({ page, browser }) => {
    test.slow()
    const professional = await registerAccount(page, 'credenciada')

    // The admin finds the new account and accredits it.
    const admin = await (await newContext(browser, { javaScriptEnabled: false })).newPage()
    await loginAs(admin, demoAccounts.admin)
    await admin.goto('/admin/dashboard')
    await admin.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Usuários' }).click()
    await admin.getByLabel('Buscar por nome, usuário ou e-mail').fill(professional.email)
    await admin.getByRole('button', { name: 'Buscar' }).click()
    await admin.getByRole('link', { name: professional.name }).click()
    await expect(admin).toHaveURL(/\/admin\/users\/\d+$/)
    const userPath = new URL(admin.url()).pathname
    await expect(admin.getByRole('heading', { level: 1, name: professional.name })).toBeVisible()
    await expect(admin.getByText('Não é profissional credenciado')).toBeVisible()

    const form = admin.getByRole('region', { name: 'Credenciamento profissional' })
    await form.getByLabel('Profissão').fill('Psicóloga')
    await form.getByLabel('Número de registro').fill('CRP-06 123456')
    await form.getByRole('checkbox', { name: 'Sono' }).check()
    await form.getByRole('checkbox', { name: 'Gestão do estresse' }).check()
    await expect(form.getByRole('checkbox', { name: 'Português' })).toBeChecked()
    await form.getByRole('checkbox', { name: 'Inglês' }).check()
    await form.getByLabel('Preço da consulta (R$)').fill('120,00')
    await form.getByRole('button', { name: 'Credenciar' }).click()
    await expect(admin).toHaveURL(new RegExp(`${userPath}$`))
    await expect(admin.getByRole('status').filter({ hasText: 'Profissional credenciado.' })).toBeVisible()
    await expect(admin.getByText('Credenciado: Psicóloga, registro CRP-06 123456, consulta a R$ 120,00')).toBeVisible()
    await expect(admin.getByRole('region', { name: 'Dados da conta' })).toContainText(/Perfil\s*Profissional/)

    // A patient finds her in the directory, under one of her pillars, and books her.
    await registerFreshPatient(page, 'agendacredenciada')
    await page.goto('/consultas/profissionais')
    await page.getByRole('link', { name: 'Sono' }).click()
    const card = page.getByRole('article', { name: professional.name })
    await expect(card).toContainText('Psicóloga · Registro CRP-06 123456')
    await expect(card).toContainText('R$ 120,00')
    await card.getByRole('link', { name: 'Agendar' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Agendar consulta' })).toBeVisible()
    await page.getByRole('radio').first().check()
    await page.getByRole('button', { name: 'Continuar' }).click()
    await expect(page.getByRole('region', { name: 'Confira seu agendamento' }).getByText('R$ 120,00')).toBeVisible()
    await page.getByRole('button', { name: 'Confirmar agendamento' }).click()
    await payConsultationByPix(page)
    await expect(page.getByText('Agendada', { exact: true })).toBeVisible()

    // Her page counts the booking; her audit log has the accreditation, by the admin, with what changed.
    await admin.goto(userPath)
    await expect(admin.getByText('1 como profissional, 0 como paciente')).toBeVisible()
    await admin.getByRole('link', { name: 'Ver o registro de auditoria deste usuário' }).click()
    await expect(admin).toHaveURL(/\/admin\/audit\?subject=\d+$/)
    const entry = admin.getByTestId('audit-entries').getByRole('row').filter({ hasText: 'Profissional credenciado' })
    await expect(entry).toHaveCount(1)
    await expect(entry).toContainText('Alice Admin')
    await expect(entry.getByRole('link', { name: professional.name })).toBeVisible()
    await expect(entry).toContainText('CRP-06 123456')
    const auditPath = `${new URL(admin.url()).pathname}${new URL(admin.url()).search}`
    await admin.context().close()

    // The user's page (accredited: the revocation form shows) and the audit log pass axe.
    const withScript = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
    await loginAs(withScript, demoAccounts.admin)
    for (const path of [userPath, auditPath]) {
      await withScript.goto(path)
      await expectAxeAtBothWidths(withScript)
    }
    await withScript.context().close()
  })
})

test('an admin finds a purchase by its buyer, sees what the terms give back, refunds it with a reason; the audit log has it; the pages pass axe', async ({ page, browser }) => {
  test.slow()
  const buyer = await registerFreshPatient(page, 'reembolsoadmin')
  await page.goto('/solucoes?tipo=course')
  await page.getByRole('button', { name: /^Adicionar ao carrinho.*Curso Comida de verdade/ }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
  await page.goto('/carrinho')
  await expect(page.getByRole('radio', { name: /^PIX/ })).toBeChecked()
  await page.getByRole('button', { name: /^Pagar R\$/ }).click()
  const purchaseId = /\/compras\/(\d+)$/.exec(await payPixPurchase(page))![1]!

  const admin = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
  await loginAs(admin, demoAccounts.admin)
  await admin.goto('/admin/dashboard')
  await admin.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Compras' }).click()
  await expect(admin.getByRole('heading', { level: 1, name: 'Compras' })).toBeVisible()
  await admin.getByLabel('Comprador (e-mail ou nome) ou nº da compra').fill(buyer.email)
  await admin.getByRole('button', { name: 'Filtrar' }).click()
  await expect(admin).toHaveURL(/[?&]search=/)
  const rows = admin.getByTestId('admin-purchases').locator('tbody tr')
  await expect(rows).toHaveCount(1)
  await expect(rows).toContainText('Curso Comida de verdade')
  await expect(rows).toContainText('Paga')
  await expectAxeAtBothWidths(admin)

  await admin.getByRole('link', { name: `Abrir a compra nº ${purchaseId}` }).click()
  await expect(admin).toHaveURL(new RegExp(`/admin/purchases/${purchaseId}$`))
  await expect(admin.getByTestId('admin-purchase-status')).toHaveText('Paga')
  await expect(admin.getByRole('region', { name: 'Dados da compra' })).toContainText(buyer.email)
  const total = (await admin.getByTestId('admin-purchase-total').textContent())!.trim()
  await expect(admin.getByTestId('refund-quote')).toHaveText(`Pelos termos, esta compra pode ser reembolsada agora por inteiro: ${total}.`)
  await expect(admin.getByText('Dentro dos 7 dias de desistência: tudo é devolvido e o acesso termina.')).toBeVisible()
  await expect(admin.getByText(/^O reembolso por PIX chega em até 3 dias úteis: até /).first()).toBeVisible()
  await expectAxeAtBothWidths(admin)

  const reason = 'A compradora pediu pelo suporte: comprou o curso errado.'
  await admin.getByLabel('Motivo do reembolso').fill(reason)
  await admin.getByRole('button', { name: `Reembolsar ${total}` }).click()
  await expect(admin.getByRole('status').filter({ hasText: `Reembolso de ${total} feito.` })).toBeVisible()
  await expect(admin.getByTestId('admin-purchase-status')).toHaveText('Reembolsada')
  await expect(admin.getByTestId('admin-purchase-refunded')).toHaveText(total)
  await expect(admin.getByTestId('refund-refusal')).toHaveText('Esta compra já foi reembolsada.')
  const refund = admin.getByTestId('refunds').getByRole('listitem')
  await expect(refund).toHaveCount(1)
  await expect(refund).toContainText(total)
  await expect(refund).toContainText('Por Alice Admin (admin)')
  await expect(refund).toContainText(`Motivo: ${reason}`)

  // The buyer's purchase says so too; the audit log keeps who refunded it, and why.
  await page.reload()
  await expect(page.getByTestId('purchase-status')).toHaveText('Compra reembolsada')
  await admin.goto(`/admin/audit?subject=${encodeURIComponent(buyer.email)}`)
  const entry = admin.getByTestId('audit-entries').getByRole('row').filter({ hasText: 'Compra reembolsada' })
  await expect(entry).toHaveCount(1)
  await expect(entry).toContainText(`#${purchaseId}`)
  await expect(entry).toContainText('Alice Admin')
  await expect(entry).toContainText(`Motivo: ${reason}`)
  await admin.context().close()
})

test('the admin dashboard, its charts and tables, passes axe at 360 px @small-screen', async ({ page }) => {
  await loginAs(page, demoAccounts.admin)
  await page.goto('/admin/dashboard')
  await expect(page.getByRole('img').first()).toBeVisible()
  await expectNoAxeViolations(page)
  // With a chart's table open as well.
  await page.getByRole('main').getByText(/^Ver como tabela/).first().click()
  await expect(page.getByRole('main').locator('details[open] table')).toBeVisible()
  await expectNoAxeViolations(page)
})

test('a patient gets 403 from every new admin page, its data (.data) and the exports', async ({ page }) => {
  await loginAs(page, demoAccounts.paciente)
  const pages = ['/admin/users/2', '/admin/audit', '/admin/purchases', '/admin/purchases/1', '/admin/dashboard']
  for (const path of pages) {
    for (const url of [path, `${path}.data`]) {
      const response = await page.request.get(url, { maxRedirects: 0 })
      expect(response.status(), url).toBe(403)
      // Nothing of what the admin pages show (Paula's page, the admin in the audit log).
      expect(await response.text(), url).not.toMatch(/(admin|profissional)@innera\.local/)
    }
  }
  for (const path of ['/admin/audit/export', '/admin/purchases/export']) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(403)
  }
  const response = await page.goto('/admin/audit')
  expect(response?.status()).toBe(403)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso negado')
})
