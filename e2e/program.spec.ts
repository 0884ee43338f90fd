import { expect, expectNoAxeViolations, registerFreshPatient, test } from './fixtures'

for (const javaScriptEnabled of [true, false]) {
  test.describe(`my program, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    test('a patient builds the program from the chosen pillars and ticks a goal; the dashboard shows the week', async ({ page }) => {
      await page.goto('/')
      await registerFreshPatient(page, javaScriptEnabled ? 'progjs' : 'prog')
      await page.goto('/meu-programa')
      // Without an assessment or chosen pillars, the provider's refusal is explained.
      await page.getByRole('button', { name: 'Montar programa' }).click()
      await expect(page.getByRole('alert')).toHaveText('Faça a avaliação de saúde ou escolha seus pilares para montar o programa.')

      await page.goto('/pilares')
      await page.getByRole('button', { name: /^Sono/ }).click()
      await expect(page.getByRole('button', { name: /^Sono/ })).toHaveAttribute('aria-pressed', 'true')
      await page.goto('/meu-programa')
      await page.getByRole('radio', { name: /Os pilares que escolhi: Sono/ }).check()
      await page.getByRole('button', { name: 'Montar programa' }).click()
      await expect(page.getByRole('heading', { name: 'Semana 1 de 8' })).toBeVisible()
      await expect(page.getByText('Pilares em foco: Sono')).toBeVisible()

      const thisWeek = page.getByRole('region', { name: 'Metas desta semana' }).or(page.locator('section[aria-labelledby="this-week-title"]'))
      await thisWeek.getByRole('button', { name: /^Concluir/ }).first().click()
      await expect(page.getByText(/^1 de \d+ metas concluídas/)).toBeVisible()

      await page.goto('/dashboard')
      await expect(page.getByRole('heading', { name: 'Seu programa: semana 1 de 8' })).toBeVisible()
      if (javaScriptEnabled) await expectNoAxeViolations(page)
      if (javaScriptEnabled) {
        await page.goto('/meu-programa')
        await expectNoAxeViolations(page)
      }
    })
  })
}
