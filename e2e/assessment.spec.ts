import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, registerFreshPatient, test } from './fixtures'

const uniqueLabel = (prefix: string) => `${prefix}${Math.floor(Math.random() * 1e6)}`

/** Answers every step with the same option and sends the assessment; checks axe on the way when asked. */
async function completeAssessment(page: Page, { value = '2', axe = false } = {}) {
  await page.goto('/avaliacao')
  for (let step = 0; step < 6; step++) {
    await expect(page.locator('label[for="assessment-progress"]')).toHaveText(`Etapa ${step + 1} de 6`)
    const fieldsets = page.locator('main form fieldset')
    const count = await fieldsets.count()
    expect(count).toBeGreaterThan(0)
    for (let index = 0; index < count; index++) await fieldsets.nth(index).locator(`input[type="radio"][value="${value}"]`).check()
    if (axe && step === 0) await expectNoAxeViolations(page)
    await page.getByRole('button', { name: step === 5 ? 'Revisar respostas' : 'Avançar' }).click()
  }
  await expect(page.getByRole('heading', { name: 'Revise suas respostas' })).toBeVisible()
  if (axe) await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Enviar avaliação' }).click()
  await expect(page).toHaveURL(/\/avaliacao\/resultado\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Resultado da avaliação' })).toBeVisible()
}

test('anonymous visitors are asked to sign in and come back', async ({ page }) => {
  await page.goto('/avaliacao')
  const signIn = page.getByRole('link', { name: 'Entrar para começar' })
  await expect(signIn).toHaveAttribute('href', /redirectTo=%2Favaliacao/)
  await expectNoAxeViolations(page)
})

for (const javaScriptEnabled of [false, true]) {
  test.describe(`assessment, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('a step needs every answer, back keeps them, and the whole assessment ends on the results', async ({ page }) => {
      // 36 questions over 7 pages: a long walk on a 2-core machine.
      test.slow()
      await registerFreshPatient(page, uniqueLabel('aval'))
      await page.goto('/avaliacao')
      const first = page.locator('main form fieldset').first()
      const question = (await first.locator('legend').textContent())!.trim()
      await page.getByRole('button', { name: 'Avançar' }).click()
      await expect(page.getByText(`Responda: ${question}`).first()).toBeVisible()

      const fieldsets = page.locator('main form fieldset')
      const count = await fieldsets.count()
      for (let index = 0; index < count; index++) await fieldsets.nth(index).locator('input[type="radio"][value="3"]').check()
      await page.getByRole('button', { name: 'Avançar' }).click()
      await expect(page.locator('label[for="assessment-progress"]')).toHaveText('Etapa 2 de 6')
      await page.getByRole('button', { name: 'Voltar' }).click()
      await expect(page.locator('label[for="assessment-progress"]')).toHaveText('Etapa 1 de 6')
      await expect(page.locator('main form input[type="radio"][value="3"]:checked')).toHaveCount(count)

      await completeAssessment(page, { axe: javaScriptEnabled })
      await expect(page.locator('main table tbody tr')).toHaveCount(6)
      await expect(page.getByTestId('score-chart')).toBeVisible()
      await expect(page.getByRole('link', { name: 'Monte seu programa' })).toHaveAttribute('href', '/programa')
      if (javaScriptEnabled) await expectNoAxeViolations(page)
    })
  })
}

test('sharing with a professional, who sees the result until the share is removed', async ({ page, browser }) => {
  test.slow()
  const patient = await registerFreshPatient(page, uniqueLabel('share'))
  await completeAssessment(page)
  const resultUrl = new URL(page.url()).pathname

  await page.getByRole('checkbox', { name: /Paula/ }).check()
  await page.getByRole('button', { name: 'Compartilhar' }).click()
  await expect(page.getByTestId('shared-with')).toContainText('Paula')
  await expectNoAxeViolations(page)

  const context = await newContext(browser)
  const professional = await context.newPage()
  await loginAs(professional, demoAccounts.profissional)
  await professional.goto('/profissional/avaliacoes')
  const link = professional.getByRole('link', { name: new RegExp(patient.name) })
  await expect(link).toBeVisible()
  await expectNoAxeViolations(professional)
  await link.click()
  await expect(professional).toHaveURL(new RegExp(`${resultUrl}$`))
  await expect(professional.getByText(`Paciente: ${patient.name}`)).toBeVisible()
  await expect(professional.getByRole('heading', { name: 'Compartilhar com profissionais' })).toHaveCount(0)
  await expectNoAxeViolations(professional)

  await page.getByRole('button', { name: /Deixar de compartilhar com Paula/ }).click()
  await expect(page.getByText('Este resultado ainda não foi compartilhado.')).toBeVisible()

  await professional.goto('/profissional/avaliacoes')
  await expect(professional.getByRole('link', { name: new RegExp(patient.name) })).toHaveCount(0)
  const response = await professional.goto(resultUrl)
  expect(response?.status()).toBe(404)
  await context.close()
})

test('history shows trends after two submissions', async ({ page }) => {
  test.slow()
  await registerFreshPatient(page, uniqueLabel('hist'))
  await completeAssessment(page, { value: '1' })
  await page.goto('/avaliacao/historico')
  await expect(page.getByTestId('history-list').locator('li')).toHaveCount(1)
  await expect(page.getByTestId('trends')).toHaveCount(0)
  await completeAssessment(page, { value: '3' })
  await page.goto('/avaliacao/historico')
  await expect(page.getByTestId('history-list').locator('li')).toHaveCount(2)
  await expect(page.getByTestId('trends').locator('svg')).toHaveCount(6)
  await expectNoAxeViolations(page)
})
