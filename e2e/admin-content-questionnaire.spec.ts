import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, registerFreshPatient, test } from './fixtures'

/**
 * The question bank's versions in the admin content editor (decisions 0064 and 0068): an admin
 * starts a new version (a copy of the current one), rewrites one question's Portuguese and leaves
 * its Spanish empty, is refused on that input when publishing, completes it and publishes; a
 * patient's assessment then shows the new text. Only that one text changes (same codes, number of
 * questions and pillars), so the other walks that answer the assessment are unaffected. The pages
 * pass axe at 360 px and on a desktop.
 */

/** A version string no other run has (the database outlives a retried test). */
const uniqueVersion = () => `e2e.${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`

async function startVersion(admin: Page, version: string) {
  await admin.goto('/admin/questionnaire')
  await admin.getByLabel('Nome da versão').fill(version)
  await admin.getByRole('button', { name: 'Começar nova versão' }).click()
  await expect(admin).toHaveURL(new RegExp(`/admin/questionnaire/${version.replace('.', '\\.')}$`))
  await expect(admin.getByRole('heading', { level: 1, name: `Versão ${version}` })).toBeVisible()
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('an admin publishes a new version with one question rewritten; a missing Spanish text is refused first; patients then see it', async ({ page, browser }) => {
    test.slow()
    await loginAs(page, demoAccounts.admin)
    const version = uniqueVersion()
    await startVersion(page, version)

    const question = page.getByRole('group', { name: /^Pergunta 4 \(/ })
    const portuguese = question.getByRole('textbox', { name: 'Português (Texto da pergunta)', exact: true })
    const spanish = question.getByRole('textbox', { name: 'Espanhol (Texto da pergunta)', exact: true })
    const rewritten = `Nos últimos dias, com que frequência você se sentiu descansado ao acordar? (${version})`
    await portuguese.fill(rewritten)
    await spanish.fill('')
    // A draft may lack a language.
    await page.getByRole('button', { name: /^Salvar rascunho/ }).click()
    await expect(page.getByText(`Rascunho de “${version}” salvo.`)).toBeVisible()
    await expect(question.getByRole('textbox', { name: 'Espanhol (Texto da pergunta)', exact: true })).toHaveValue('')

    // Publishing is refused, on the Spanish input and for the form; what was typed stays.
    await page.getByRole('button', { name: /^Publicar/ }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Não publicado: falta texto em algum idioma.' })).toBeVisible()
    const refusedSpanish = page.getByRole('group', { name: /^Pergunta 4 \(/ }).getByRole('textbox', { name: 'Espanhol (Texto da pergunta)', exact: true })
    await expect(refusedSpanish).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByText('Falta este idioma: preencha antes de publicar')).toHaveCount(1)
    await expect(page.getByRole('group', { name: /^Pergunta 4 \(/ }).getByRole('textbox', { name: 'Português (Texto da pergunta)', exact: true })).toHaveValue(rewritten)

    await refusedSpanish.fill('En los últimos días, ¿con qué frecuencia te has sentido descansado al despertar?')
    await page.getByRole('button', { name: /^Publicar/ }).click()
    await expect(page).toHaveURL(/\/admin\/questionnaire$/)
    await expect(page.getByText(`“${version}” publicado.`)).toBeVisible()
    const listed = page.getByTestId('questionnaire-versions').getByRole('listitem').first()
    await expect(listed).toContainText(version)
    await expect(listed).toContainText('Atual')
    await expect(listed).toContainText('36 perguntas')

    // A patient's assessment now asks the new question.
    const context = await newContext(browser, { javaScriptEnabled: false })
    const patient = await context.newPage()
    await registerFreshPatient(patient, 'versao')
    await patient.goto('/avaliacao')
    await expect(patient.getByText(rewritten)).toBeVisible()
    await context.close()
  })
})

test('the version pages pass axe at 360 px and on a desktop', async ({ page }) => {
  test.slow()
  await loginAs(page, demoAccounts.admin)
  const version = uniqueVersion()
  await startVersion(page, version)
  for (const path of ['/admin/questionnaire', `/admin/questionnaire/${version}`]) {
    await page.goto(path)
    await page.setViewportSize({ width: 360, height: 800 })
    await expectNoAxeViolations(page)
    await page.setViewportSize({ width: 1280, height: 800 })
    await expectNoAxeViolations(page)
  }
  // Leaves nothing behind: the draft is discarded.
  await page.getByRole('button', { name: /^Descartar rascunho/ }).click()
  await expect(page).toHaveURL(/\/admin\/questionnaire$/)
})
