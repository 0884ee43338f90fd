import { createCookieSessionStorage } from '@remix-run/node'
import { type Draft, type Step, cleanAnswers, clampStep, emptyDraft } from '#app/domain/assessment-steps.ts'
import { getEnv } from '#app/env.server.ts'
import { providerJson } from '#app/provider/fetch.server.ts'
import { type Definition, definitionSchema } from '#app/provider/questionnaire-schemas.ts'
import { getDefinition } from '#app/provider/questionnaire.server.ts'

// The draft (answers so far, current step) in a signed cookie of its own, so the wizard works without JavaScript.
type DraftData = { draft: Partial<Draft> }
let draftStorage: ReturnType<typeof createCookieSessionStorage<DraftData>> | undefined
export const drafts = () =>
  (draftStorage ??= createCookieSessionStorage<DraftData>({
    cookie: {
      name: 'innera_assessment',
      path: '/', // '/avaliacao' would miss the single-fetch '/avaliacao.data' requests
      httpOnly: true,
      sameSite: 'lax',
      secure: getEnv().SESSION_COOKIE_SECURE,
      secrets: getEnv().SESSION_SECRET,
      maxAge: 60 * 60 * 24 * 7,
    },
  }))

export const stepsOf = (definition: Definition): Step[] => definition.pillars.map((pillar) => ({ slug: pillar.slug, questions: pillar.questions }))

export async function readDraft(request: Request, definition: Definition) {
  const session = await drafts().getSession(request.headers.get('Cookie'))
  const stored = session.get('draft')
  const steps = stepsOf(definition)
  // A draft without a version holds answers kept while the definition could not be read: cleaned below.
  const otherVersion = stored?.version !== undefined && stored.version !== definition.version
  if (!stored || otherVersion || typeof stored.answers !== 'object' || stored.answers === null) {
    return { session, draft: emptyDraft(definition.version) }
  }
  const answers = cleanAnswers(steps, stored.answers, definition.scale)
  return { session, draft: { version: definition.version, answers, step: clampStep(steps, answers, Number(stored.step)) } }
}

/**
 * The definition the patient's assessment goes on with: the current version, or the version an
 * unfinished assessment was started with when a new one has been published since (decision 0068:
 * the provider takes its answers for a while, scored with that version's questions).
 */
export async function definitionForDraft(request: Request): Promise<Definition> {
  const current = await getDefinition()
  const stored = (await drafts().getSession(request.headers.get('Cookie'))).get('draft')
  const started = typeof stored?.answers === 'object' && stored.answers !== null && Object.keys(stored.answers).length > 0
  if (!started || typeof stored?.version !== 'string' || stored.version === current.version) return current
  return providerJson('/questionnaire/get/', definitionSchema, { query: { version: stored.version } }).catch(() => current)
}
