import { type Page } from '@playwright/test'
import { expect, expectNoAxeViolations, hydrated, loginAs, newContext, providerUrl, registerFreshPatient, test } from './fixtures'

/**
 * Google Calendar for professionals (issue 13), through the embedded provider's fake Google: the
 * connection without JavaScript (the full-page redirect) and with it (the 500x600 popup: consent,
 * a denied consent, a blocked popup, the 5-minute timeout), a conflicting event put in the fake
 * calendar shown with its severity and keeping patients off that time (in the free times, and
 * live on confirming), disconnecting, and axe at 360 px and on the desktop.
 *
 * Lucas (educador) is this file's own professional: its tests run in order and each leaves his
 * calendar disconnected. Inês (psicóloga) is the axe test's, which runs in both projects.
 */

const LUCAS = { email: 'educador@innera.local', id: 7 }
const INES = { email: 'psicologa@innera.local' }
const CALENDAR = '/agenda/calendario'

const consentHeading = (page: Page) => page.getByRole('heading', { name: 'Innera wants to access your Google Calendar' })
const connection = (page: Page) => page.getByRole('region', { name: 'Conexão' })
const conflicts = (page: Page) => page.getByRole('region', { name: 'Conflitos nos próximos 30 dias' })
/** An event's row in the week (not the day around it, a list item too). */
const eventRow = (page: Page, text: string) => page.locator('li[data-event-id]').filter({ hasText: text })

/** A weekday at least `ahead` days from today in São Paulo (YYYY-MM-DD), inside the conflict window. */
function weekdayAhead(ahead: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())
  const date = new Date(`${today}T12:00:00Z`)
  date.setUTCDate(date.getUTCDate() + ahead)
  while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

/** Someone puts an event in the professional's (fake) Google Calendar: the fake's dev helper. */
async function putEventInGoogle(page: Page, event: { email: string; summary: string; start: string; end: string }) {
  const response = await page.request.post(`${providerUrl}/fake-google/dev/calendar/events/`, { data: event })
  expect(response.status(), 'the fake calendar took the event').toBe(201)
}

/** The full-page connection: the link, the fake consent page, Allow, back with the toast. */
async function connectFullPage(page: Page) {
  await page.goto(CALENDAR)
  await connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click()
  await expect(consentHeading(page)).toBeVisible()
  await page.getByRole('button', { name: 'Allow' }).click()
  await expect(page).toHaveURL(/\/agenda\/calendario$/)
  await expect(page.getByText('Google Calendar conectado com sucesso')).toBeVisible()
}

async function disconnect(page: Page) {
  await page.goto(CALENDAR)
  await connection(page).getByRole('link', { name: 'Desconectar' }).click()
  await expect(page.getByRole('heading', { name: 'Desconectar o Google Calendar?' })).toBeVisible()
  await page.getByRole('button', { name: 'Sim, desconectar' }).click()
  await expect(page.getByText('Integração desativada com sucesso')).toBeVisible()
  await expect(connection(page).getByText('Seu Google Calendar não está conectado.')).toBeVisible()
}

test.describe('Google Calendar, one professional', () => {
  test.describe.configure({ mode: 'serial' })

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false })

    test('connects through the full-page redirect, sees the week, and disconnects', async ({ page }) => {
      await loginAs(page, LUCAS.email)
      await page.goto('/dashboard')
      await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Calendário' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Google Calendar' })).toBeVisible()
      await expect(connection(page).getByText('Seu Google Calendar não está conectado.')).toBeVisible()
      // A plain link to the start: no script needed.
      await expect(connection(page).getByRole('link', { name: 'Conectar Google Calendar' })).toHaveAttribute('href', '/agenda/calendario/conectar')

      await connectFullPage(page)
      await expect(connection(page).getByText(`Conectado como ${LUCAS.email}.`)).toBeVisible()
      await expect(page.getByRole('heading', { name: /^Semana de / })).toBeVisible()
      await expect(page.getByRole('region', { name: 'Novo evento' })).toBeVisible()

      // The week's links work without JavaScript.
      await page.getByRole('link', { name: 'Próxima semana' }).click()
      await expect(page).toHaveURL(/\?semana=\d{4}-\d{2}-\d{2}$/)
      await expect(page.getByRole('link', { name: 'Semana anterior' })).toBeVisible()

      await disconnect(page)
    })

    test('creates, edits and deletes an event; a bad time keeps what was typed', async ({ page }) => {
      await loginAs(page, LUCAS.email)
      await connectFullPage(page)
      const date = weekdayAhead(3)
      const form = page.getByRole('region', { name: 'Novo evento' })
      await form.getByLabel('Tipo').selectOption('class')
      await form.getByLabel('Data').fill(date)
      await form.getByLabel('Início').fill('19:00')
      await form.getByLabel('Fim').fill('18:00')
      await form.getByLabel('Observações (opcional)').fill('Turma de alongamento.')
      await form.getByRole('button', { name: 'Criar evento' }).click()
      await expect(page.getByText('O fim precisa ser depois do início.')).toBeVisible()
      await expect(page.getByRole('region', { name: 'Novo evento' }).getByLabel('Observações (opcional)')).toHaveValue('Turma de alongamento.')

      await page.getByRole('region', { name: 'Novo evento' }).getByLabel('Fim').fill('20:00')
      await page.getByRole('region', { name: 'Novo evento' }).getByRole('button', { name: 'Criar evento' }).click()
      await expect(page.getByText('Evento criado no Google Calendar.')).toBeVisible()
      // The provider wrote the title from the type.
      const row = eventRow(page, 'Aula Innera')
      await expect(row).toBeVisible()
      await expect(row.getByText('19:00–20:00')).toBeVisible()

      await row.getByRole('link', { name: /^Editar/ }).click()
      const edit = page.getByRole('region', { name: 'Editar evento' })
      await expect(edit.getByLabel('Observações (opcional)')).toHaveValue('Turma de alongamento.')
      // The notes stay in Innera: Google's copy of the event has none of them (LGPD, decision 0029).
      const google = await page.request.get(`${providerUrl}/fake-google/dev/calendar/events/?email=${encodeURIComponent(LUCAS.email)}`)
      expect(JSON.stringify(await google.json())).not.toContain('alongamento')
      await edit.getByLabel('Início').fill('18:30')
      await edit.getByRole('button', { name: 'Salvar alterações' }).click()
      await expect(page.getByText('Evento atualizado no Google Calendar.')).toBeVisible()
      await expect(eventRow(page, 'Aula Innera').getByText('18:30–20:00')).toBeVisible()

      await eventRow(page, 'Aula Innera').getByRole('link', { name: /^Excluir/ }).click()
      await expect(page.getByRole('heading', { name: 'Excluir “Aula Innera”?' })).toBeVisible()
      await page.getByRole('button', { name: 'Sim, excluir' }).click()
      await expect(page.getByText('Evento excluído do Google Calendar.')).toBeVisible()
      await expect(eventRow(page, 'Aula Innera')).toHaveCount(0)

      await disconnect(page)
    })
  })

  test.describe('with JavaScript on', () => {
    test('connects in the 500x600 popup through the fake consent page', async ({ page }) => {
      // Playwright gives popups the context's viewport: what the page asked window.open for is what counts.
      await page.addInitScript(() => {
        const open = window.open.bind(window)
        const calls: unknown[][] = []
        Object.assign(window, { openCalls: calls })
        window.open = (...args: Parameters<typeof window.open>) => {
          calls.push(args)
          return open(...args)
        }
      })
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      const [popup] = await Promise.all([page.waitForEvent('popup'), hydrated(page).then(() => connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click())])
      await expect(connection(page).getByText('Continue na janela do Google que se abriu. Esperando a autorização…')).toBeVisible()
      await expect(consentHeading(popup)).toBeVisible()
      const [call] = await page.evaluate(() => (window as unknown as { openCalls: unknown[][] }).openCalls)
      expect(call?.slice(0, 2)).toEqual(['/agenda/calendario/conectar?popup=1', 'innera-google-calendar'])
      expect(String(call?.[2])).toMatch(/^popup=yes,width=500,height=600/)
      await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Allow' }).click()])
      await expect(connection(page).getByRole('status')).toHaveText('Google Calendar conectado com sucesso')
      // The page read again: connected, without a reload.
      await expect(connection(page).getByText(`Conectado como ${LUCAS.email}.`)).toBeVisible()
      await expect(page).toHaveURL(/\/agenda\/calendario$/)
      await disconnect(page)
    })

    test('a denied consent is “cancelled”; nothing is connected', async ({ page }) => {
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      const [popup] = await Promise.all([page.waitForEvent('popup'), hydrated(page).then(() => connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click())])
      await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Deny' }).click()])
      await expect(connection(page).getByRole('status')).toHaveText('Autorização cancelada: o Google Calendar não foi conectado.')
      await page.reload()
      await expect(connection(page).getByText('Seu Google Calendar não está conectado.')).toBeVisible()
    })

    test('a closed popup is “cancelled” too', async ({ page }) => {
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      const [popup] = await Promise.all([page.waitForEvent('popup'), hydrated(page).then(() => connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click())])
      await expect(consentHeading(popup)).toBeVisible()
      await popup.close()
      await expect(connection(page).getByRole('status')).toHaveText('Autorização cancelada: o Google Calendar não foi conectado.')
    })

    test('a blocked popup says so and offers the full-page flow, which connects', async ({ page }) => {
      // What a popup blocker does: window.open answers null.
      await page.addInitScript(() => {
        window.open = () => null
      })
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      await hydrated(page)
      await connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click()
      await expect(connection(page).getByRole('status')).toContainText('Pop-up bloqueado. Por favor, permita pop-ups para este site.')
      await connection(page).getByRole('status').getByRole('link', { name: 'Conectar nesta janela' }).click()
      await expect(consentHeading(page)).toBeVisible()
      await page.getByRole('button', { name: 'Allow' }).click()
      await expect(page.getByText('Google Calendar conectado com sucesso')).toBeVisible()
      await disconnect(page)
    })

    test('5 minutes without an answer: “Timeout na autorização”, and the popup is closed', async ({ page }) => {
      await page.clock.install()
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      const [popup] = await Promise.all([page.waitForEvent('popup'), hydrated(page).then(() => connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click())])
      await expect(consentHeading(popup)).toBeVisible()
      // The page's clock also runs on its own meanwhile (the sign-in, the popup): half a minute spare.
      await page.clock.fastForward('04:30')
      await expect(connection(page).getByRole('status')).toContainText('Continue na janela do Google')
      await Promise.all([popup.waitForEvent('close'), page.clock.fastForward('00:31')])
      await expect(connection(page).getByRole('status')).toHaveText('Timeout na autorização. Por favor, tente novamente.')
    })

    test('an event put in Google Calendar is a conflict of its severity and keeps patients off that time; disconnecting clears everything', async ({ page, browser }) => {
      await loginAs(page, LUCAS.email)
      await page.goto(CALENDAR)
      const [popup] = await Promise.all([page.waitForEvent('popup'), hydrated(page).then(() => connection(page).getByRole('link', { name: 'Conectar Google Calendar' }).click())])
      await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Allow' }).click()])
      await expect(connection(page).getByText(`Conectado como ${LUCAS.email}.`)).toBeVisible()

      // Someone puts an urgent meeting in Lucas's Google Calendar, inside his afternoon (13:00-18:00).
      const date = weekdayAhead(2)
      await putEventInGoogle(page, { email: LUCAS.email, summary: 'Reunião URGENTE do conselho', start: `${date}T14:00:00-03:00`, end: `${date}T15:00:00-03:00` })
      await connection(page).getByRole('button', { name: 'Sincronizar agora' }).click()
      await expect(page.getByText('Google Calendar sincronizado.')).toBeVisible()
      const conflict = conflicts(page).locator('li[data-severity]').filter({ hasText: 'Reunião URGENTE do conselho' })
      await expect(conflict).toBeVisible()
      await expect(conflict.getByText('Gravidade: Média')).toBeAttached()
      await expect(conflict).toContainText('13:00-18:00')
      await expect(conflict).toContainText('está marcado como importante ou urgente')
      // The stats count it: one conflict.
      const stats = page.getByRole('region', { name: 'Resumo' })
      await expect(stats.locator('div').filter({ has: page.getByText('Conflitos', { exact: true }) }).locator('dd')).toHaveText('1')

      // The availability editor shows it beside Lucas's afternoon slot of that weekday.
      await page.goto('/agenda/disponibilidade')
      await expect(page.getByText(/conflito com o Google Calendar nos próximos 30 dias/).first()).toBeVisible()

      // A patient: nothing of that afternoon that would touch 14:00-15:00 is offered.
      const patientContext = await newContext(browser, { baseURL: test.info().project.use.baseURL, locale: 'pt-BR' })
      const patient = await patientContext.newPage()
      await patient.goto('/')
      await registerFreshPatient(patient, 'agendagoogle')
      await patient.goto(`/consultas/agendar/${LUCAS.id}?data=${date}`)
      const times = patient.getByRole('region', { name: /^Horários de / }).locator('label')
      await expect(times.first()).toBeVisible()
      const offered = (await times.allTextContents()).map((text) => text.trim()).filter((text) => /^\d{2}:\d{2}$/.test(text))
      // A 50-minute consultation starting after 13:10 and before 15:00 would overlap the meeting.
      expect(offered.filter((time) => time > '13:10' && time < '15:00'), `offered: ${offered.join(', ')}`).toEqual([])
      const last = offered.at(-1)!
      expect(last > '15:00').toBe(true)
      await patient.getByRole('radio', { name: last, exact: true }).check()
      await patient.getByLabel('Observações para o profissional (opcional)').fill('Primeira avaliação física.')
      await patient.getByRole('button', { name: 'Continuar' }).click()
      await expect(patient.getByRole('heading', { name: 'Confira seu agendamento' })).toBeVisible()
      // Meanwhile, in Google, that time is taken (not synced yet: only the live check on confirming knows).
      await putEventInGoogle(page, { email: LUCAS.email, summary: 'Dentista', start: `${date}T${last}:00-03:00`, end: `${date}T18:00:00-03:00` })
      await patient.getByRole('button', { name: 'Confirmar agendamento' }).click()
      await expect(patient.getByRole('alert').filter({ hasText: 'Esse horário acabou de ser reservado por outra pessoa.' })).toBeVisible()
      await expect(patient.getByLabel('Observações para o profissional (opcional)')).toHaveValue('Primeira avaliação física.')
      await patientContext.close()

      // Disconnecting clears the events, the conflicts and the stats, here and on the dashboard.
      await disconnect(page)
      await expect(conflicts(page)).toHaveCount(0)
      await expect(page.getByRole('region', { name: 'Resumo' })).toHaveCount(0)
      await expect(page.getByRole('heading', { name: /^Semana de / })).toHaveCount(0)
      await page.goto('/dashboard')
      await expect(page.getByText('Conecte seu Google Calendar para ver aqui seus eventos e os conflitos com a sua disponibilidade.')).toBeVisible()
      await page.goto('/agenda/disponibilidade')
      await expect(page.getByText(/conflitos? com o Google Calendar nos próximos 30 dias/)).toHaveCount(0)
    })
  })
})

test('the calendar page fits and passes axe, connected or not @mobile', async ({ page }) => {
  await loginAs(page, INES.email)
  await page.goto(CALENDAR)
  const fits = async () => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow, 'scrolls sideways').toBeLessThanOrEqual(0)
  }
  if (await connection(page).getByText('Seu Google Calendar não está conectado.').isVisible()) {
    await fits()
    await expectNoAxeViolations(page)
    await page.goto('/agenda/calendario/conectar')
    await expect(consentHeading(page)).toBeVisible()
    await page.getByRole('button', { name: 'Allow' }).click()
    await expect(page).toHaveURL(/\/agenda\/calendario$/)
  }
  await putEventInGoogle(page, { email: INES.email, summary: 'Congresso com um título bastante longo para caber numa tela pequena', start: `${weekdayAhead(1)}T09:00:00Z`, end: `${weekdayAhead(1)}T11:00:00Z` })
  await connection(page).getByRole('button', { name: 'Sincronizar agora' }).click()
  await expect(page.getByRole('heading', { name: /^Semana de / })).toBeVisible()
  await fits()
  await expectNoAxeViolations(page)
  await page.goto(`${CALENDAR}?desconectar=1`)
  await fits()
  await expectNoAxeViolations(page)
})
