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

      // A goal leads to a habit of its pillar; the habit is then named beside the goal (issue 14).
      const sleepGoal = thisWeek.getByRole('listitem').filter({ hasText: 'Sono' }).first()
      await sleepGoal.getByRole('link', { name: /^Criar um hábito para esta meta/ }).click()
      await expect(page.getByLabel('Pilar')).toHaveValue('sono')
      await page.getByLabel('Nome').fill('Deitar às 22h')
      await page.getByRole('radio', { name: 'Todos os dias' }).check()
      await page.getByRole('button', { name: 'Criar hábito' }).click()
      await expect(page.getByRole('article', { name: 'Deitar às 22h' })).toBeVisible()
      await page.goto('/meu-programa')
      await expect(sleepGoal).toContainText('Hábitos para esta meta: Deitar às 22h')

      // The dashboard: the program's week, and today's habits answered with one tap.
      await page.goto('/dashboard')
      await expect(page.getByRole('heading', { name: 'Seu programa: semana 1 de 8' })).toBeVisible()
      const todayHabit = page.getByRole('region', { name: 'Hábitos de hoje' }).getByRole('group', { name: /^Deitar às 22h/ })
      await todayHabit.getByRole('button', { name: 'Feito', exact: true }).click()
      await expect(todayHabit.getByRole('button', { name: 'Feito', exact: true })).toHaveAttribute('aria-pressed', 'true')
      if (!javaScriptEnabled) await expect(page).toHaveURL(/\/dashboard#habitos-hoje$/)
      if (javaScriptEnabled) await expectNoAxeViolations(page)
      if (javaScriptEnabled) {
        await page.goto('/meu-programa')
        await expectNoAxeViolations(page)
      }
    })
  })
}
