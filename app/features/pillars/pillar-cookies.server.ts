import { createCookie } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { type SelectionState, cleanSlugs } from '#app/domain/pillar-selection.ts'
import { type PillarSlug } from '#app/domain/pillars.ts'

const ONE_YEAR = 60 * 60 * 24 * 365
const options = () => ({ path: '/', sameSite: 'lax' as const, httpOnly: true, secure: getEnv().SESSION_COOKIE_SECURE, maxAge: ONE_YEAR })

// docs/product.md §3: the completed pillars are kept as questionnaire_pillars, readable by the server.
let completedCookie: ReturnType<typeof createCookie> | undefined
let selectionCookie: ReturnType<typeof createCookie> | undefined
const completed = () => (completedCookie ??= createCookie('questionnaire_pillars', options()))
const selection = () => (selectionCookie ??= createCookie('innera_pillars', options()))

const storedSelection = z.object({ mode: z.enum(['single', 'multiple']), selected: z.array(z.string()) })

export async function readPillarCookies(request: Request) {
  const header = request.headers.get('Cookie')
  const [rawCompleted, rawSelection] = await Promise.all([completed().parse(header), selection().parse(header)])
  const parsed = storedSelection.safeParse(rawSelection)
  return {
    completed: cleanSlugs(Array.isArray(rawCompleted) ? rawCompleted : []),
    selection: parsed.success ? { mode: parsed.data.mode, selected: cleanSlugs(parsed.data.selected) } : null,
  }
}

export async function pillarCookieHeaders(state: SelectionState): Promise<Headers> {
  const headers = new Headers()
  headers.append('Set-Cookie', await selection().serialize({ mode: state.mode, selected: state.selected }))
  headers.append('Set-Cookie', await completed().serialize(state.completed))
  return headers
}

/** For the assessment: the pillars whose questions were answered. */
export async function completedPillarsHeader(slugs: PillarSlug[]) {
  return completed().serialize(cleanSlugs(slugs))
}
