import { type BrowserContext, type Page } from '@playwright/test'
import { expect, expectNoAxeViolations, hydrated, test } from './fixtures'

test.use({ consent: false })

/** The stored consent, waiting for it: with JavaScript on, the banner hides while the choice is still being saved. */
async function storedConsent(context: BrowserContext) {
  let found: Record<string, unknown> | null = null
  await expect
    .poll(async () => {
      const cookie = (await context.cookies()).find((item) => item.name === 'innera_consent')
      found = cookie ? { ...(JSON.parse(decodeURIComponent(cookie.value)) as Record<string, unknown>), expires: cookie.expires } : null
      return found
    })
    .not.toBeNull()
  return found as Record<string, unknown> | null
}

const banner = (page: Page) => page.getByRole('region', { name: 'Sua privacidade' })

for (const javaScriptEnabled of [true, false]) {
  test.describe(`cookie banner, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('shows until a choice is made, with three equal choices and a close button', async ({ page }) => {
      await page.goto('/')
      await expect(banner(page)).toBeVisible()
      const buttons = [
        banner(page).getByRole('button', { name: 'Somente necessários' }),
        banner(page).getByRole('button', { name: 'Aceitar todos' }),
        banner(page).getByText('Personalizar', { exact: true }),
      ]
      const boxes = await Promise.all(buttons.map((button) => button.boundingBox()))
      const heights = boxes.map((box) => Math.round(box!.height))
      expect(new Set(heights).size).toBe(1)
      await expect(banner(page).getByRole('button', { name: 'Fechar aviso de cookies' })).toBeVisible()
      // axe runs in the page, so only with JavaScript on.
      if (javaScriptEnabled) await expectNoAxeViolations(page)
    })

    test('necessary only stores the choice and hides the banner', async ({ page, context }) => {
      await page.goto('/sobre')
      await banner(page).getByRole('button', { name: 'Somente necessários' }).click()
      await expect(banner(page)).toBeHidden()
      await expect(page).toHaveURL(/\/sobre$/)
      expect(await storedConsent(context)).toMatchObject({ necessary: true, preferences: false, analytics: false, marketing: false, consented: true, version: '1.0' })
      await page.reload()
      await expect(banner(page)).toBeHidden()
    })

    test('accept all grants every category', async ({ page, context }) => {
      await page.goto('/')
      await banner(page).getByRole('button', { name: 'Aceitar todos' }).click()
      await expect(banner(page)).toBeHidden()
      const consent = await storedConsent(context)
      expect(consent).toMatchObject({ preferences: true, analytics: true, marketing: true, consented: true })
      expect(typeof consent?.timestamp).toBe('string')
    })

    test('customize and save stores exactly the chosen categories; necessary has no toggle', async ({ page, context }) => {
      await page.goto('/')
      await banner(page).getByText('Personalizar', { exact: true }).click()
      await expect(banner(page).getByText('Sempre ativos')).toBeVisible()
      await expect(banner(page).getByRole('checkbox', { name: /Necessários/ })).toHaveCount(0)
      await expect(banner(page).getByRole('link', { name: 'Leia a política de privacidade' })).toHaveAttribute('href', '/privacidade')
      await banner(page).getByRole('checkbox', { name: /Análise/ }).check()
      await banner(page).getByRole('button', { name: 'Salvar preferências' }).click()
      await expect(banner(page)).toBeHidden()
      expect(await storedConsent(context)).toMatchObject({ preferences: false, analytics: true, marketing: false, consented: true })
    })

    test('closing hides the banner for the browser session without consenting', async ({ page, context }) => {
      await page.goto('/')
      await banner(page).getByRole('button', { name: 'Fechar aviso de cookies' }).click()
      await expect(banner(page)).toBeHidden()
      const consent = await storedConsent(context)
      expect(consent).toMatchObject({ consented: false, analytics: false })
      expect(consent?.expires).toBe(-1)
    })

    test('the choice can be changed later from the footer', async ({ page, context }) => {
      await page.goto('/')
      // With JavaScript, the choice is sent by the page's script: a click before hydration would
      // post the form instead (what the walk without JavaScript proves).
      if (javaScriptEnabled) await hydrated(page)
      // The banner hides at once; the choice is saved, and the page's data read again, a moment
      // later. A click before that would race the save (the panel would show the old choice).
      const reread =
        javaScriptEnabled && page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname.endsWith('.data'))
      await banner(page).getByRole('button', { name: 'Aceitar todos' }).click()
      await expect(banner(page)).toBeHidden()
      await reread
      expect(await storedConsent(context)).toMatchObject({ marketing: true })
      await page.getByRole('link', { name: 'Configurações de cookies' }).click()
      await expect(banner(page)).toBeVisible()
      await expect(banner(page).getByRole('checkbox', { name: /Marketing/ })).toBeChecked()
      await banner(page).getByRole('checkbox', { name: /Marketing/ }).uncheck()
      await banner(page).getByRole('checkbox', { name: /Análise/ }).uncheck()
      await banner(page).getByRole('button', { name: 'Salvar preferências' }).click()
      await expect(banner(page)).toBeHidden()
      await expect(page).not.toHaveURL(/cookie-settings/)
      expect(await storedConsent(context)).toMatchObject({ preferences: true, analytics: false, marketing: false })
    })
  })
}

test('the banner speaks the page language', async ({ page }) => {
  await page.goto('/?lng=en')
  await expect(page.getByRole('region', { name: 'Your privacy' }).getByRole('button', { name: 'Necessary only' })).toBeVisible()
  await page.goto('/?lng=es')
  await expect(page.getByRole('region', { name: 'Tu privacidad' }).getByRole('button', { name: 'Solo necesarias' })).toBeVisible()
  await expectNoAxeViolations(page)
})
