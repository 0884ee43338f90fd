import { type Page } from '@playwright/test'
import { expect, expectNoAxeViolations, hydrated, registerFreshPatient, test } from './fixtures'

/**
 * The notification settings (issue 44, decision 0087) at 360 px, for a patient of their own (the
 * settings are per user, so no other walk sees them): without JavaScript the channels and quiet
 * hours are saved and shown again, a refusal keeps what was typed, and the page says push needs
 * JavaScript while e-mail stays; with JavaScript the page passes axe.
 */

test.use({ viewport: { width: 360, height: 740 } })

async function fits(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('the channels and quiet hours are saved and shown again; a refusal keeps what was typed', async ({ page }) => {
    await registerFreshPatient(page, 'avisos')
    await page.goto('/configuracoes')
    await page.getByRole('link', { name: 'Notificações de mensagens' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Notificações' })).toBeVisible()
    await expect(page.getByText('Este navegador não recebe notificações push, ou o JavaScript está desligado. Os avisos por e-mail continuam.')).toBeVisible()
    const email = page.getByRole('checkbox', { name: 'E-mail' })
    const push = page.getByRole('checkbox', { name: 'Notificação push' })
    await expect(email).toBeChecked()
    await expect(push).not.toBeChecked()
    await expect(page.getByText('America/Sao_Paulo')).toBeVisible()

    // One end alone: refused, what was typed kept.
    await email.uncheck()
    await page.getByLabel('Das').fill('22:30')
    await page.getByRole('button', { name: 'Salvar preferências' }).click()
    await expect(page.getByText('Informe o início e o fim, ou deixe os dois em branco.')).toBeVisible()
    await expect(page.getByLabel('Das')).toHaveValue('22:30')
    await expect(page.getByRole('checkbox', { name: 'E-mail' })).not.toBeChecked()

    await page.getByLabel('Até').fill('07:00')
    await page.getByRole('button', { name: 'Salvar preferências' }).click()
    await expect(page.getByText('Preferências de notificação salvas.')).toBeVisible()
    // A fresh load shows what the provider keeps.
    await page.goto('/configuracoes/notificacoes')
    await expect(page.getByRole('checkbox', { name: 'E-mail' })).not.toBeChecked()
    await expect(page.getByRole('checkbox', { name: 'Notificação push' })).not.toBeChecked()
    await expect(page.getByLabel('Das')).toHaveValue('22:30')
    await expect(page.getByLabel('Até')).toHaveValue('07:00')
    await fits(page)
  })
})

test('the page passes axe and fits 360 px; with JavaScript it offers push, and its service worker registers', async ({ page }) => {
  await registerFreshPatient(page, 'avisosjs')
  await page.goto('/configuracoes/notificacoes')
  await hydrated(page)
  // The script found PushManager: the button, or (the headless shell refuses notifications) why not.
  await expect(page.getByRole('button', { name: 'Ativar notificações neste navegador' }).or(page.getByText('As notificações estão bloqueadas nas permissões deste navegador.', { exact: false }))).toBeVisible()
  await expect(page.getByText('Este navegador não recebe notificações push', { exact: false })).toHaveCount(0)
  await fits(page)
  await expectNoAxeViolations(page)
  // The worker the button registers: served by the app, let in by the page's CSP (worker-src).
  expect(await page.evaluate(async () => (await navigator.serviceWorker.register('/sw.js', { scope: '/' })).scope)).toMatch(/\/$/)
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
})
