// @vitest-environment jsdom
import { data } from '@remix-run/node'
import { cleanup, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import AdminLayout, { ErrorBoundary, loader } from '#app/routes/admin.tsx'
import { demoAdmin, demoPatient, signedIn } from '#tests/mocks/session.ts'
import { ignoreRouterFutureWarnings, renderRoute, type StubRoute } from '#tests/mocks/route-stub.ts'

/** The console's layout keeps its frame around a page that fails (issue 43): the error page is drawn inside it. */

beforeEach(() => {
  ignoreRouterFutureWarnings()
})
afterEach(() => cleanup())

async function renderAt(path: string, user = demoAdmin) {
  const routes: StubRoute[] = [
    {
      id: 'routes/admin',
      path: '/admin',
      Component: AdminLayout,
      ErrorBoundary,
      loader,
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
  ]
  return renderRoute(path, routes, { cookie: await signedIn(user) })
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
