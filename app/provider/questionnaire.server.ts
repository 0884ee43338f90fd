import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { ProviderError } from './errors.ts'
import { providerJson, type SignedInCaller } from './fetch.server.ts'
import { type Definition, definitionSchema, pageOf, resultSchema, resultSummarySchema, shareListSchema, sharedResultSchema, trendsSchema } from './questionnaire-schemas.ts'

// Built once (not per call: zod compiles each schema it builds).
const resultSummaryPage = pageOf(resultSummarySchema)
const sharedResultPage = pageOf(sharedResultSchema)

/** How long a read definition is used without asking again; a stale one still serves while the provider is unreachable. */
const DEFINITION_FRESH_MS = 5 * 60_000

let cachedDefinition: { definition: Definition; readAt: number } | undefined

/**
 * docs/product.md §7's "get": the questionnaire definition (the current version). It is the same for every
 * patient and versioned, so each process keeps the last one it read: a patient in the middle of
 * the assessment keeps their page (and their answers) when the provider stops answering.
 */
export async function getDefinition(): Promise<Definition> {
  const cached = cachedDefinition
  if (cached && Date.now() - cached.readAt < DEFINITION_FRESH_MS) return cached.definition
  try {
    const definition = await providerJson('/questionnaire/get/', definitionSchema)
    cachedDefinition = { definition, readAt: Date.now() }
    return definition
  } catch (error) {
    if (cached && error instanceof ProviderError && (error.isNetwork || (error.status ?? 0) >= 500)) return cached.definition
    throw error
  }
}

/** For tests: the next getDefinition() asks the provider. */
export function forgetDefinition() {
  cachedDefinition = undefined
}

export const submitAnswers = (auth: SignedInCaller, version: string, answers: Record<string, number>) =>
  auth.call('/questionnaire/submit/', resultSchema, { method: 'POST', json: { version, answers } })

/** A page of the patient's results, newest first (`page` a number or 'last'). */
export const listResults = (auth: SignedInCaller, page: number | 'last', pageSize: number) =>
  auth.call('/questionnaire/results/', resultSummaryPage, { query: { page: page === 1 ? undefined : page, page_size: pageSize } })

/** The patient's newest result, or null before the first one (the provider's 404). */
export async function getLatestResult(auth: SignedInCaller) {
  try {
    return await auth.call('/questionnaire/latest/', resultSchema)
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null
    throw error
  }
}

export const getTrends = (auth: SignedInCaller) => auth.call('/questionnaire/trends/', trendsSchema)

export const getResult = (auth: SignedInCaller, id: number) => auth.call(`/questionnaire/${id}/`, resultSchema)

export const listShares = (auth: SignedInCaller, questionnaire: number) =>
  auth.call('/questionnaire/share/professionals/', shareListSchema, { query: { questionnaire } })

export const shareResult = (auth: SignedInCaller, questionnaire: number, professionals: number[]) =>
  auth.call('/questionnaire/share/', shareListSchema, { method: 'POST', json: { questionnaire, professionals } })

export const removeShare = (auth: SignedInCaller, questionnaire: number, professional: number) =>
  auth.call('/questionnaire/share/remove/', shareListSchema, { method: 'POST', json: { questionnaire, professional } })

/** A page of the results shared with the professional, newest submission first. */
export const listSharedWithMe = (auth: SignedInCaller, page: number | 'last', pageSize: number) =>
  auth.call('/questionnaire/shared-with-me/', sharedResultPage, { query: { page: page === 1 ? undefined : page, page_size: pageSize } })

/** The user's language, as the questionnaire texts are keyed. */
export { languageOf } from '#app/i18n/i18next.server.ts'

/** A submission date as the user reads it, in their own time zone (decision 0077). */
export function formatWhen(iso: string, language: Language, timeZone: string) {
  return formatDateAndTime(iso, timeZone, language, { dateStyle: 'medium' })
}

/** Pillar slug → name in the user's language, from the questionnaire definition. */
export const pillarNames = (definition: Definition, language: Language) =>
  Object.fromEntries(definition.pillars.map((pillar) => [pillar.slug, pillar.name[language]] as const))
