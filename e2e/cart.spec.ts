import { acceptNecessaryCookies, expect, expectNoAxeViolations, registerFreshPatient, test } from './fixtures'

test.describe('the cart without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a visitor fills a cart, signs in (the cart survives), signs out and finds it again in the account', async ({ page, context, baseURL }) => {
    // An account of its own, then a visitor again: this walk leaves a cart in it.
    const account = await registerFreshPatient(page, 'carrinho')
    await context.clearCookies()
    await acceptNecessaryCookies(context, baseURL!)

    await page.goto('/solucoes?tipo=course')
    const header = page.getByRole('banner')
    await expect(header.getByRole('link', { name: 'Carrinho, vazio' })).toBeVisible()
    const course = page.getByTestId('products').getByRole('article').filter({ hasText: 'Curso Sono reparador' })
    await course.getByRole('button', { name: /^Adicionar ao carrinho.*Curso Sono reparador$/ }).click()
    await expect(page).toHaveURL(/\/solucoes\?tipo=course$/)
    await expect(page.getByRole('status').filter({ hasText: '“Curso Sono reparador” foi adicionado ao carrinho.' })).toBeVisible()
    await expect(header.getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
    await expect(course.getByRole('link', { name: /^No carrinho.*Curso Sono reparador$/ })).toBeVisible()

    await page.goto('/solucoes?tipo=digital_material')
    await page.getByRole('link', { name: /^Ver detalhes.*Diário do sono \(PDF\)$/ }).click()
    await page.getByRole('button', { name: /^Adicionar ao carrinho.*Diário do sono \(PDF\)$/ }).click()
    await expect(page).toHaveURL(/\/produto\/\d+$/)
    await expect(header.getByRole('link', { name: 'Carrinho, 2 itens' })).toBeVisible()

    await header.getByRole('link', { name: 'Carrinho, 2 itens' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Carrinho' })).toBeVisible()
    const lines = page.getByTestId('cart-lines').getByRole('listitem')
    await expect(lines).toHaveCount(2)
    await expect(page.getByText('Total (2 itens)')).toBeVisible()
    await page.getByRole('button', { name: /^Remover.*Diário do sono \(PDF\)$/ }).click()
    await expect(lines).toHaveCount(1)
    await expect(page.getByTestId('cart-total')).toHaveText('R$ 197,00')

    await page.getByRole('link', { name: 'Entrar para pagar' }).click()
    await page.getByLabel('E-mail').fill(account.email)
    await page.getByLabel('Senha', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page).toHaveURL(/\/carrinho$/)
    await expect(lines).toHaveCount(1)
    await expect(lines.first()).toContainText('Curso Sono reparador')

    await page.locator('summary[aria-label^="Menu da conta"]').click()
    await header.getByRole('button', { name: 'Sair' }).click()
    await expect(page).toHaveURL(/\/auth\?mode=login$/)
    await expect(header.getByRole('link', { name: 'Carrinho, vazio' })).toBeVisible()
    await page.goto('/carrinho')
    await expect(page.getByText('Seu carrinho está vazio.')).toBeVisible()

    await page.goto('/auth?mode=login&redirectTo=%2Fcarrinho')
    await page.getByLabel('E-mail').fill(account.email)
    await page.getByLabel('Senha', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page).toHaveURL(/\/carrinho$/)
    await expect(lines.first()).toContainText('Curso Sono reparador')
    await expect(page.getByTestId('cart-total')).toHaveText('R$ 197,00')
  })
})

// axe runs in the page, so this check runs with JavaScript on.
test('the cart passes axe at 360 px and on a desktop, empty and with a product', async ({ page }) => {
  test.slow()
  await page.setViewportSize({ width: 360, height: 800 })
  await page.goto('/carrinho')
  await expect(page.getByText('Seu carrinho está vazio.')).toBeVisible()
  await expectNoAxeViolations(page)
  await page.goto('/solucoes?tipo=course')
  await page.getByRole('button', { name: /^Adicionar ao carrinho.*Curso Sono reparador$/ }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
  await page.goto('/carrinho')
  await expect(page.getByTestId('cart-lines').getByRole('listitem')).toHaveCount(1)
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await expectNoAxeViolations(page)
})
