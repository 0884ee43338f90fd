import { type Page } from '@playwright/test'
import { demoAccounts, expect, expectNoAxeViolations, loginAs, test } from './fixtures'

/**
 * The signed-in navigation: each role's own areas under the header, the current page marked,
 * the public pages still in the header above. Links only, so JavaScript changes nothing.
 */
const areas = [
  { role: 'paciente', label: 'Sua área', links: ['Painel', 'Avaliação de saúde', 'Meu programa', 'Meus hábitos', 'Cursos', 'Aulas ao vivo', 'Consultas', /^Mensagens/, 'Soluções'], next: { name: 'Consultas', url: /\/consultas$/ } },
  { role: 'profissional', label: 'Sua área', links: ['Agenda', 'Pacientes', /^Mensagens/, 'Avaliações compartilhadas', 'Disponibilidade', 'Calendário', 'Cursos', 'Aulas ao vivo'], next: { name: 'Disponibilidade', url: /\/agenda\/disponibilidade$/ } },
  { role: 'admin', label: 'Administração', links: ['Visão geral', 'Usuários', 'Conteúdo', 'Compras', 'Consultas', 'Mensagens', 'Auditoria'], next: { name: 'Usuários', url: /\/admin\/users$/ } },
] as const

const memberNav = (page: Page, label: string) => page.getByRole('navigation', { name: label })

for (const javaScriptEnabled of [false, true]) {
  test.describe(`member area, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled })

    for (const area of areas) {
      test(`${area.role}: the own areas, the current page marked, and the way to the next`, async ({ page }) => {
        await loginAs(page, demoAccounts[area.role])
        await page.goto(area.role === 'admin' ? '/admin/dashboard' : '/dashboard')
        const nav = memberNav(page, area.label)
        await expect(nav.getByRole('link')).toHaveText([...area.links])
        await expect(nav.getByRole('link', { name: area.links[0], exact: true })).toHaveAttribute('aria-current', 'page')

        await nav.getByRole('link', { name: area.next.name, exact: true }).click()
        await expect(page).toHaveURL(area.next.url)
        await expect(nav.getByRole('link', { name: area.next.name, exact: true })).toHaveAttribute('aria-current', 'page')
        await expect(nav.getByRole('link', { name: area.links[0], exact: true })).not.toHaveAttribute('aria-current', 'page')
        // The public site stays one click away.
        await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toBeAttached()
        // axe runs in the page: with JavaScript off it is checked on the server's page below.
        if (javaScriptEnabled) await expectNoAxeViolations(page)
      })
    }
  })
}

test.describe('member area as the server renders it (no app scripts)', () => {
  for (const area of areas) {
    test(`${area.role}: passes axe`, async ({ page }) => {
      // What a browser without JavaScript gets: the server's HTML, the app's scripts never run.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort())
      await loginAs(page, demoAccounts[area.role])
      await page.goto(area.role === 'admin' ? '/admin/dashboard' : '/dashboard')
      await expect(memberNav(page, area.label).getByRole('link', { name: area.links[0], exact: true })).toHaveAttribute('aria-current', 'page')
      await expectNoAxeViolations(page)
    })
  }
})

test('a visitor sees no member navigation', async ({ page }) => {
  await page.goto('/')
  await expect(memberNav(page, 'Sua área')).toHaveCount(0)
})

test.describe('member area at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } })

  for (const area of areas) {
    test(`${area.role}: the navigation and the landing page fit without sideways scrolling and pass axe @small-screen`, async ({ page }) => {
      await loginAs(page, demoAccounts[area.role])
      await page.goto(area.role === 'admin' ? '/admin/dashboard' : '/dashboard')
      const nav = memberNav(page, area.label)
      await expect(nav.getByRole('link', { name: area.links[0], exact: true })).toBeVisible()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0)
      // The last area can be reached: the row scrolls on its own.
      const last = nav.getByRole('link', { name: area.links.at(-1), exact: true })
      await last.scrollIntoViewIfNeeded()
      await expect(last).toBeInViewport()
      await expectNoAxeViolations(page)
    })
  }
})
