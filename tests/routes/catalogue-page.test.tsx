// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import CataloguePage, { loader as catalogueLoader } from '#app/routes/solucoes/route.tsx'
import { productPage } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { ignoreRouterFutureWarnings, renderRoute } from '#tests/mocks/route-stub.ts'

/** The catalogue with nothing to sell for a filter (issue 42): said in words, and where the free courses are. */

beforeEach(() => ignoreRouterFutureWarnings())
afterEach(() => cleanup())

function show(path: string) {
  return renderRoute(path, [{ path: '/solucoes', Component: CataloguePage, loader: catalogueLoader }])
}

describe('a filter with nothing for sale', () => {
  test('“Nenhuma solução encontrada”, and the free courses of that pillar one link away', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.json(productPage([], 0))))
    show('/solucoes?pilar=exercicio')
    expect(await screen.findByRole('status')).toHaveTextContent(/^Nenhuma solução encontrada$/)
    const free = screen.getByTestId('free-courses')
    expect(within(free).getByRole('link', { name: 'Ver os cursos' })).toHaveAttribute('href', '/cursos?pilar=exercicio')
  })

  test('a type other than courses does not speak of them', async () => {
    providerMock.use(http.get(providerUrl('/products/'), () => HttpResponse.json(productPage([], 0))))
    show('/solucoes?tipo=digital_material')
    expect(await screen.findByRole('status')).toHaveTextContent('Nenhuma solução encontrada')
    expect(screen.queryByTestId('free-courses')).toBeNull()
  })
})
