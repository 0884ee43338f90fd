import { type Page } from '@playwright/test'
import { DEMO_PASSWORD, demoAccounts, expect, expectNoAxeViolations, loginAs, mailboxFor, newContext, providerUrl, registerFreshPatient, test } from './fixtures'

/**
 * The admin's live classes (decision 0067): an admin drafts a new class with its English title
 * missing, is refused publishing it, completes it and publishes it; a patient finds it and takes
 * a seat; the admin cancels it, the patient is told and the class shows as cancelled. The pages
 * pass axe at 360 px and on a desktop.
 */

/** São Paulo's date `days` from now (the admin's zone in the demo), as a date input takes it. */
const saoPauloDate = (days: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * 86_400_000))

async function expectAxeAtBothWidths(page: Page) {
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 800 })
  await expectNoAxeViolations(page)
}

test.describe('live classes without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an admin drafts a class, is refused publishing it without English, publishes it; a patient takes a seat; the admin cancels it and the patient is told', async ({ page, browser }) => {
    test.slow()
    const stamp = Date.now()
    const slug = `aula-conversa-${stamp}`
    const title = `Conversa sobre vínculos ${stamp}`
    const admin = await (await newContext(browser, { javaScriptEnabled: false })).newPage()
    await loginAs(admin, demoAccounts.admin)
    await admin.goto('/admin/live-classes')
    await expect(admin.getByRole('heading', { level: 1, name: 'Aulas ao vivo' })).toBeVisible()
    await admin.getByRole('link', { name: 'Nova aula ao vivo' }).click()
    await expect(admin.getByRole('heading', { level: 1, name: 'Nova aula ao vivo' })).toBeVisible()

    await admin.getByLabel('Endereço da aula').fill(slug)
    const titles = admin.getByRole('group', { name: 'Título' })
    await titles.getByLabel('Português').fill(title)
    await titles.getByLabel('Espanhol').fill(`Conversación sobre vínculos ${stamp}`)
    const descriptions = admin.getByRole('group', { name: 'Descrição' })
    await descriptions.getByLabel('Português').fill('Uma conversa ao vivo sobre relações que fazem bem.')
    await descriptions.getByLabel('Inglês').fill('A live talk about relationships that do us good.')
    await descriptions.getByLabel('Espanhol').fill('Una charla en vivo sobre relaciones que hacen bien.')
    await admin.getByLabel('Pilar').selectOption({ label: 'Relacionamentos' })
    await admin.getByLabel('Quem dá a aula').selectOption({ index: 1 })
    await admin.getByLabel('Data').fill(saoPauloDate(3))
    await admin.getByLabel('Hora').fill('19:00')
    await admin.getByLabel('Duração (minutos)').fill('45')
    await admin.getByLabel('Vagas').fill('10')
    await admin.getByLabel('Quem pode participar').selectOption('free')
    await admin.getByRole('button', { name: /^Publicar/ }).click()

    // Refused for the English title, on its field and for the form; the draft was kept.
    await expect(admin.getByText('Não publicado: falta texto em algum idioma.', { exact: false })).toBeVisible()
    await expect(titles.getByText('Falta este idioma: preencha antes de publicar')).toBeVisible()
    await admin.goto('/admin/live-classes')
    await expect(admin.getByRole('region', { name: 'Aulas novas em rascunho' }).getByRole('link', { name: title })).toBeVisible()
    await admin.getByRole('link', { name: title }).click()
    await expect(admin).toHaveURL(new RegExp(`/admin/live-classes/${slug}$`))
    await expect(admin.getByRole('group', { name: 'Título' }).getByLabel('Português')).toHaveValue(title)

    await admin.getByRole('group', { name: 'Título' }).getByLabel('Inglês').fill(`A talk about bonds ${stamp}`)
    await admin.getByRole('button', { name: /^Publicar/ }).click()
    await expect(admin.getByRole('status').filter({ hasText: `“${title}” publicado.` })).toBeVisible()
    await expect(admin.getByText('Agendada', { exact: true })).toBeVisible()
    await expect(admin.getByText('0 de 10 vagas ocupadas')).toBeVisible()
    const memberPath = (await admin.getByRole('link', { name: 'Ver a página da aula como os membros veem' }).getAttribute('href'))!
    expect(memberPath).toMatch(/^\/aulas-ao-vivo\/\d+$/)

    // A patient finds it among the relationships' classes and takes a seat.
    const patient = await registerFreshPatient(page, 'aulaadmin')
    await page.goto('/aulas-ao-vivo?pilar=relacionamentos')
    await page.getByRole('link', { name: title, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${memberPath}$`))
    await page.getByRole('button', { name: 'Reservar minha vaga' }).click()
    await expect(page.getByText('Vaga reservada! Você receberá um lembrete antes da aula.')).toBeVisible()

    // The admin cancels it with a reason; the confirmation says who will be told.
    await admin.reload()
    await expect(admin.getByText('1 de 10 vagas ocupadas')).toBeVisible()
    const cancel = admin.getByRole('region', { name: 'Cancelar a aula' })
    await cancel.getByLabel('Motivo do cancelamento').fill('A professora está doente.')
    await cancel.getByRole('checkbox', { name: 'Cancelar esta aula e avisar por e-mail a 1 pessoa que reservou vaga.' }).check()
    await cancel.getByRole('button', { name: 'Cancelar a aula' }).click()
    await expect(admin.getByRole('status').filter({ hasText: 'Aula cancelada. 1 pessoa foi avisada por e-mail.' })).toBeVisible()
    await expect(admin.getByText('Cancelada', { exact: true })).toBeVisible()
    await expect(admin.getByText('Esta aula foi cancelada e não pode mais ser alterada.')).toBeVisible()
    await admin.context().close()

    // The patient is told; the class is gone from the list and its page says it was cancelled.
    await expect.poll(async () => (await mailboxFor(page, patient.email)).map((mail) => mail.subject)).toContain(`Aula ao vivo "${title}" cancelada`)
    await page.goto('/aulas-ao-vivo?pilar=relacionamentos')
    await expect(page.getByRole('link', { name: title, exact: true })).toHaveCount(0)
    await page.goto(memberPath)
    await expect(page.getByText('Esta aula foi cancelada.')).toBeVisible()
  })
})

test('the admin live-class pages pass axe at 360 px and on a desktop', async ({ browser, page }) => {
  test.slow()
  // A class with a seat to show the schedule and cancel forms: made through the provider.
  const login = await page.request.post(`${providerUrl}/authentication/custom-login/`, { data: { email: demoAccounts.admin, password: DEMO_PASSWORD } })
  const { access } = (await login.json()) as { access: string }
  const title = `Aula axe ${Date.now()}`
  const created = await page.request.post(`${providerUrl}/products/zoom/sessions/`, {
    headers: { Authorization: `Bearer ${access}` },
    data: {
      pillar: 'relacionamentos',
      title: { pt: title, en: title, es: title },
      description: { pt: 'Uma aula.', en: 'A class.', es: 'Una clase.' },
      teacher_id: 2,
      starts_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      duration_minutes: 30,
      seats: 5,
      access: 'free',
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  const { slug } = (await created.json()) as { slug: string }
  const admin = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
  await loginAs(admin, demoAccounts.admin)
  for (const path of ['/admin/live-classes', '/admin/live-classes/new', `/admin/live-classes/${slug}`]) {
    await admin.goto(path)
    await expect(admin.getByRole('heading', { level: 1 })).toBeVisible()
    await expectAxeAtBothWidths(admin)
  }
  await admin.context().close()
})
