import { createRequire } from 'node:module'
import type * as RemixRouter from '@remix-run/router'

/**
 * Route matching that remembers its answers (decision 0094). Remix v2 matches a request's path
 * against the whole route tree several times per page (the request handler, the render, and lazy
 * route discovery once per parent path), and each `matchRoutes` call flattens, ranks and compiles
 * all of this app's ~96 routes again: about 2 ms of CPU on the booking page, the largest single cost
 * of a page after the render (docs/benchmarks.md).
 *
 * `matchRoutes` is a pure function of the tree's shape (each route's path, index and caseSensitive
 * flags, and its children), the pathname and the basename. So its answer is kept per shape and
 * pathname, as the positions of the matched routes in the tree, and a later call rebuilds the same
 * matches from the tree it was given (Remix builds a new, equal tree for each render, so matches
 * must point at that call's own route objects). A miss asks the library, as before.
 *
 * It replaces the export that Remix's server runtime, React Router and lazy route discovery call
 * (`require('@remix-run/router').matchRoutes`, read at each call). The static handler's own call
 * uses the library's inner binding and is left as it is.
 */

type Route = RemixRouter.AgnosticRouteObject
type Match = RemixRouter.AgnosticRouteMatch<string, Route>
type MatchRoutes = typeof RemixRouter.matchRoutes
type Remembered = { params: Record<string, string | undefined>; positions: number[][]; pathnames: [string, string][] } | null

/** At most this many pathnames are remembered per tree shape, the least recently asked forgotten first. */
export const REMEMBERED_PATHNAMES = 1000
/** At most this many tree shapes (one in production; the development server's rebuilds add more). */
const REMEMBERED_SHAPES = 4

const shapeOfTree = new WeakMap<readonly Route[], string>()
const answersByShape = new Map<string, Map<string, Remembered>>()

function shapeOf(routes: readonly Route[]): string {
  let shape = shapeOfTree.get(routes)
  if (shape === undefined) {
    shape = routes.map((route) => `${route.path ?? '\u0000'}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}[${route.children ? shapeOf(route.children) : ''}]`).join(',')
    shapeOfTree.set(routes, shape)
  }
  return shape
}

/** Where each route object sits in the tree: the child index at each level. */
function positionsOf(routes: readonly Route[], into = new Map<Route, number[]>(), at: number[] = []) {
  routes.forEach((route, index) => {
    const position = [...at, index]
    into.set(route, position)
    if (route.children) positionsOf(route.children, into, position)
  })
  return into
}

function routeAt(routes: readonly Route[], position: number[]): Route {
  let route = routes[position[0]!]!
  for (let level = 1; level < position.length; level += 1) route = route.children![position[level]!]!
  return route
}

function answersFor(shape: string) {
  let answers = answersByShape.get(shape)
  if (!answers) {
    if (answersByShape.size >= REMEMBERED_SHAPES) answersByShape.delete(answersByShape.keys().next().value!)
    answers = new Map()
    answersByShape.set(shape, answers)
  }
  return answers
}

/** A `matchRoutes` that remembers, around the library's own. */
export function rememberingMatchRoutes(original: MatchRoutes): MatchRoutes {
  function matchRoutes(routes: Route[], locationArg: string | Partial<RemixRouter.Location>, basename = '/'): Match[] | null {
    const pathname = typeof locationArg === 'string' ? locationArg.split(/[?#]/, 1)[0]! : (locationArg.pathname ?? '/')
    const key = `${basename}\u0000${pathname}`
    const answers = answersFor(shapeOf(routes))
    if (answers.has(key)) {
      const remembered = answers.get(key)!
      answers.delete(key)
      answers.set(key, remembered)
      if (remembered === null) return null
      // One params object shared by every match, as the library answers.
      const params = { ...remembered.params }
      return remembered.positions.map((position, index) => ({
        params,
        pathname: remembered.pathnames[index]![0],
        pathnameBase: remembered.pathnames[index]![1],
        route: routeAt(routes, position),
      }))
    }
    const matches = original(routes, locationArg, basename)
    let remembered: Remembered = null
    if (matches) {
      const positions = positionsOf(routes)
      const found = matches.map((match) => positions.get(match.route))
      // A match outside the tree it was given cannot be rebuilt from another tree: not remembered.
      if (found.some((position) => position === undefined)) return matches
      remembered = {
        params: { ...matches[matches.length - 1]?.params },
        positions: found as number[][],
        pathnames: matches.map((match) => [match.pathname, match.pathnameBase]),
      }
    }
    answers.set(key, remembered)
    if (answers.size > REMEMBERED_PATHNAMES) answers.delete(answers.keys().next().value!)
    return matches
  }
  return matchRoutes as MatchRoutes
}

let installed = false
/** Puts the remembering `matchRoutes` in place of the library's export, once per process. */
export function rememberRouteMatches() {
  if (installed) return
  const router = createRequire(import.meta.url)('@remix-run/router') as typeof RemixRouter
  router.matchRoutes = rememberingMatchRoutes(router.matchRoutes)
  installed = true
}
