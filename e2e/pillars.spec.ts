import { expect, expectNoAxeViolations, test } from './fixtures'

for (const javaScriptEnabled of [true, false]) {
  test.describe(`pillar selection, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('multiple mode toggles pillars in and out; single mode keeps one; reset clears', async ({ page }) => {
      await page.goto('/pilares')
      const items = page.locator('main ol > li')
      await expect(items).toHaveCount(6)
      await expect(items.nth(0)).toHaveAttribute('data-position', 'left')
      await expect(items.nth(1)).toHaveAttribute('data-position', 'right')

      const sono = page.getByRole('button', { name: /^Sono/ })
      const estresse = page.getByRole('button', { name: /^Gestão do estresse/ })
      await sono.click()
      await expect(sono).toHaveAttribute('aria-pressed', 'true')
      await estresse.click()
      await expect(estresse).toHaveAttribute('aria-pressed', 'true')
      await expect(page.getByRole('status').filter({ hasText: 'pilares selecionados' })).toHaveText('2 pilares selecionados')
      await sono.click()
      await expect(sono).toHaveAttribute('aria-pressed', 'false')

      await page.getByRole('link', { name: 'Um pilar' }).click()
      await expect(page).toHaveURL(/mode=single/)
      await page.getByRole('button', { name: /^Alimentação/ }).click()
      await page.getByRole('button', { name: /^Sono/ }).click()
      await expect(page.getByRole('button', { name: /^Sono/ })).toHaveAttribute('aria-pressed', 'true')
      await expect(page.getByRole('button', { name: /^Alimentação/ })).toHaveAttribute('aria-pressed', 'false')

      await page.getByRole('button', { name: 'Limpar seleção' }).click()
      await expect(page.locator('main ol button[aria-pressed="true"]')).toHaveCount(0)
      if (javaScriptEnabled) await expectNoAxeViolations(page)
    })
  })
}
