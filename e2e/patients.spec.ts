import { demoAccounts, expect, expectNoAxeViolations, loginAs, newContext, payConsultationByPix, registerFreshPatient, test } from './fixtures'

/**
 * A professional's patients (issue 12): a new patient books with Paula; Paula finds them in her
 * patients, opens their page and sees the appointment with its link.
 */

test('a professional opens a patient who booked with her and sees the appointment', async ({ page, browser }) => {
  // Two people, a booking and pages at two widths with axe: 29 s here against the default 30 s.
  test.slow()
  // A patient books with Paula in another browser.
  const patientContext = await newContext(browser, {
    baseURL: test.info().project.use.baseURL,
    locale: 'pt-BR',
  })
  const patient = await patientContext.newPage()
  await patient.goto('/')
  const account = await registerFreshPatient(patient, 'pacientes')
  await patient.goto('/consultas/profissionais')
  await patient.getByRole('article').filter({ hasText: 'Paula Ribeiro' }).getByRole('link', { name: 'Agendar' }).click()
  await patient.getByRole('radio').first().check()
  await patient.getByRole('button', { name: 'Continuar' }).click()
  await patient.getByRole('button', { name: 'Confirmar agendamento' }).click()
  const appointmentPath = await payConsultationByPix(patient)
  await patientContext.close()

  await loginAs(page, demoAccounts.profissional)
  await page.goto('/dashboard')
  await page.getByRole('navigation', { name: 'Sua área' }).getByRole('link', { name: 'Pacientes' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Seus pacientes' })).toBeVisible()
  await page.getByRole('listitem').filter({ hasText: account.email }).getByRole('link', { name: account.name }).click()

  await expect(page).toHaveURL(/\/profissional\/pacientes\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: account.name })).toBeVisible()
  const next = page.getByRole('region', { name: 'Próximas' })
  await expect(next.getByText('Agendada', { exact: true })).toBeVisible()
  await expect(next.getByRole('link', { name: /^Detalhes/ })).toHaveAttribute('href', appointmentPath)
  await expect(page.getByText('Este paciente ainda não compartilhou nenhuma avaliação com você.')).toBeVisible()
  await expect(page.getByText('Este paciente ainda não começou um programa.')).toBeVisible()
  await expectNoAxeViolations(page)

  // At 360 px the patient's page and the consultation's page (with its management) fit and pass axe.
  await page.setViewportSize({ width: 360, height: 800 })
  for (const path of [new URL(page.url()).pathname, appointmentPath]) {
    await page.goto(path)
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${path} scrolls sideways`).toBeLessThanOrEqual(0)
    await expectNoAxeViolations(page)
  }
  await expect(page.getByRole('heading', { name: 'Gestão da consulta' })).toBeVisible()
})
