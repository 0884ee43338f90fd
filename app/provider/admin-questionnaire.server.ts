import { type SignedInCaller } from './fetch.server.ts'
import {
  newQuestionnaireDraftSchema,
  publishedQuestionnaireSchema,
  questionnaireDraftSchema,
  questionnaireVersionListSchema,
  questionnaireVersionSchema,
} from './admin-questionnaire-schemas.ts'

/** The question bank's versions in the admin content editor (admins only; decisions 0064 and 0068). */

const path = (version: string) => `/admin/content/questionnaire/${encodeURIComponent(version)}/`

/** Every published version (the current one first) and the drafts of new ones. */
export const listQuestionnaireVersions = (auth: SignedInCaller) => auth.call('/admin/content/questionnaire/', questionnaireVersionListSchema)

/** Starts a new version's draft as a copy of the current version; a taken version string is a 400 on `version`. */
export const startQuestionnaireDraft = (auth: SignedInCaller, version: string) =>
  auth.call('/admin/content/questionnaire/', newQuestionnaireDraftSchema, { method: 'POST', json: { version } })

/** A version: published (read-only) or its draft, with the pillars a question may belong to. */
export const getQuestionnaireVersion = (auth: SignedInCaller, version: string) => auth.call(path(version), questionnaireVersionSchema)

export const saveQuestionnaireDraft = (auth: SignedInCaller, version: string, body: unknown) =>
  auth.call(`${path(version)}draft/`, questionnaireDraftSchema, { method: 'PUT', json: body })

export const discardQuestionnaireDraft = (auth: SignedInCaller, version: string) => auth.send(`${path(version)}draft/`, { method: 'DELETE' })

/** Publishes the draft as the new current version (the draft saved first; missing languages refused on their fields). */
export const publishQuestionnaireVersion = (auth: SignedInCaller, version: string, body: unknown) =>
  auth.call(`${path(version)}publish/`, publishedQuestionnaireSchema, { method: 'POST', json: body })
