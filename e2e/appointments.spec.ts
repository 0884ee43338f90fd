import { readFile } from 'node:fs/promises'
import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, hydrated, loginAs, mailboxFor, newContext, payConsultationByPix, registerFreshPatient, test, timeInputFields, waitUntilPaid } from './fixtures'

/**
 * Consultations (issues 12 and 24), as people use them: a patient books with JavaScript off, pays
 * by PIX (the time held meanwhile), sees the appointment, downloads it for a calendar, reschedules
 * and cancels more than 24 hours ahead, refunded in full (told by mail once, the latest state); a
 * booking with JavaScript on and only the keyboard, paid by card; a professional edits the week's
 * availability (a bad slot first) and finds a booking in the agenda.
 */

const dateLinks = (page: Page) => page.getByRole('region', { name: 'Datas com horários livres' }).getByRole('link')
const timeRadios = (page: Page) => page.getByRole('radio')

test.describe('a patient with JavaScript off', () => {
  test.use({ javaScriptEnabled: false })

  test('books and pays by PIX, sees it, downloads the .ics, reschedules and cancels with a full refund; the mail tells the latest state, once', async ({ page }) => {
    await page.goto('/')
    const patient = await registerFreshPatient(page, 'consulta')
    await page.goto('/dashboard')

    await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Consultas' }).click()
    await page.getByRole('link', { name: 'Encontrar um profissional' }).click()
    await expect(page).toHaveURL(/\/consultas\/profissionais$/)
    // The filter is a link per pillar; Paula works with sleep.
    await page.getByRole('link', { name: 'Sono' }).click()
    await page.getByRole('article').filter({ hasText: 'Paula Ribeiro' }).getByRole('link', { name: 'Agendar' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Agendar consulta' })).toBeVisible()
    await expect(page.getByRole('article', { name: 'Paula Ribeiro' })).toBeVisible()

    // Dates are links; the second date's times replace the first's.
    await dateLinks(page).nth(1).click()
    await expect(page).toHaveURL(/\?data=\d{4}-\d{2}-\d{2}$/)
    await timeRadios(page).first().check()
    await page.getByLabel('Observações para o profissional (opcional)').fill('Quero falar sobre o meu sono.')
    await page.getByRole('button', { name: 'Continuar' }).click()
    await expect(page.getByRole('heading', { name: 'Confira seu agendamento' })).toBeVisible()
    await expect(page.getByText('Quero falar sobre o meu sono.')).toBeVisible()
    // Paula charges R$ 180,00; a new patient has no package, so PIX is checked.
    await expect(page.getByRole('region', { name: 'Confira seu agendamento' }).getByText('R$ 180,00')).toBeVisible()
    await expect(page.getByRole('radio', { name: /^PIX/ })).toBeChecked()
    await page.getByRole('button', { name: 'Confirmar agendamento' }).click()

    // The time is held while the code is paid; the consultation says so meanwhile.
    await expect(page).toHaveURL(/\/compras\/\d+$/)
    await expect(page.getByText('Horário reservado por 30 minutos. Pague com o PIX abaixo para confirmar a consulta.')).toBeVisible()
    await expect(page.getByText(/^Este pagamento reserva o horário da sua consulta/)).toBeVisible()
    const purchaseUrl = page.url()
    await page.getByRole('link', { name: 'Ver a consulta' }).click()
    await expect(page.getByText('Aguardando pagamento', { exact: true })).toBeVisible()
    await expect(page.getByTestId('appointment-payment')).toHaveText(/^Aguardando o pagamento: o horário fica reservado até \d{2}:\d{2}\.$/)
    await page.getByRole('link', { name: 'Pagar agora' }).click()
    await expect(page).toHaveURL(purchaseUrl)
    await payConsultationByPix(page)
    await expect(page.getByText('Agendada', { exact: true })).toBeVisible()
    await expect(page.getByTestId('appointment-payment')).toContainText('Paga com PIX.')
    const detailsUrl = page.url()

    // The calendar file: the time, a neutral title and the way back; nothing about health.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Adicionar ao calendário (.ics)' }).click()])
    const ics = await readFile((await download.path())!, 'utf8')
    expect(ics).toContain('SUMMARY:Consulta Innera com Paula')
    expect(ics).toContain(`URL;VALUE=URI:${detailsUrl}`)
    expect(ics).not.toContain('sono')

    await page.getByRole('link', { name: 'Minhas consultas' }).first().click()
    await expect(page.getByRole('region', { name: 'Próximas' }).getByText('Paula Ribeiro').first()).toBeVisible()
    await page.goto(detailsUrl)

    await page.getByRole('link', { name: 'Remarcar' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Remarcar consulta' })).toBeVisible()
    // The last date offered is weeks away, so the cancellation below is 24 hours ahead or more
    // whatever the time of day the test runs at (the first date's times may be sooner).
    await dateLinks(page).last().click()
    await timeRadios(page).filter({ hasNot: page.getByText('horário atual') }).last().check()
    await page.getByRole('button', { name: 'Continuar' }).click()
    await page.getByRole('button', { name: 'Confirmar remarcação' }).click()
    await expect(page.getByText('Consulta remarcada.')).toBeVisible()

    await page.getByRole('link', { name: 'Cancelar consulta' }).click()
    await expect(page.getByText('Se cancelar agora, você recebe de volta R$ 180,00.')).toBeVisible()
    await expect(page.getByText(/^O reembolso por PIX chega em até 3 dias úteis: até /)).toBeVisible()
    await page.getByRole('button', { name: 'Confirmar cancelamento' }).click()
    await expect(page.getByText('Consulta cancelada. O reembolso será integral.')).toBeVisible()
    await expect(page.getByText('Cancelada', { exact: true })).toBeVisible()
    // Refunded through the payment service: the purchase says so.
    await page.goto(purchaseUrl)
    await expect(page.getByTestId('purchase-status')).toHaveText('Compra reembolsada')
    await expect(page.getByText('Reembolsado: R$ 180,00.')).toBeVisible()

    // The provider's outbox: booked, moved and cancelled while the first message still waited out
    // its hold (MAIL_COLLAPSE_MS, an hour here), so each person is told once, the latest state
    // (issue 22: no flood of e-mail); the 24 h and 1 h reminders were cancelled with the appointment
    // (provider tests).
    const subjects = async () => (await mailboxFor(page, patient.email)).map((mail) => mail.subject).filter((subject) => subject.startsWith('Consulta Innera'))
    await expect.poll(subjects, { timeout: 10_000 }).toEqual(['Consulta Innera com Paula cancelada'])
    // Paula's about this appointment (other walks book with her too): one, the cancellation.
    const aboutThis = (await mailboxFor(page, demoAccounts.profissional)).filter((mail) => mail.text.includes(`${new URL(detailsUrl).pathname}\n`))
    expect(aboutThis.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Consulta Innera com Pessoa .*cancelada$/)])
  })
})

test('a patient books with JavaScript on and only the keyboard, pays by card; every page passes axe', async ({ page }) => {
  // Four pages with axe: about 33 s on a quiet machine, 64 s beside a second test run.
  test.slow()
  await page.goto('/')
  await registerFreshPatient(page, 'consultajs')
  await page.goto('/consultas/profissionais')
  await expectNoAxeViolations(page)

  const card = page.getByRole('article').filter({ hasText: 'Inês Marques' })
  await card.getByRole('link', { name: 'Agendar' }).focus()
  await page.keyboard.press('Enter')
  // (The directory's card has the same name: the booking page is the one with this heading.)
  await expect(page.getByRole('heading', { level: 1, name: 'Agendar consulta' })).toBeVisible()
  await expect(page.getByRole('article', { name: 'Inês Marques' })).toBeVisible()
  // Inês works from Lisbon: her card's next free time and the page's times say whose zone they are in.
  await expect(page.getByText(/^Horários no seu fuso horário: .*Brasília/)).toHaveCount(2)
  await expectNoAxeViolations(page)

  // A date is a plain link, taken as a client-side navigation: the page is not loaded again.
  await hydrated(page)
  await page.evaluate(() => Object.assign(window, { samePage: true }))
  await dateLinks(page).nth(2).focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\?data=/)
  expect(await page.evaluate(() => 'samePage' in window)).toBe(true)
  await timeRadios(page).first().focus()
  await page.keyboard.press('Space')
  await page.keyboard.press('ArrowDown')
  const chosen = await page.getByRole('radio', { checked: true }).getAttribute('value')
  await page.getByLabel('Observações para o profissional (opcional)').focus()
  await page.keyboard.type('Primeira conversa.')
  await page.getByRole('button', { name: 'Continuar' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Confira seu agendamento' })).toBeVisible()
  await expect(page.locator('input[name="start_time"]')).toHaveValue(chosen!)
  await expectNoAxeViolations(page)
  // PIX is checked; the arrow key moves the choice to the card.
  await page.getByRole('radio', { name: /^PIX/ }).focus()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('radio', { name: /^Cartão de crédito/ })).toBeChecked()
  await page.getByRole('button', { name: 'Confirmar agendamento' }).focus()
  await page.keyboard.press('Enter')

  // The payment service's own page, then back to the purchase, paid, and on to the consultation.
  await page.getByLabel('Card number').fill('4242424242424242')
  await page.getByLabel('Expiry (MM/YY)').fill('12/34')
  await page.getByLabel('CVC').fill('123')
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page).toHaveURL(/\/compras\/\d+/)
  await waitUntilPaid(page)
  await page.getByRole('link', { name: 'Ver a consulta' }).click()
  await expect(page).toHaveURL(/\/consultas\/\d+$/)
  await expect(page.getByText('Primeira conversa.')).toBeVisible()
  await expect(page.getByTestId('appointment-payment')).toContainText('Paga com cartão de crédito.')
  await expectNoAxeViolations(page)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: 'Sua próxima consulta' })).toBeVisible()
  await expect(page.getByText(/Inês Marques/)).toBeVisible()
})

test('a professional fixes a bad slot, saves the week, and finds a booking in the agenda', async ({ page, browser }) => {
  // Two people and four pages with axe: about 25 s on a quiet machine, so the default 30 s is thin.
  test.slow()
  await loginAs(page, demoAccounts.nutricionista)
  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Disponibilidade' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Disponibilidade' })).toBeVisible()
  await expectNoAxeViolations(page)

  // Friday afternoon's range ends before it starts: said on that field, nothing typed is lost.
  await page.getByLabel('Sexta-feira: início do intervalo 2').fill('16:00')
  await page.getByLabel('Sexta-feira: fim do intervalo 2').fill('15:00')
  await page.getByRole('button', { name: 'Salvar disponibilidade' }).click()
  await expect(page.getByText('O fim precisa ser depois do início.')).toBeVisible()
  await expect(page.getByLabel('Sexta-feira: início do intervalo 2')).toHaveValue('16:00')
  await page.getByLabel('Sexta-feira: fim do intervalo 2').fill('19:00')
  await page.getByRole('button', { name: 'Salvar disponibilidade' }).click()
  await expect(page.getByText('Disponibilidade salva.')).toBeVisible()
  await expect(page.getByLabel('Sexta-feira: fim do intervalo 2')).toHaveValue('19:00')

  // A patient books with Rafael in another browser.
  const patientContext = await newContext(browser, { baseURL: test.info().project.use.baseURL, locale: 'pt-BR' })
  const patient = await patientContext.newPage()
  await patient.goto('/')
  const { name: patientName } = await registerFreshPatient(patient, 'agenda')
  await patient.goto('/consultas/profissionais')
  await patient.getByRole('article').filter({ hasText: 'Rafael' }).getByRole('link', { name: 'Agendar' }).click()
  await timeRadios(patient).first().check()
  await patient.getByRole('button', { name: 'Continuar' }).click()
  await patient.getByRole('button', { name: 'Confirmar agendamento' }).click()
  const appointmentUrl = await payConsultationByPix(patient)

  // The agenda: this week or one of the next two (the first free time is at least 12 hours away).
  await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Agenda' }).click()
  await expect(page.getByRole('heading', { name: /^Sua semana/ })).toBeVisible()
  for (let week = 0; week < 3 && !(await page.getByText(patientName).first().isVisible()); week += 1) {
    const heading = await page.getByRole('heading', { name: /^Sua semana/ }).textContent()
    await page.getByRole('link', { name: 'Próxima semana' }).click()
    await expect(page.getByRole('heading', { name: /^Sua semana/ })).not.toHaveText(heading!)
  }
  const row = page.getByRole('listitem').filter({ hasText: patientName }).filter({ has: page.getByRole('link', { name: /^Detalhes/ }) }).last()
  await expect(row).toBeVisible()
  await expect(row.getByText('Agendada')).toBeVisible()
  await expectNoAxeViolations(page)

  // Rafael runs it: confirms it, writes his own notes and guidance for the patient.
  await row.getByRole('link', { name: /^Detalhes/ }).click()
  await expect(page).toHaveURL(new RegExp(`${appointmentUrl}$`))
  await page.getByRole('button', { name: 'Confirmar consulta' }).click()
  await expect(page.getByText('Consulta confirmada.')).toBeVisible()
  await expect(page.getByText('Confirmada', { exact: true })).toBeVisible()
  await page.getByLabel('Suas anotações (privadas)').fill('Investigar a fome noturna.')
  await page.getByLabel('Orientações para o paciente').fill('Anote o que comer depois das 20h.')
  await page.getByRole('button', { name: 'Salvar anotações' }).click()
  await expect(page.getByText('Anotações salvas.')).toBeVisible()
  await expect(page.getByLabel('Suas anotações (privadas)')).toHaveValue('Investigar a fome noturna.')
  await expectNoAxeViolations(page)

  // The patient reads the guidance, never the private notes.
  await patient.goto(appointmentUrl)
  await expect(patient.getByText('Anote o que comer depois das 20h.')).toBeVisible()
  await expect(patient.getByText('Investigar a fome noturna.')).toHaveCount(0)
  await patientContext.close()
})

test.describe('consultations at 360 px', () => {
  async function fitsAndPassesAxe(page: Page, path: string) {
    await page.goto(path)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0)
    await expectNoAxeViolations(page)
  }

  test('the patient pages fit and pass axe @small-screen', async ({ page }) => {
    await page.goto('/')
    await registerFreshPatient(page, 'consultamobile')
    for (const path of ['/consultas/profissionais', '/consultas/agendar/2', '/consultas']) await fitsAndPassesAxe(page, path)
  })

  test('the availability editor fits and passes axe @small-screen', async ({ page }) => {
    await loginAs(page, demoAccounts.profissional)
    await fitsAndPassesAxe(page, '/agenda/disponibilidade')
    await expectWholeTimes(page)
  })

  // A browser with a 12-hour clock writes 13:00 as "01:00 PM" in the same input: the widest format
  // (issue 23: Paula's 13:00-18:00 read "01:00 – 06:00" at 360 px in an English browser).
  test.describe('in an English browser', () => {
    test.use({ locale: 'en-US' })

    test('the availability editor shows whole times, AM/PM included, and fits @small-screen', async ({ page }) => {
      await loginAs(page, demoAccounts.profissional)
      await page.goto('/agenda/disponibilidade')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Availability')
      // The weekdays' ranges, and the blank special date's two times in its narrower box.
      await expect(page.getByRole('group', { name: 'Special date 1' })).toBeVisible()
      await expectWholeTimes(page)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, 'the editor scrolls sideways').toBeLessThanOrEqual(0)
    })
  })
})

/** Every visible time input shows its whole value (hours, minutes and any AM/PM) beside its picker icon. */
async function expectWholeTimes(page: Page) {
  const shown = await timeInputFields(page)
  expect(shown.length, 'time inputs on the page').toBeGreaterThan(0)
  expect(shown.filter((input) => input.cutOff), 'time inputs that cut off their value').toEqual([])
}
