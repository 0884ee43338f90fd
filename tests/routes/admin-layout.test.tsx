// @vitest-environment jsdom
import { type LoaderFunctionArgs, data } from '@remix-run/node'
import { createRemixStub } from '@remix-run/testing'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { TranslationsProvider } from '#app/i18n/react.tsx'
import AdminLayout, { ErrorBoundary, loader } from '#app/routes/admin.tsx'
import { demoAdmin, demoPatient, fakeJwt, sessionCookie } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings } from '#tests/mocks/route-stub.ts'

/** The console's layout keeps its frame around a page that fails (issue 43): the error page is drawn inside it. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderAt(path: string, user = demoAdmin) {
  const cookie = await sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user })
  const signedIn = ({ request, params }: LoaderFunctionArgs) => loader({ request: new Request(request.url, { headers: { Cookie: cookie } }), params, context: {} })
  const Stub = createRemixStub([
    {
      id: 'routes/admin',
      path: '/admin',
      Component: AdminLayout,
      ErrorBoundary,
      loader: signedIn,
      children: [
        { path: 'ok', Component: () => <main>Uma página do console</main> },
        {
          path: 'missing',
          Component: () => <main>Nunca desenhada</main>,
          loader: () => {
            throw data({ reason: 'not-found' }, { status: 404 })
          },
        },
      ],
    },
  ])
  return render(
    <TranslationsProvider value={translationsFor('pt')}>
      <Stub initialEntries={[path]} />
    </TranslationsProvider>,
  )
}

describe('the admin layout', () => {
  test('draws its pages under the zone it names', async () => {
    await renderAt('/admin/ok')
    expect(await screen.findByText('Uma página do console')).toBeInTheDocument()
    expect(screen.getByRole('complementary', { name: 'Fuso horário do console' })).toBeInTheDocument()
  })

  test("a child's loader that throws shows the error page inside the layout, the zone still above it", async () => {
    await renderAt('/admin/missing')
    expect(await screen.findByRole('heading', { level: 1, name: 'Página não encontrada' })).toBeInTheDocument()
    expect(screen.getByTestId('admin-zone')).toHaveTextContent(/^Datas e horários do console em .+, o fuso do seu perfil\.$/)
    expect(screen.queryByText('Nunca desenhada')).toBeNull()
  })

  test("the layout's own refusal (not an admin) is the error page alone", async () => {
    await renderAt('/admin/ok', demoPatient)
    expect(await screen.findByRole('heading', { level: 1, name: 'Acesso negado' })).toBeInTheDocument()
    expect(screen.queryByTestId('admin-zone')).toBeNull()
    expect(screen.queryByText('Uma página do console')).toBeNull()
  })
})
