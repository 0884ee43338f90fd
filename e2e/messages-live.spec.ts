import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, hydrated, loginAs, newContext, test } from './fixtures'

/** A 4 × 3 PNG, the photo Rafael sends. */
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEElEQVQImWMwXlUORww4OQAzzg/xUTK2PQAAAABJRU5ErkJggg==', 'base64')

/**
 * The live thread (issue 44, decision 0088): Mariana (a demo patient) writes to Rafael, her
 * nutritionist by the seeded care link, without JavaScript; Rafael has the conversation open with
 * JavaScript and sees it arrive without reloading, answers (shown at once; a blank text is taken
 * back with the reason), and "Lida" appears live under Mariana's message in her own page with
 * JavaScript, and under Rafael's once she has seen it. His answer carries a photo. These two talk in no other walk.
 */

/** Rafael's id, from his booking link in the directory. */
async function rafaelId(page: Page) {
  await page.goto('/consultas/profissionais')
  const booking = await page.getByRole('article').filter({ hasText: 'Rafael Costa' }).getByRole('link', { name: 'Agendar' }).getAttribute('href')
  const id = /\/consultas\/agendar\/(\d+)/.exec(booking ?? '')?.[1]
  expect(id).toBeTruthy()
  return id!
}

/** The page's live stream is open (the thread's status says so). */
async function liveOpen(page: Page) {
  await hydrated(page)
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-connection', 'open')
}

test('a message written without JavaScript arrives live, the answer is shown at once, and "Lida" appears on both sides', async ({ page, browser }) => {
  // Three browsers, two people.
  test.slow()
  const stamp = Date.now().toString(36)
  const question = `Rafael, posso trocar o lanche da tarde por uma fruta? ${stamp}`
  const answer = `Pode sim, Mariana! Prefira as da estação. ${stamp}`
  const baseURL = test.info().project.use.baseURL
  const plain = await newContext(browser, { baseURL, javaScriptEnabled: false, viewport: { width: 360, height: 740 } })
  const phone = await newContext(browser, { baseURL, viewport: { width: 360, height: 740 } })
  try {
    // Mariana, without JavaScript, opens the conversation.
    const marianaPlain = await plain.newPage()
    await loginAs(marianaPlain, demoAccounts.paciente2)
    await marianaPlain.goto(`/mensagens?com=${await rafaelId(marianaPlain)}`)
    await expect(marianaPlain).toHaveURL(/\/mensagens\/\d+$/)
    const threadPath = new URL(marianaPlain.url()).pathname

    // Rafael (desktop) and Mariana on her phone (360 px) have it open with JavaScript.
    await loginAs(page, demoAccounts.nutricionista)
    await page.goto(threadPath)
    await expect(page.getByRole('heading', { level: 1, name: 'Conversa com Mariana Alves' })).toBeVisible()
    await liveOpen(page)
    const marianaLive = await phone.newPage()
    await loginAs(marianaLive, demoAccounts.paciente2)
    await marianaLive.goto(threadPath)
    await liveOpen(marianaLive)
    const loads = { rafael: 0, mariana: 0 }
    page.on('load', () => (loads.rafael += 1))
    marianaLive.on('load', () => (loads.mariana += 1))

    // Mariana writes without JavaScript: a plain post.
    await marianaPlain.getByRole('textbox', { name: 'Mensagem' }).fill(question)
    await marianaPlain.getByRole('button', { name: 'Enviar' }).click()
    await expect(marianaPlain.getByTestId('thread').getByRole('listitem').filter({ hasText: stamp })).toBeVisible()

    // Rafael sees it without reloading, and his page marks it read: "Lida" on Mariana's phone.
    const rafaelThread = page.getByTestId('thread')
    await expect(rafaelThread.getByRole('listitem').filter({ hasText: question })).toBeVisible()
    const sent = marianaLive.getByTestId('thread').getByRole('listitem').filter({ hasText: question })
    await expect(sent).toBeVisible()
    await expect(sent.getByTestId('read')).toHaveText('Lida')

    // A blank answer is taken back with the reason, what was typed kept.
    const textbox = page.getByRole('textbox', { name: 'Mensagem' })
    await textbox.fill('   ')
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(page.getByText('Escreva uma mensagem.')).toBeVisible()
    await expect(page.getByTestId('pending-message')).toHaveCount(0)
    await expect(textbox).toHaveValue('   ')

    // His answer, with a photo, shows at once, and becomes his message (deletable) when the app has it.
    await textbox.fill(answer)
    await page.getByLabel('Anexos (opcional)').setInputFiles({ name: `lanche-${stamp}.png`, mimeType: 'image/png', buffer: PHOTO })
    await page.getByRole('button', { name: 'Enviar' }).click()
    await expect(textbox).toHaveValue('')
    await expect(page.getByLabel('Anexos (opcional)')).toHaveValue('')
    const mine = rafaelThread.getByRole('listitem').filter({ hasText: answer })
    await expect(mine).toHaveCount(1)
    await expect(mine.getByRole('button', { name: /^Apagar sua mensagem/ })).toBeVisible()
    await expect(page.getByTestId('send-status')).toHaveText('Mensagem enviada.')

    // Mariana's phone gets it live, marks it read, and "Lida" appears under it on Rafael's page.
    await expect(marianaLive.getByTestId('thread').getByRole('listitem').filter({ hasText: answer })).toBeVisible()
    // The photo came with it, through this site's /media/ (a link signed for her), and loads.
    const photo = marianaLive.getByTestId('thread').getByRole('img', { name: `Foto enviada: lanche-${stamp}.png` })
    await expect(photo).toHaveAttribute('src', /^\/media\/messages\/\d+\/\d+\?expires=\d+&signature=[0-9a-f]{64}$/)
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(4)
    await expect(mine.getByTestId('read')).toHaveText('Lida')
    // Each message once on both pages, and neither was reloaded.
    await expect(rafaelThread.getByRole('listitem').filter({ hasText: stamp })).toHaveCount(2)
    await expect(marianaLive.getByTestId('thread').getByRole('listitem').filter({ hasText: stamp })).toHaveCount(2)
    expect(loads).toEqual({ rafael: 0, mariana: 0 })

    // The live page passes axe and fits a phone, and passes axe on the desktop.
    expect(await marianaLive.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await expectNoAxeViolations(marianaLive)
    await expectNoAxeViolations(page)
  } finally {
    await Promise.all([plain.close(), phone.close()])
  }
})
