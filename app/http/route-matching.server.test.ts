import { createRequire } from 'node:module'
import path from 'node:path'
import dev from '@remix-run/dev'
import type * as RemixRouter from '@remix-run/router'
import { describe, expect, test, vi } from 'vitest'
import { REMEMBERED_PATHNAMES, rememberRouteMatches, rememberingMatchRoutes } from './route-matching.server.ts'

const router = createRequire(import.meta.url)('@remix-run/router') as typeof RemixRouter
const libraryMatchRoutes = router.matchRoutes
type Route = RemixRouter.AgnosticRouteObject

/** This app's route tree as Remix's server builds it from app/routes (a new tree at each call, as each render makes). */
function appTree(): Route[] {
  const manifest = dev.UNSAFE_flatRoutes(path.resolve('app'), ['**/*.test.{ts,tsx}', '**/.*'], 'routes') as Record<string, { id: string; path?: string; index?: boolean; caseSensitive?: boolean; parentId?: string }>
  const childrenOf = (parentId: string): Route[] =>
    Object.values(manifest)
      .filter((route) => route.parentId === parentId)
      .map((route) => ({ id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: childrenOf(route.id) }) as Route)
  return [{ id: 'root', path: '', children: childrenOf('root') }]
}

/** A concrete pathname for every route (each parameter filled, optional segments with and without) and each parent path. */
function pathnamesOf(routes: Route[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const joined = route.path ? `${parent}/${route.path}` : parent
    const variants = [joined.replace(/\/[^/]+\?/g, ''), joined.replace(/\?/g, '')].map((variant) => variant.replace(/:[^/]+/g, '42').replace(/\*$/, 'a/b%20c') || '/')
    return [...new Set(variants)].flatMap((variant) => [variant, ...pathnamesOf((route.children ?? []) as Route[], variant === '/' ? '' : variant)])
  })
}

const UNKNOWN = ['/nao-existe', '/consultas/agendar', '/consultas/agendar/', '/CONSULTAS', '/produto/%C3%A9', '//dashboard', '/dashboard?x=1#y', '']

describe('rememberingMatchRoutes', () => {
  test('answers as the library does for every route of the app, its parent paths and unknown paths, from the tree it is given', () => {
    const matchRoutes = rememberingMatchRoutes(libraryMatchRoutes)
    const pathnames = [...new Set([...pathnamesOf(appTree()), ...UNKNOWN])]
    expect(pathnames.length).toBeGreaterThan(90)
    // Three rounds, each on a new and equal tree: the first asks the library, the others remember.
    for (let round = 0; round < 3; round += 1) {
      const tree = appTree()
      for (const pathname of pathnames) {
        const expected = libraryMatchRoutes(tree, pathname)
        const answer = matchRoutes(tree, pathname)
        expect(answer, pathname).toEqual(expected)
        // The same route objects as the library's answer: this call's tree, not a remembered one.
        answer?.forEach((match, index) => expect(match.route).toBe(expected![index]!.route))
      }
    }
  })

  test('a location object and a basename are part of the question', () => {
    const matchRoutes = rememberingMatchRoutes(libraryMatchRoutes)
    const tree = appTree()
    expect(matchRoutes(tree, { pathname: '/produto/7' })).toEqual(libraryMatchRoutes(tree, '/produto/7'))
    expect(matchRoutes(tree, '/app/produto/7', '/app')).toEqual(libraryMatchRoutes(tree, '/app/produto/7', '/app'))
    expect(matchRoutes(tree, '/produto/7', '/app')).toBeNull()
  })

  test('trees of another shape get their own answers', () => {
    const matchRoutes = rememberingMatchRoutes(libraryMatchRoutes)
    const withParam: Route[] = [{ id: 'root', path: '', children: [{ id: 'item', path: 'itens/:id' }] }]
    const withNew: Route[] = [{ id: 'root', path: '', children: [{ id: 'item', path: 'itens/:id' }, { id: 'new', path: 'itens/novo' }] }]
    const caseSensitive: Route[] = [{ id: 'root', path: '', children: [{ id: 'item', path: 'Itens/:id', caseSensitive: true }] }]
    expect(matchRoutes(withParam, '/itens/novo')?.at(-1)?.route.id).toBe('item')
    expect(matchRoutes(withNew, '/itens/novo')?.at(-1)?.route.id).toBe('new')
    expect(matchRoutes(caseSensitive, '/itens/novo')).toBeNull()
    expect(matchRoutes(withParam, '/itens/novo')?.at(-1)?.params).toEqual({ id: 'novo' })
  })

  test('every match shares one params object, and changing an answer does not change the next', () => {
    const matchRoutes = rememberingMatchRoutes(libraryMatchRoutes)
    const tree = appTree()
    matchRoutes(tree, '/consultas/agendar/2')
    const first = matchRoutes(tree, '/consultas/agendar/2')!
    expect(new Set(first.map((match) => match.params)).size).toBe(1)
    ;(first[0]!.params as Record<string, string>).professionalId = 'changed'
    expect(matchRoutes(tree, '/consultas/agendar/2')!.at(-1)!.params).toEqual({ professionalId: '2' })
  })

  test('remembers a bounded number of pathnames, the least recently asked forgotten first', () => {
    const library = vi.fn(libraryMatchRoutes)
    const matchRoutes = rememberingMatchRoutes(library as typeof libraryMatchRoutes)
    const tree = appTree()
    matchRoutes(tree, '/produto/1')
    matchRoutes(tree, '/produto/1')
    expect(library).toHaveBeenCalledTimes(1)
    matchRoutes(tree, '/aula/1')
    for (let id = 0; id < REMEMBERED_PATHNAMES - 1; id += 1) {
      matchRoutes(tree, `/produto/x${id}`)
      // Asked again and again: stays while the others come and go.
      if (id % 100 === 0) matchRoutes(tree, '/produto/1')
    }
    library.mockClear()
    matchRoutes(tree, '/produto/1')
    expect(library).not.toHaveBeenCalled()
    matchRoutes(tree, '/aula/1')
    expect(library).toHaveBeenCalledTimes(1)
  })

  test('rememberRouteMatches puts it in place of the export that Remix reads, once', () => {
    try {
      rememberRouteMatches()
      const installed = router.matchRoutes
      expect(installed).not.toBe(libraryMatchRoutes)
      rememberRouteMatches()
      expect(router.matchRoutes).toBe(installed)
      const tree = appTree()
      expect(router.matchRoutes(tree, '/dashboard')).toEqual(libraryMatchRoutes(tree, '/dashboard'))
    } finally {
      router.matchRoutes = libraryMatchRoutes
    }
  })
})
