import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, test } from './fixtures'

/**
 * Messages between a patient and their professional (issue 44), without JavaScript, at 360 px:
 * Pedro (the demo patient) writes to Paula, his professional by the seeded care link; Paula sees
 * the conversation with its unread count, reads it and answers; Pedro sees the answer and his
 * message read. No other walk reads these two's conversation, and both read everything at the
 * end, so no e-mail about a waiting message is left to send either of them.
 */

test.use({ viewport: { width: 360, height: 740 } })

/** A 4 x 3 PNG, as a photo to attach (decision 0086). */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwXlUORww4OQAzzg/xUTK2PQAAAABJRU5ErkJggg==', 'base64')

/** No page wider than a 360 px screen. */
async function fits(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
}

/** Paula's id, from her booking link in the directory. */
async function paulaId(page: Page) {
  await page.goto('/consultas/profissionais')
  const booking = await page.getByRole('article').filter({ hasText: 'Paula Ribeiro' }).getByRole('link', { name: 'Agendar' }).getAttribute('href')
  const id = /\/consultas\/agendar\/(\d+)/.exec(booking ?? '')?.[1]
  expect(id).toBeTruthy()
  return id!
}

test('both pages pass axe and fit 360 px (JavaScript on: axe runs in the page)', async ({ page }) => {
  await loginAs(page, demoAccounts.paciente)
  await page.goto(`/mensagens?com=${await paulaId(page)}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Conversa com Paula Ribeiro' })).toBeVisible()
  await fits(page)
  await expectNoAxeViolations(page)
  await page.goto('/mensagens')
  await expect(page.getByRole('heading', { level: 1, name: 'Mensagens' })).toBeVisible()
  await fits(page)
  await expectNoAxeViolations(page)
})

test.describe('JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient writes to his professional and she answers, JavaScript off', async ({ page, browser }) => {
    // Two people, a dozen pages.
    test.slow()
    const stamp = Date.now().toString(36)
    const question = `Oi, Paula! Dormi melhor esta semana.\nAnotei tudo aqui: https://example.org/sono-${stamp}`
    const answer = `Que ótimo, Pedro! Seguimos na quinta. ${stamp}`

    await loginAs(page, demoAccounts.paciente)
    await page.goto(`/mensagens?com=${await paulaId(page)}`)
    await expect(page).toHaveURL(/\/mensagens\/\d+$/)
    const threadPath = new URL(page.url()).pathname
    await expect(page.getByRole('heading', { level: 1, name: 'Conversa com Paula Ribeiro' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Mensagem' }).fill(question)
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(page).toHaveURL(new RegExp(`${threadPath}(#mensagem-\\d+)?$`))
    const thread = page.getByTestId('thread')
    const mine = thread.getByRole('listitem').filter({ hasText: stamp }).last()
    await expect(mine).toContainText('Oi, Paula! Dormi melhor esta semana.')
    const link = mine.getByRole('link', { name: `https://example.org/sono-${stamp}` })
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow ugc')
    // The form is empty again, ready for the next message.
    await expect(page.getByRole('textbox', { name: 'Mensagem' })).toHaveValue('')
    await fits(page)

    // Paula, in her own browser.
    const context = await newContext(browser, { baseURL: test.info().project.use.baseURL, locale: 'pt-BR', javaScriptEnabled: false, viewport: { width: 360, height: 740 } })
    const paula = await context.newPage()
    await loginAs(paula, demoAccounts.profissional)
    await paula.goto('/dashboard')
    // The navigation counts what waits for her.
    const messagesLink = paula.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: /^Mensagens/ })
    await expect(messagesLink.getByTestId('unread-messages')).toHaveText(/^[1-9]\d*$/)
    await expect(messagesLink).toContainText(/não lidas?$/)
    await messagesLink.click()
    await expect(paula.getByRole('heading', { level: 1, name: 'Mensagens' })).toBeVisible()
    const row = paula.getByTestId('conversations').getByRole('listitem').filter({ hasText: 'Pedro Santos' })
    await expect(row.getByTestId('unread')).toHaveText(/^[1-9]\d*$/)
    await expect(row).toContainText('Anotei tudo aqui')
    await fits(paula)
    await row.getByRole('link', { name: /^Pedro Santos/ }).click()
    await expect(paula).toHaveURL(new RegExp(`${threadPath}$`))
    await expect(paula.getByTestId('thread')).toContainText('Dormi melhor esta semana.')
    await paula.getByRole('textbox', { name: 'Mensagem' }).fill(answer)
    // With a photo, still without JavaScript: it comes back in the thread through this site's /media/.
    await paula.getByLabel('Anexos (opcional)').setInputFiles({ name: `plano-${stamp}.png`, mimeType: 'image/png', buffer: PHOTO })
    await paula.getByRole('button', { name: 'Enviar' }).click()
    await expect(paula.getByTestId('thread').getByRole('listitem').filter({ hasText: answer })).toBeVisible()
    const photo = paula.getByTestId('thread').getByRole('img', { name: `Foto enviada: plano-${stamp}.png` })
    await expect(photo).toHaveAttribute('src', /^\/media\/messages\/\d+\/\d+\?expires=\d+&signature=[0-9a-f]{64}$/)
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(4)
    await fits(paula)
    // Read: the list counts nothing unread any more.
    await paula.goto('/mensagens')
    await expect(paula.getByTestId('conversations').getByRole('listitem').filter({ hasText: 'Pedro Santos' }).getByTestId('unread')).toHaveCount(0)
    await context.close()

    // Pedro refreshes: Paula's answer, and his message read.
    await page.getByRole('link', { name: 'Atualizar' }).click()
    await expect(thread.getByRole('listitem').filter({ hasText: answer })).toBeVisible()
    await expect(thread.getByRole('listitem').filter({ hasText: 'Anotei tudo aqui' }).last().getByTestId('read')).toHaveText('Lida')
  })
})
