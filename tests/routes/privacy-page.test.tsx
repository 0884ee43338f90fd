// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import PrivacyPage, { loader as privacyLoader } from '#app/routes/configuracoes_.privacidade.tsx'
import { consentsAnswer, deletionPlanAnswer, viewersAnswer } from '#tests/mocks/privacy.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** The privacy page as the browser draws it (decision 0060): every form a plain form, the export a plain link. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderPage(path = '/configuracoes/privacidade') {
  return renderRoute(path, [{ path: '/configuracoes/privacidade', Component: PrivacyPage, loader: privacyLoader }], { cookie: await signedIn(demoPatient) })
}

describe('the privacy page', () => {
  test('consents with their forms, sharing with a revoke button each, the export link, and the deletion form', async () => {
    providerMock.use(
      http.get(providerUrl('/users/me/consents/'), () => HttpResponse.json(consentsAnswer())),
      http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json(viewersAnswer())),
      http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer())),
    )
    await renderPage()
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacidade e dados' })).toBeInTheDocument()
    const consents = screen.getByRole('region', { name: 'Consentimentos' })
    expect(within(consents).getByRole('button', { name: 'Aceitar a versão 1.0' })).toBeInTheDocument()
    expect(within(consents).getByRole('button', { name: 'Não quero mais receber marketing' })).toBeInTheDocument()
    expect(within(consents).getByRole('button', { name: 'Retirar consentimento dos cookies opcionais' })).toBeInTheDocument()
    expect(within(consents).getByRole('link', { name: 'Alterar preferências de cookies' })).toHaveAttribute('href', '/configuracoes/privacidade?cookie-settings=1')
    expect(within(consents).getAllByRole('link', { name: 'Ir para a exclusão da conta' })[0]).toHaveAttribute('href', '#excluir-conta')

    const sharing = screen.getByRole('region', { name: 'Compartilhamento' })
    // Each opens the confirmation step (decision 0079); nothing is revoked from this page.
    expect(within(sharing).getByRole('link', { name: 'Revogar o acesso de Paula Ribeiro' })).toHaveAttribute('href', '/configuracoes/privacidade?confirmar=revogar&profissional=2#confirmar')
    expect(within(sharing).getByRole('link', { name: 'Revogar o acesso de Nina Costa' })).toHaveAttribute('href', '/configuracoes/privacidade?confirmar=revogar&profissional=3#confirmar')
    expect(within(sharing).queryByRole('button')).toBeNull()

    expect(screen.getByRole('link', { name: 'Exportar meus dados (ZIP)' })).toHaveAttribute('href', '/configuracoes/privacidade/exportar')

    const deletion = screen.getByRole('region', { name: 'Excluir minha conta' })
    expect(within(deletion).getByText(/até 31 de dezembro de 2031/)).toBeInTheDocument()
    expect(within(deletion).getByLabelText('Sua senha')).toHaveAttribute('type', 'password')
    expect(within(deletion).getByRole('checkbox', { name: /Entendo que a exclusão é definitiva/ })).not.toBeChecked()
    expect(within(deletion).getByRole('button', { name: 'Excluir minha conta' })).toBeInTheDocument()
  })

  test('an account without a password (Google) is not asked for one', async () => {
    providerMock.use(
      http.get(providerUrl('/users/me/consents/'), () => HttpResponse.json(consentsAnswer())),
      http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json([])),
      http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer({ requires_password: false }))),
    )
    await renderPage()
    const deletion = await screen.findByRole('region', { name: 'Excluir minha conta' })
    expect(within(deletion).queryByLabelText('Sua senha')).toBeNull()
    expect(screen.getByText('Nenhum profissional vê seus resultados.')).toBeInTheDocument()
  })

  test('the revoke step says whose access goes and what they stop seeing, and its button is the only one that revokes', async () => {
    providerMock.use(
      http.get(providerUrl('/users/me/consents/'), () => HttpResponse.json(consentsAnswer())),
      http.get(providerUrl('/users/me/shares/'), () => HttpResponse.json(viewersAnswer())),
      http.get(providerUrl('/users/me/deletion/'), () => HttpResponse.json(deletionPlanAnswer())),
    )
    await renderPage('/configuracoes/privacidade?confirmar=revogar&profissional=2')
    const step = await screen.findByTestId('confirm-step')
    expect(within(step).getByRole('heading', { name: 'Revogar o acesso de Paula Ribeiro?' })).toBeInTheDocument()
    expect(step).toHaveTextContent('Paula Ribeiro deixa de ver:')
    expect(within(step).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '2 avaliações compartilhadas, a mais recente desde 2 de maio de 2026',
      'Acompanha seu programa desde 10 de janeiro de 2026, quando você agendou uma consulta.',
    ])
    expect(within(step).getByRole('button', { name: 'Sim, revogar o acesso' }).closest('form')?.getAttribute('method')).toBe('post')
    expect(step.querySelector('input[name="professional_id"]')).toHaveValue('2')
    expect(step.querySelector('input[name="confirmado"]')).toHaveValue('sim')
    expect(within(step).getByRole('link', { name: 'Não, manter o acesso' })).toHaveAttribute('href', '/configuracoes/privacidade')
    // The other professional keeps the plain link.
    expect(screen.getByRole('link', { name: 'Revogar o acesso de Nina Costa' })).toBeInTheDocument()
  })
})
