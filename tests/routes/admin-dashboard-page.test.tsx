// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import AdminDashboardPage, { loader } from '#app/routes/admin.dashboard/route.tsx'
import { dashboardAnswers } from '#tests/mocks/admin-dashboard.ts'
import { demoAdmin, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** /admin/dashboard as the browser draws it (decision 0062): the period form, the quick links, each chart and its table. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

const NBSP = '\u00a0'

async function renderAt(path: string) {
  return renderRoute(path, [{ path: '/admin/dashboard', Component: AdminDashboardPage, loader }], { cookie: await signedIn(demoAdmin) })
}

describe('the admin dashboard page', () => {
  test('keeps the users by role, and has the period form with its quick links', async () => {
    dashboardAnswers()
    await renderAt('/admin/dashboard?from=2025-03-01&to=2025-03-03')
    expect(await screen.findByRole('heading', { level: 1, name: 'Administração' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Usuários por perfil' })).toBeInTheDocument()
    const form = screen.getByRole('form', { name: 'Escolher o período' })
    expect(form).toHaveAttribute('method', 'get')
    expect(within(form).getByLabelText('De')).toHaveValue('2025-03-01')
    expect(within(form).getByLabelText('Até')).toHaveValue('2025-03-03')
    const quick = screen.getByRole('navigation', { name: 'Períodos rápidos' })
    expect(within(quick).getAllByRole('link').map((link) => link.textContent)).toEqual(['7 dias', '30 dias', '90 dias', '12 meses'])
    expect(within(quick).queryByRole('link', { current: 'page' })).toBeNull()
    expect(screen.getByTestId('period-shown')).toHaveTextContent(/^1\s–\s3 de mar\. de 2025, dia a dia\.$/)
    expect(screen.getByText('Receita por cartão').nextElementSibling?.textContent).toBe(`R$${NBSP}1.484,56`)
    expect(screen.getByText('Assinaturas ativas no fim do período').nextElementSibling).toHaveTextContent('3')
  })

  test('each chart is a named picture with a description, then the same numbers as a table', async () => {
    dashboardAnswers()
    await renderAt('/admin/dashboard?from=2025-03-01&to=2025-03-03')
    const users = await screen.findByRole('figure', { name: 'Novos usuários' })
    const picture = within(users).getByRole('img', { name: 'Novos usuários' })
    expect(picture.tagName.toLowerCase()).toBe('svg')
    expect(picture.querySelector('title')).toHaveTextContent('Novos usuários')
    expect(picture).toHaveAccessibleDescription('Total no período: 8. Maior valor: 7 (sáb., 1 de mar.).')
    // Three days, two with new users: two bars, the zero day drawn as nothing.
    expect(picture.querySelectorAll('rect')).toHaveLength(2)
    expect(within(users).getByText('Ver como tabela').closest('summary')).toHaveTextContent('Ver como tabela: Novos usuários')
    const table = within(users).getByRole('table', { name: 'Novos usuários', hidden: true })
    expect(within(table).getAllByRole('row', { hidden: true }).map((row) => row.textContent)).toEqual(['DiaNovos usuários', 'sáb., 1 de mar.7', 'dom., 2 de mar.1', 'seg., 3 de mar.0', 'Total8'])
  })

  test('revenue stacks PIX and card, with a legend and a column each plus the total', async () => {
    dashboardAnswers()
    await renderAt('/admin/dashboard?from=2025-03-01&to=2025-03-03')
    const revenue = await screen.findByRole('figure', { name: 'Receita por forma de pagamento' })
    const picture = within(revenue).getByRole('img')
    expect(picture).toHaveAccessibleDescription(
      `PIX: R$${NBSP}100,00; cartão: R$${NBSP}1.484,56; total: R$${NBSP}1.584,56. Maior valor: R$${NBSP}1.234,56 (seg., 3 de mar.).`,
    )
    // Day 1 has both methods (two rects), day 3 only card.
    expect([...picture.querySelectorAll('rect')].map((rect) => rect.getAttribute('class'))).toEqual(['fill-brand-700', 'fill-brand-100 stroke-brand-800', 'fill-brand-100 stroke-brand-800'])
    expect(within(revenue).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['PIX', 'Cartão'])
    const table = within(revenue).getByRole('table', { hidden: true })
    expect(within(table).getAllByRole('columnheader', { hidden: true }).map((cell) => cell.textContent)).toEqual(['Dia', 'PIX', 'Cartão', 'Total'])
    expect(within(table).getAllByRole('row', { hidden: true }).at(-1)?.textContent).toBe(`TotalR$${NBSP}100,00R$${NBSP}1.484,56R$${NBSP}1.584,56`)
  })

  test('a period it cannot show says why beside the form, keeping what was typed', async () => {
    dashboardAnswers()
    await renderAt('/admin/dashboard?from=2025-03-10&to=2025-03-01')
    expect(await screen.findByRole('alert')).toHaveTextContent('A data final não pode ser anterior à inicial. Mostrando os últimos 30 dias.')
    expect(screen.getByLabelText('De')).toHaveValue('2025-03-10')
    expect(screen.getByLabelText('De')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('De')).toHaveAccessibleDescription(/A data final não pode ser anterior/)
  })
})
