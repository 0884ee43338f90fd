import { expect, expectNoAxeViolations, hydrated, test } from './fixtures'

test.describe('the solutions catalogue without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a visitor filters by type and theme with the form, then opens a product', async ({ page }) => {
    await page.goto('/solucoes')
    await expect(page.getByRole('heading', { level: 1, name: 'Soluções' })).toBeVisible()

    await page.getByLabel('Tipo').selectOption('course')
    await page.getByLabel('Tema').selectOption('sono')
    await page.getByRole('button', { name: 'Filtrar' }).click()
    await expect(page).toHaveURL(/\/solucoes\?tipo=course&pilar=sono$/)
    await expect(page.getByText('1 solução', { exact: true })).toBeVisible()
    const course = page.getByTestId('products').getByRole('article')
    await expect(course).toHaveCount(1)
    await expect(course.getByRole('heading', { level: 2 })).toHaveText('Curso Sono reparador')
    await expect(course.getByText('R$ 197,00')).toBeVisible()

    await course.getByRole('link', { name: /^Ver detalhes.*Curso Sono reparador$/ }).click()
    await expect(page).toHaveURL(/\/produto\/\d+$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Curso Sono reparador' })).toBeVisible()
    await expect(page.getByText('Acesso imediato ao curso após a confirmação do pagamento.')).toBeVisible()

    await page.getByRole('link', { name: 'Tema: Sono' }).click()
    await expect(page).toHaveURL(/\/solucoes\?pilar=sono$/)
    await page.getByRole('link', { name: 'Limpar filtros' }).click()
    await expect(page.getByText('16 soluções', { exact: true })).toBeVisible()
  })
})

// axe runs in the page, so these checks run with JavaScript on.
test('the catalogue and a product page pass axe at 360 px and on a desktop', async ({ page }) => {
  test.slow()
  await page.setViewportSize({ width: 360, height: 800 })
  await page.goto('/solucoes?tipo=subscription')
  await expect(page.getByText('4 soluções', { exact: true })).toBeVisible()
  await expectNoAxeViolations(page)
  await page.getByRole('link', { name: /^Ver detalhes/ }).first().click()
  await expect(page).toHaveURL(/\/produto\/\d+$/)
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await expectNoAxeViolations(page)
  await page.goto('/solucoes')
  await expectNoAxeViolations(page)
})

test('the header and the pillar page lead to the catalogue; an unknown product is a 404 page', async ({ page }) => {
  await page.goto('/?lng=en')
  await hydrated(page)
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Solutions' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Solutions' })).toBeVisible()
  await expect(page.getByText('16 solutions', { exact: true })).toBeVisible()
  await expect(page.getByText('R$648.00').first()).toBeVisible()

  await page.goto('/pilares?lng=pt')
  await page.getByRole('link', { name: 'Soluções para Sono' }).click()
  await expect(page).toHaveURL(/\/solucoes\?pilar=sono$/)
  await expect(page.getByTestId('products').getByRole('article')).toHaveCount(2)

  const missing = await page.goto('/produto/999999')
  expect(missing?.status()).toBe(404)
})
