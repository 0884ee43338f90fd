import { type Page } from '@playwright/test'
import { DEMO_PASSWORD, demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, providerUrl, registerFreshPatient, test } from './fixtures'

/** A free class made by an admin through the provider, starting `minutes` from now, taught by Paula (id 2). */
async function classStartingIn(page: Page, minutes: number, label: string): Promise<{ id: number; title: string }> {
  const login = await page.request.post(`${providerUrl}/authentication/custom-login/`, { data: { email: demoAccounts.admin, password: DEMO_PASSWORD } })
  const { access } = (await login.json()) as { access: string }
  const title = `Respiração guiada ${label} ${Date.now() % 100000}`
  const created = await page.request.post(`${providerUrl}/products/zoom/sessions/`, {
    headers: { Authorization: `Bearer ${access}` },
    data: {
      pillar: 'estresse',
      title: { pt: title, en: title, es: title },
      description: { pt: 'Uma pausa guiada de respiração.', en: 'A guided breathing pause.', es: 'Una pausa guiada de respiración.' },
      teacher_id: 2,
      starts_at: new Date(Date.now() + minutes * 60_000).toISOString(),
      duration_minutes: 30,
      seats: 5,
      access: 'free',
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  return { id: ((await created.json()) as { id: number }).id, title }
}

test.describe('live classes without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a patient reserves a seat in a later class, is refused the room before its window, and enters a class inside it; the pages pass axe at 360 px and on a desktop', async ({ page, browser, baseURL }) => {
    const later = await classStartingIn(page, 180, 'depois')
    const soon = await classStartingIn(page, 5, 'agora')
    const patient = await registerFreshPatient(page, 'aovivo')

    await page.goto('/aulas-ao-vivo?pilar=estresse')
    await expect(page.getByRole('heading', { level: 1, name: 'Aulas ao vivo' })).toBeVisible()
    await page.getByRole('link', { name: later.title, exact: true }).click()
    await page.getByRole('button', { name: 'Reservar minha vaga' }).click()
    await expect(page.getByText('Vaga reservada! Você receberá um lembrete antes da aula.')).toBeVisible()
    await expect(page.getByText('Você está inscrito nesta aula.')).toBeVisible()
    await expect(page.getByText(/^A sala abre às \d{2}:\d{2} \(10 minutos antes\)\.$/)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Entrar na aula' })).toHaveCount(0)
    // Asked anyway, the provider refuses the room before its window.
    const early = await page.request.post(`/aulas-ao-vivo/${later.id}`, { form: { intent: 'join' }, headers: { Origin: baseURL! }, maxRedirects: 0 })
    expect(early.status()).toBe(400)
    expect(await early.text()).toMatch(/A sala abre às \d{2}:\d{2}/)
    const calendar = await page.request.get(`/aulas-ao-vivo/${later.id}/ics`)
    expect(calendar.headers()['content-type']).toContain('text/calendar')
    expect(await calendar.text()).toContain(later.title)

    // Inside the window: the room's link, the fake Zoom's page in the demo.
    await page.goto(`/aulas-ao-vivo/${soon.id}`)
    await page.getByRole('button', { name: 'Entrar na aula' }).click()
    await expect(page).toHaveURL(/\/fake-zoom\/j\/\d+/)

    await page.goto('/meus-produtos')
    await expect(page.getByRole('heading', { name: 'Próximas aulas ao vivo' })).toBeVisible()

    const withScript = await (await newContext(browser, { javaScriptEnabled: true })).newPage()
    await loginAs(withScript, patient.email, patient.password)
    for (const path of ['/aulas-ao-vivo', `/aulas-ao-vivo/${later.id}`]) {
      await withScript.goto(path)
      await withScript.setViewportSize({ width: 360, height: 800 })
      await expectNoAxeViolations(withScript)
      await withScript.setViewportSize({ width: 1280, height: 800 })
      await expectNoAxeViolations(withScript)
    }
    await withScript.context().close()
  })
})
