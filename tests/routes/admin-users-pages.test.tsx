// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import AdminAuditPage, { loader as auditLoader } from '#app/routes/admin.audit.tsx'
import AdminUserPage, { action as userAction, loader as userLoader } from '#app/routes/admin.users_.$id/route.tsx'
import { adminHandlers, adminUserAnswer, auditEntryAnswer, page } from '#tests/mocks/admin.ts'
import { demoAdmin, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** An admin's user page and the audit log as the browser draws them (decision 0059). */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderAt(path: string) {
  const routes = [
    { path: '/admin/users/:id', Component: AdminUserPage, loader: userLoader, action: userAction },
    { path: '/admin/audit', Component: AdminAuditPage, loader: auditLoader },
  ]
  return renderRoute(path, routes, { cookie: await signedIn(demoAdmin, { checked: true }) })
}

describe("an admin's user page", () => {
  test('the facts, the groups ticked, the activity with its sentence, the accreditation filled in, the revocation saying what it cancels', async () => {
    adminHandlers()
    await renderAt('/admin/users/3')
    expect(await screen.findByRole('heading', { level: 1, name: 'Rafael Costa' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Voltar aos usuários' })).toHaveAttribute('href', '/admin/users')
    expect(screen.getByRole('link', { name: 'Ver o registro de auditoria deste usuário' })).toHaveAttribute('href', '/admin/audit?subject=3')

    const groups = screen.getByRole('group', { name: 'Grupos de Rafael Costa' })
    expect(within(groups).getByRole('checkbox', { name: 'Profissional' })).toBeChecked()
    expect(within(groups).getByRole('checkbox', { name: 'Paciente' })).not.toBeChecked()

    const activity = screen.getByRole('region', { name: 'Situação da conta' })
    expect(activity).toHaveTextContent('Desativar a conta de Rafael Costa encerra na hora todas as sessões abertas')
    expect(within(activity).getByRole('checkbox', { name: 'Confirmo que quero desativar a conta de Rafael Costa' })).not.toBeChecked()
    expect(within(activity).getByRole('button', { name: 'Desativar conta' })).toBeInTheDocument()

    const accreditation = screen.getByRole('region', { name: 'Credenciamento profissional' })
    expect(within(accreditation).getByLabelText('Profissão')).toHaveValue('Nutricionista')
    expect(within(accreditation).getByLabelText('Número de registro')).toHaveValue('CRN-3 12345')
    expect(within(accreditation).getByRole('checkbox', { name: 'Alimentação' })).toBeChecked()
    expect(within(accreditation).getByRole('checkbox', { name: 'Sono' })).toBeChecked()
    expect(within(accreditation).getByRole('checkbox', { name: 'Gestão do estresse' })).not.toBeChecked()
    expect(within(accreditation).getByRole('checkbox', { name: 'Inglês' })).toBeChecked()
    expect(within(accreditation).getByLabelText('Preço da consulta (R$)')).toHaveValue('150,00')

    const revocation = screen.getByRole('region', { name: 'Revogar credenciamento' })
    expect(within(revocation).getByTestId('revocation-consequence')).toHaveTextContent(
      'Revogar tira Rafael Costa do diretório agora. 3 consultas futuras serão canceladas e reembolsadas integralmente, e as duas pessoas de cada uma serão avisadas por e-mail.',
    )
    expect(within(revocation).getByLabelText('Motivo')).toBeInTheDocument()
  })

  test('never accredited: no revocation, the accreditation form empty but for Portuguese; their own page has no deactivation', async () => {
    adminHandlers({ detail: () => HttpResponse.json(adminUserAnswer({ id: 1, first_name: 'Alice', last_name: 'Admin', groups: ['admin'], professional: null })) })
    await renderAt('/admin/users/1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Alice Admin' })).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: 'Revogar credenciamento' })).toBeNull()
    expect(screen.getByText('Esta é a sua conta: você não pode desativá-la.')).toBeInTheDocument()
    const accreditation = screen.getByRole('region', { name: 'Credenciamento profissional' })
    expect(within(accreditation).getByLabelText('Profissão')).toHaveValue('')
    expect(within(accreditation).getByRole('checkbox', { name: 'Português' })).toBeChecked()
    expect(within(accreditation).getByRole('button', { name: 'Credenciar' })).toBeInTheDocument()
  })

  test('a refused accreditation comes back with what was typed and why', async () => {
    const sent = adminHandlers()
    await renderAt('/admin/users/3')
    const accreditation = within(await screen.findByRole('region', { name: 'Credenciamento profissional' }))
    const user = userEvent.setup()
    await user.clear(accreditation.getByLabelText('Profissão'))
    await user.type(accreditation.getByLabelText('Profissão'), 'Psicóloga')
    await user.clear(accreditation.getByLabelText('Preço da consulta (R$)'))
    await user.type(accreditation.getByLabelText('Preço da consulta (R$)'), '20.000,00')
    await user.click(accreditation.getByRole('button', { name: 'Salvar credenciamento' }))
    expect(await accreditation.findByText('Digite um valor de R$ 0,00 a R$ 10.000,00, como 150,00.')).toBeInTheDocument()
    expect(accreditation.getByLabelText('Profissão')).toHaveValue('Psicóloga')
    expect(accreditation.getByLabelText('Preço da consulta (R$)')).toHaveValue('20.000,00')
    expect(sent.filter((call) => call.method !== 'GET')).toEqual([])
  })
})

describe('the audit log page', () => {
  test('the filter form keeps the filters, the table names who, what, whose and the change; the export keeps the filters', async () => {
    adminHandlers({ audit: () => HttpResponse.json(page([auditEntryAnswer(), auditEntryAnswer({ id: 11, actor: null, action: 'audit.export', target_type: 'audit_log', target_id: null, subject: null, before: null, after: null })], 2)) })
    await renderAt('/admin/audit?action=user&subject=4')
    expect(await screen.findByRole('heading', { level: 1, name: 'Registro de auditoria' })).toBeInTheDocument()
    const filters = screen.getByRole('search', { name: 'Filtros do registro' })
    expect(within(filters).getByLabelText('Ação')).toHaveDisplayValue('Usuários (todas)')
    expect(within(filters).getByLabelText('De quem são os dados (número ou e-mail)')).toHaveValue('4')
    expect(screen.getByRole('link', { name: 'Exportar CSV' })).toHaveAttribute('href', '/admin/audit/export?action=user&subject=4')
    const rows = within(screen.getByTestId('audit-entries')).getAllByRole('row')
    expect(rows[1]).toHaveTextContent('Alice Admin')
    expect(rows[1]).toHaveTextContent('Grupos alterados')
    expect(rows[1]).toHaveTextContent('groups: paciente → profissional, paciente')
    expect(within(rows[1]!).getByRole('link', { name: 'Pedro Santos' })).toHaveAttribute('href', '/admin/users/4')
    expect(rows[2]).toHaveTextContent('Sistema')
    expect(rows[2]).toHaveTextContent('Registro exportado')
  })
})
