import { demoAccounts, expect, expectNoAxeViolations, loginAs, mailboxFor, newContext, payPixPurchase, registerFreshPatient, test } from './fixtures'

test.describe('buying without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient finds a locked course, pays it by PIX through the payment page, opens its lessons, then withdraws within 7 days, is refunded and the course locks again', async ({ page }) => {
    const buyer = await registerFreshPatient(page, 'pix')
    // A paid course says why it is locked and where to get it.
    await page.goto('/cursos?pilar=estresse')
    await page.getByRole('link', { name: /^Ver o curso/ }).click()
    const coursePath = new URL(page.url()).pathname
    await expect(page.getByRole('heading', { name: 'Como ter acesso a este curso' })).toBeVisible()
    await page.getByRole('link', { name: 'Ver o curso na loja' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Curso Estresse sob controle' })).toBeVisible()
    await page.getByRole('button', { name: /^Adicionar ao carrinho/ }).click()
    await page.goto('/carrinho')
    await expect(page.getByRole('radio', { name: /^PIX/ })).toBeChecked()
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()

    await expect(page).toHaveURL(/\/compras\/\d+$/)
    await expect(page.getByTestId('purchase-status')).toHaveText('Aguardando pagamento')
    await expect(page.getByRole('img', { name: 'QR code do PIX desta compra' }).locator('svg')).toBeVisible()
    const code = await page.getByLabel('PIX copia e cola').inputValue()
    expect(code).toMatch(/^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/)
    // In the buyer's zone (decision 0077): São Paulo's, as the browser's and the account's.
    await expect(page.getByText(/^Válido até \d{2}:\d{2}\./)).toBeVisible()

    // The buyer's bank: the fake Stripe's page for this charge. The payment's message reaches the
    // provider on its own (the fake's webhook), or the page asks.
    await payPixPurchase(page)
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, vazio' })).toBeVisible()
    const purchasePath = new URL(page.url()).pathname

    // Course access right after payment: a paid lesson plays.
    await page.goto(coursePath)
    await page.getByRole('link', { name: 'Começar o curso' }).click()
    await page.getByRole('link', { name: /^Próxima aula/ }).click()
    const paidLessonPath = new URL(page.url()).pathname
    await expect(page.locator('video source')).toHaveAttribute('src', /\.mp4\?expires=\d+&signature=[0-9a-f]{64}/)
    await page.goto(purchasePath)

    await expect(page.getByText('Você recebe de volta o valor integral: R$ 197,00.')).toBeVisible()
    await expect(page.getByText(/^O reembolso por PIX chega em até 3 dias úteis: até /)).toBeVisible()
    // Money moves only from its own step (decision 0079), which says it all once more.
    await page.getByRole('link', { name: 'Desistir e pedir o reembolso' }).click()
    const step = page.getByTestId('confirm-step')
    await expect(step).toContainText('Você deixa de ter: Curso Estresse sob controle.')
    await step.getByRole('button', { name: /^Sim, pedir o reembolso de R\$\s197,00$/ }).click()
    await expect(page.getByTestId('purchase-status')).toHaveText('Compra reembolsada')
    await expect(page.getByText(/^Reembolso de R\$\s197,00 pedido: volta por PIX à conta que pagou até /)).toBeVisible()
    await expect(page.getByText('Reembolsado: R$ 197,00.')).toBeVisible()
    await page.goto(paidLessonPath)
    await expect(page.getByRole('heading', { name: 'Esta aula está bloqueada' })).toBeVisible()
    await expect(page.locator('video')).toHaveCount(0)
    await page.goto(purchasePath)

    await page.getByRole('link', { name: 'Minhas compras' }).click()
    await expect(page.getByTestId('purchases').getByRole('listitem')).toHaveCount(1)
    await expect(page.getByTestId('purchases')).toContainText('Compra reembolsada')
    // The receipt and the refund's news, by e-mail, once each.
    const subjects = async () => (await mailboxFor(page, buyer.email)).map((mail) => mail.subject).filter((subject) => /^(Recibo|Reembolso)/.test(subject)).sort()
    await expect.poll(subjects).toEqual([expect.stringMatching(/^Recibo da sua compra nº \d+ na Innera$/), expect.stringMatching(/^Reembolso de R\$\s197,00 da compra nº \d+$/)])
  })
})

test.describe('a digital material without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient buys a PDF by PIX and downloads it from “my products”, which passes axe at 360 px and on a desktop', async ({ page, browser }) => {
    const buyer = await registerFreshPatient(page, 'material')
    await page.goto('/solucoes?tipo=digital_material')
    await page.getByRole('button', { name: /^Adicionar ao carrinho.*Diário do sono \(PDF\)$/ }).click()
    await page.goto('/carrinho')
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()
    await payPixPurchase(page)

    await page.locator('summary[aria-label^="Menu da conta"]').click()
    await page.getByRole('banner').getByRole('link', { name: 'Meus produtos' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Meus produtos' })).toBeVisible()
    const material = page.getByTestId('my-materials').getByRole('listitem').filter({ hasText: 'Diário do sono (PDF)' })
    await expect(material).toContainText(/Desde \d+ de \w+ de \d{4}\./)
    const downloading = page.waitForEvent('download')
    await material.getByRole('link', { name: 'Baixar PDF Diário do sono (PDF)' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe('diario-do-sono.pdf')
    const chunks: Buffer[] = []
    for await (const chunk of (await download.createReadStream()) as AsyncIterable<Buffer>) chunks.push(chunk)
    expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-')

    const withScript = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
    await loginAs(withScript, buyer.email, buyer.password)
    await withScript.setViewportSize({ width: 360, height: 800 })
    await withScript.goto('/meus-produtos')
    await expect(withScript.getByTestId('my-materials')).toBeVisible()
    await expectNoAxeViolations(withScript)
    await withScript.setViewportSize({ width: 1280, height: 800 })
    await expectNoAxeViolations(withScript)
    await withScript.context().close()
  })
})

test.describe('subscribing without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient subscribes to the monthly plan by PIX, sees it active, then withdraws within 7 days and is refunded', async ({ page }) => {
    await registerFreshPatient(page, 'assinatura')
    await page.goto('/solucoes?tipo=subscription')
    await page.getByRole('link', { name: /^Ver detalhes.*Plano mensal$/ }).click()
    await expect(page.getByRole('radio', { name: /^PIX/ })).toBeChecked()
    await page.getByRole('button', { name: 'Assinar por R$ 89,90' }).click()

    // The first period's code, paid at the buyer's bank (the fake Stripe's page).
    const purchaseUrl = await payPixPurchase(page)
    await page.getByRole('link', { name: 'Ver a assinatura' }).click()
    await expect(page).toHaveURL(/\/assinaturas\/\d+$/)
    const subscriptionUrl = page.url()
    await expect(page.getByTestId('subscription-status')).toHaveText('Ativa')
    await expect(page.getByText(/^Acesso até \d+ de \w+ de \d{4}\.$/)).toBeVisible()
    await expect(page.getByText(/^Pague o próximo período com PIX a partir de /)).toBeVisible()

    await page.getByRole('link', { name: 'Cancelar assinatura' }).click()
    await expect(page.getByText('Você está dentro dos 7 dias do direito de desistência: cancelando agora, recebe de volta R$ 89,90 e o acesso termina agora.')).toBeVisible()
    // Beside the withdrawal, the end of the period (decision 0081).
    await expect(page.getByRole('button', { name: /^Cancelar no fim do período \(acesso até \d+ de \w+ de \d{4}\)$/ })).toBeVisible()
    await page.getByRole('button', { name: 'Desistir e receber R$ 89,90 de volta' }).click()
    await expect(page.getByText(/^Assinatura encerrada\. Reembolso de R\$\s89,90 pedido: volta por PIX à conta que pagou até /)).toBeVisible()
    await expect(page.getByTestId('subscription-status')).toHaveText('Encerrada')
    await page.goto(purchaseUrl)
    await expect(page.getByTestId('purchase-status')).toHaveText('Compra reembolsada')

    await page.goto('/assinaturas')
    await expect(page.getByTestId('subscriptions').getByRole('listitem')).toHaveCount(1)
    await page.getByRole('link', { name: 'Plano mensal' }).click()
    await expect(page).toHaveURL(subscriptionUrl)
  })
})

test.describe('a card subscription without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient subscribes to the monthly plan by card on the payment page, then changes the card it renews with', async ({ page }) => {
    await registerFreshPatient(page, 'assinatura-cartao')
    await page.goto('/solucoes?tipo=subscription')
    await page.getByRole('link', { name: /^Ver detalhes.*Plano mensal$/ }).click()
    await page.getByRole('radio', { name: /^Cartão de crédito/ }).check()
    await page.getByRole('button', { name: 'Assinar por R$ 89,90' }).click()
    const payCard = async (number: string, button: RegExp) => {
      await page.getByLabel('Card number').fill(number)
      await page.getByLabel('Expiry (MM/YY)').fill('12/34')
      await page.getByLabel('CVC').fill('123')
      await page.getByRole('button', { name: button }).click()
    }
    await payCard('4242424242424242', /^Pay /)
    await expect(page).toHaveURL(/\/assinaturas\/\d+$/)
    // Active once Stripe's news reached the provider (its webhook); the page is reloaded as a person would.
    await expect(async () => {
      await page.reload()
      await expect(page.getByTestId('subscription-status')).toHaveText('Ativa', { timeout: 1000 })
    }).toPass({ timeout: 30_000 })
    await expect(page.getByText(/^Renova em \d+ de \w+ de \d{4}\.$/)).toBeVisible()

    // The payment service's page saves another card, charging nothing, and comes back.
    await page.getByRole('button', { name: 'Trocar o cartão' }).click()
    await expect(page.getByRole('heading', { name: 'Save a card for Innera' })).toBeVisible()
    await payCard('5555555555554444', /^Save card$/)
    await expect(page).toHaveURL(/\/assinaturas\/\d+\?cartao=salvo$/)
    await expect(page.getByRole('status').filter({ hasText: 'Cartão salvo: as próximas renovações serão cobradas nele.' })).toBeVisible()
    await expect(async () => {
      await page.reload()
      await expect(page.getByText(/Cartão trocado em \d+ de \w+ de \d{4}\./)).toBeVisible({ timeout: 1000 })
    }).toPass({ timeout: 30_000 })
    await expect(page.getByTestId('subscription-status')).toHaveText('Ativa')
    await page.goto('/compras')
    await expect(page.getByTestId('purchases').getByRole('listitem')).toHaveCount(1)
  })
})

test.describe('a new price', () => {
  test.use({ javaScriptEnabled: false })

  test('an admin raises the yearly plan’s price without JavaScript; its subscriber is told by e-mail and on the subscription page', async ({ page, browser, seeded }) => {
    test.slow()
    // The walk sets the price back at its end; the fixture does after the test, whatever happened.
    await seeded.keepProductPrice('plano-anual')
    const patient = await registerFreshPatient(page, 'preco')
    await page.goto('/solucoes?tipo=subscription')
    await page.getByRole('link', { name: /^Ver detalhes.*Plano anual$/ }).click()
    await page.getByRole('button', { name: 'Assinar por R$ 899,00' }).click()
    await payPixPurchase(page)
    await page.getByRole('link', { name: 'Ver a assinatura' }).click()
    await expect(page.getByTestId('subscription-status')).toHaveText('Ativa')

    const admin = await (await newContext(browser, { javaScriptEnabled: false })).newPage()
    await loginAs(admin, demoAccounts.admin)
    await admin.goto('/admin/dashboard')
    await admin.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Conteúdo' }).click()
    await admin.getByRole('link', { name: 'Produtos e preços' }).click()
    const setPrice = async (price: string, shown: string) => {
      await admin.getByLabel('Novo preço (R$) (Plano anual)').fill(price)
      await admin.getByRole('button', { name: 'Alterar preço (Plano anual)' }).click()
      await expect(admin.getByText('Preço de Plano anual alterado.')).toBeVisible()
      await expect(admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: 'Plano anual' }) })).toContainText(`Preço atual: ${shown}`)
    }
    // A typo comes back as typed, with the reason.
    await admin.getByLabel('Novo preço (R$) (Plano anual)').fill('949,999')
    await admin.getByRole('button', { name: 'Alterar preço (Plano anual)' }).click()
    await expect(admin.getByLabel('Novo preço (R$) (Plano anual)')).toHaveValue('949,999')
    await expect(admin.getByText('Digite um valor entre R$ 0,50 e R$ 100.000,00, como 99,90.')).toBeVisible()
    await setPrice('949,00', 'R$ 949,00')

    // The subscriptions' tick tells the subscriber: the new price from the renewal a year on.
    await expect(async () => {
      await page.reload()
      await expect(page.getByText(/^Novo preço a partir de \d+ de \w+ de \d{4}: R\$\s949,00\.$/)).toBeVisible({ timeout: 1000 })
    }).toPass({ timeout: 30_000 })
    expect((await mailboxFor(page, patient.email)).map((mail) => mail.subject)).toContainEqual(expect.stringMatching(/^O preço do Plano anual muda em /))
    await setPrice('899,00', 'R$ 899,00')
    await admin.context().close()

    // The page passes axe at 360 px and on a desktop (axe runs in the page: JavaScript on).
    const withScript = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
    await loginAs(withScript, demoAccounts.admin)
    await withScript.setViewportSize({ width: 360, height: 800 })
    await withScript.goto('/admin/products')
    await expectNoAxeViolations(withScript)
    await withScript.setViewportSize({ width: 1280, height: 800 })
    await expectNoAxeViolations(withScript)
    await withScript.context().close()
  })
})

test('a subscription waiting for its first payment, with JavaScript: the plan and subscription pages pass axe at 360 px and on a desktop', async ({ page }) => {
  test.slow()
  await registerFreshPatient(page, 'teste7')
  await page.goto('/solucoes?tipo=subscription')
  await page.getByRole('link', { name: /^Ver detalhes.*Experimente por 7 dias$/ }).click()
  await expect(page.getByText('7 dias de acesso completo, sem renovação')).toBeVisible()
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
  await page.getByRole('button', { name: 'Assinar por R$ 9,90' }).click()
  await expect(page).toHaveURL(/\/compras\/\d+$/)
  await page.getByRole('link', { name: 'Ver a assinatura' }).click()
  await expect(page.getByTestId('subscription-status')).toHaveText('Aguardando o primeiro pagamento')
  await expect(page.getByRole('link', { name: 'Continuar o pagamento' })).toBeVisible()
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await expectNoAxeViolations(page)
  await page.getByRole('link', { name: 'Minhas assinaturas' }).first().click()
  await expect(page.getByTestId('subscriptions').getByRole('listitem')).toHaveCount(1)
  await expectNoAxeViolations(page)
})

test('a declined card keeps the cart and says why; the purchase pages pass axe at 360 px and on a desktop', async ({ page }) => {
  test.slow()
  await registerFreshPatient(page, 'cartao')
  await page.goto('/solucoes?tipo=course')
  await page.getByRole('button', { name: /^Adicionar ao carrinho.*Curso Comida de verdade/ }).click()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
  await page.goto('/carrinho')
  await page.setViewportSize({ width: 360, height: 800 })
  await expectNoAxeViolations(page)
  await page.getByRole('radio', { name: /^Cartão de crédito/ }).check()
  await page.getByRole('button', { name: /^Pagar R\$/ }).click()

  // The payment service's own page: a card that is declined for insufficient funds.
  await page.getByLabel('Card number').fill('4000000000009995')
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('alert')).toContainText('insufficient funds')

  await page.goto('/compras')
  await page.getByRole('link', { name: /^Compra nº/ }).first().click()
  await expect(page.getByTestId('purchase-status')).toHaveText('Aguardando pagamento')
  await expect(page.getByText('O cartão foi recusado por saldo ou limite insuficiente. Tente outro cartão ou pague com PIX.')).toBeVisible()
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrinho, 1 item' })).toBeVisible()
  await page.getByRole('button', { name: 'Atualizar situação do pagamento' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Aguardando pagamento' }).first()).toBeVisible()
  await expectNoAxeViolations(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await expectNoAxeViolations(page)
  await page.goto('/compras')
  await expectNoAxeViolations(page)
})
