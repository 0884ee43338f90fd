import { type Locator, type Page } from '@playwright/test'
import { expect, expectNoAxeViolations, registerFreshPatient, test } from './fixtures'

/**
 * Habit tracking (issue 14), as a patient uses it: with JavaScript off, create a habit with a
 * target (a wrong form first), answer today by plain form posts, see the streak, open the habit's
 * page, archive and restore it, delete it after the confirmation; with JavaScript on, a suggestion
 * fills the form and a tap answers without a reload (a refused amount rolls back, with a toast).
 */

const habitCard = (page: Page, name: string) => page.getByRole('article', { name })
const today = (card: Locator) => card.getByRole('group', { name: /^Hoje,/ })

test.describe('habits with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('create a habit with a target, track today, see the streak and the habit page; archive, restore, delete', async ({ page }) => {
    await page.goto('/')
    await registerFreshPatient(page, 'habito')
    await page.goto('/dashboard')
    await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Meus hábitos' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Meus hábitos' })).toBeVisible()
    await page.getByRole('link', { name: 'Criar meu primeiro hábito' }).click()

    // A wrong form comes back with the reasons and what was typed.
    await page.getByLabel('Quantidade por dia').fill('-3')
    await page.getByLabel('Unidade').fill('copos')
    await page.getByRole('button', { name: 'Criar hábito' }).click()
    await expect(page.getByText('Este campo é obrigatório')).toBeVisible()
    await expect(page.getByText('Escolha um pilar', { exact: true }).last()).toBeVisible()
    await expect(page.getByLabel('Unidade')).toHaveValue('copos')

    await page.getByLabel('Nome').fill('Beber água')
    await page.getByLabel('Pilar').selectOption({ label: 'Alimentação' })
    await page.getByRole('radio', { name: 'Todos os dias' }).check()
    await page.getByLabel('Quantidade por dia').fill('8')
    await page.getByRole('button', { name: 'Criar hábito' }).click()
    await expect(page.getByText('Hábito “Beber água” criado.')).toBeVisible()
    await expect(page).toHaveURL(/\/habitos#habito-\d+$/)

    const card = habitCard(page, 'Beber água')
    await expect(page.getByRole('region', { name: 'Alimentação' })).toContainText('Beber água')
    // A skip first: it neither starts nor breaks a streak.
    await today(card).getByRole('button', { name: 'Pular' }).click()
    await expect(page.getByText('“Beber água”: dia pulado.')).toBeVisible()
    await expect(today(card).getByRole('button', { name: 'Pular' })).toHaveAttribute('aria-pressed', 'true')
    await expect(card.getByText('Ainda não começou')).toBeVisible()

    // A wrong amount comes back beside the day, as typed.
    await today(card).getByLabel('Quantidade (copos)').fill('muito')
    await today(card).getByRole('button', { name: 'Salvar quantidade' }).click()
    await expect(today(habitCard(page, 'Beber água')).getByRole('alert')).toHaveText('Informe uma quantidade válida (um número a partir de zero)')
    await expect(today(habitCard(page, 'Beber água')).getByLabel('Quantidade (copos)')).toHaveValue('muito')

    await today(card).getByLabel('Quantidade (copos)').fill('8')
    await today(card).getByRole('button', { name: 'Salvar quantidade' }).click()
    await expect(page.getByText('“Beber água”: feito. Muito bem!')).toBeVisible()
    await expect(today(card).getByRole('button', { name: 'Feito', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect(today(card)).toContainText('8 de 8 copos')
    await expect(card.getByText('1 dia', { exact: true })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Alimentação' })).toContainText('Últimos 28 dias: 100% dos dias previstos cumpridos')
    // Yesterday came before the habit: shown, not trackable.
    await card.getByText('Outros dias da semana').click()
    await expect(card.getByText(/^Ontem, .*: antes do início deste hábito$/)).toBeVisible()

    await card.getByRole('link', { name: 'Beber água' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Beber água' })).toBeVisible()
    await expect(page.getByText('Sequência atual')).toBeVisible()
    await expect(page.getByRole('img', { name: /^Mapa de calor de/ })).toBeVisible()
    await expect(page.getByTestId('weekly-rates').getByRole('listitem')).toHaveCount(12)
    await expect(page.getByTestId('weekly-rates').getByRole('listitem').last()).toContainText('Esta semana')

    await page.getByRole('button', { name: 'Arquivar' }).click()
    await expect(page.getByText('Hábito “Beber água” arquivado.')).toBeVisible()
    await expect(page.getByText('Arquivado', { exact: true })).toBeVisible()
    await page.goto('/habitos?arquivados=1')
    await page.getByRole('button', { name: /^Restaurar\s?: Beber água$/ }).click()
    await expect(page.getByText('Hábito “Beber água” restaurado.')).toBeVisible()

    await page.goto('/habitos')
    await habitCard(page, 'Beber água').getByRole('link', { name: 'Beber água' }).click()
    await page.getByRole('link', { name: 'Excluir' }).click()
    await expect(page.getByRole('heading', { name: 'Excluir “Beber água”?' })).toBeVisible()
    await page.getByRole('button', { name: 'Excluir de vez' }).click()
    await expect(page.getByText('Hábito excluído.')).toBeVisible()
    await expect(page.getByText('Você ainda não tem hábitos.', { exact: false })).toBeVisible()
  })
})

test.describe('habits with JavaScript on', () => {
  test('a suggestion fills the form; one tap answers today without a reload; a refused amount rolls back @mobile', async ({ page }) => {
    // A long walk (register, create, taps, a refusal, the edit page, axe on each): more than 30 s on a loaded machine.
    test.slow()
    await page.goto('/')
    await registerFreshPatient(page, 'habitojs')
    await page.goto('/habitos/novo')
    await expect(page.getByRole('heading', { level: 1, name: 'Novo hábito' })).toBeVisible()
    await expectNoAxeViolations(page)
    await page.getByRole('region', { name: 'Sugestões para você' }).getByRole('link', { name: 'Caminhada' }).click()
    await expect(page.getByLabel('Nome')).toHaveValue('Caminhada')
    await expect(page.getByLabel('Quantidade por dia')).toHaveValue('30')
    await page.getByRole('button', { name: 'Criar hábito' }).click()
    // The toast is proved without JavaScript above; here the list with the new habit is what counts
    // (on a loaded machine the toast may have left before the check looks).
    const card = habitCard(page, 'Caminhada')
    await expect(card).toBeVisible()
    await expectNoAxeViolations(page)

    await page.evaluate(() => Object.assign(window, { samePage: true }))
    await today(card).getByRole('button', { name: 'Feito', exact: true }).click()
    await expect(today(card).getByRole('button', { name: 'Feito', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect(card.getByText('1 dia', { exact: true })).toBeVisible()
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)

    // A refused amount: the optimistic answer goes back to the saved one; a toast says why, and
    // the reason stays beside the day.
    await today(card).getByLabel('Quantidade (minutos)').fill('muito')
    await today(card).getByRole('button', { name: 'Salvar quantidade' }).click()
    const reason = 'Informe uma quantidade válida (um número a partir de zero)'
    await expect(page.getByRole('status').filter({ hasText: reason })).toBeVisible()
    await expect(today(card).getByText(reason)).toBeVisible()
    await expect(today(card).getByRole('button', { name: 'Feito', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect(today(card).getByLabel('Quantidade (minutos)')).toHaveValue('muito')
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true)

    await card.getByRole('link', { name: 'Caminhada' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Caminhada' })).toBeVisible()
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Editar' }).click()
    await expect(page.getByLabel('Nome')).toHaveValue('Caminhada')
    await expectNoAxeViolations(page)
  })
})
