import { expect, type Page } from '@playwright/test'

/**
 * A consultation just confirmed with PIX (the review's choice when there is no package credit):
 * its time is held while the patient pays. The code is paid on the fake Stripe's page (the buyer's
 * bank), the payment reaches the provider (the fake's webhook, or the page asks), and the patient
 * goes on to the consultation, now booked. Returns its path.
 */
export async function payConsultationByPix(page: Page): Promise<string> {
  await payPixPurchase(page)
  await page.getByRole('link', { name: 'Ver a consulta' }).click()
  await expect(page).toHaveURL(/\/consultas\/\d+$/)
  return new URL(page.url()).pathname
}

/**
 * On a purchase's page with an open PIX code: the code paid at the buyer's bank (the fake Stripe's
 * development page), and back on the purchase's page once it says the payment is confirmed.
 * Returns the purchase's address.
 */
export async function payPixPurchase(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/compras\/\d+$/)
  const purchaseUrl = page.url()
  await page.getByRole('link', { name: 'Abrir a página do PIX no provedor de pagamentos' }).click()
  await page.getByRole('button', { name: 'Pay this charge' }).click()
  await page.goto(purchaseUrl)
  await waitUntilPaid(page)
  return purchaseUrl
}

/** On a purchase's page: until it says the payment is confirmed (asking again while it does not). */
export async function waitUntilPaid(page: Page) {
  const refresh = page.getByRole('button', { name: 'Atualizar situação do pagamento' })
  await expect(async () => {
    if (await refresh.isVisible()) await refresh.click()
    await expect(page.getByTestId('purchase-status')).toHaveText('Pagamento confirmado', { timeout: 1_000 })
  }).toPass()
}
