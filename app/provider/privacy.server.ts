import { type Language } from '#app/i18n/config.ts'
import { type SignedInCaller } from './fetch.server.ts'
import {
  type ConsentDocument,
  consentRecordSchema,
  consentsSchema,
  deletionAnswerSchema,
  deletionPlanSchema,
  resultViewersSchema,
} from './privacy-schemas.ts'

/** The privacy area (docs/decisions/0060-lgpd-self-service.md): every call is the signed-in user's own. */

/** Each document's current state and the newest records (a page of 20). */
export const getConsents = (auth: SignedInCaller) => auth.call('/users/me/consents/', consentsSchema)

type ConsentChange = {
  document: ConsentDocument
  /** The version of the document the page shows. */
  version: string
  granted: boolean
  source: 'settings' | 'cookie-banner'
  categories?: { preferences: boolean; analytics: boolean; marketing: boolean }
}

/** Appends a record: 409 `withdraw_requires_deletion` for the terms or the privacy policy withdrawn. */
export const recordConsent = (auth: SignedInCaller, change: ConsentChange, signal?: AbortSignal) =>
  auth.call('/users/me/consents/', consentRecordSchema, { method: 'POST', json: change, signal })

/** Every professional who can see the user's results: shared results, and the care link a booking made. */
export const listResultViewers = (auth: SignedInCaller) => auth.call('/users/me/shares/', resultViewersSchema)

/** Stops one professional seeing the user's results (their shares and the care link); 404 when there was nothing. */
export const revokeResultViewer = (auth: SignedInCaller, professionalId: number) => auth.send(`/users/me/shares/${professionalId}/`, { method: 'DELETE' })

/** What deleting the account removes now, cancels, and keeps until when. */
export const getDeletionPlan = (auth: SignedInCaller) => auth.call('/users/me/deletion/', deletionPlanSchema)

/** Deletes the account: 400 on `password` or `confirm`; the account is closed once this answers. */
export const deleteAccount = (auth: SignedInCaller, { password, confirm }: { password?: string; confirm: boolean }) =>
  auth.call('/users/me/deletion/', deletionAnswerSchema, { method: 'POST', json: { confirm, ...(password ? { password } : {}) } })

/** The data export's ZIP, streamed as the provider writes it; LEIA-ME in `language`. */
export const exportData = (auth: SignedInCaller, language: Language) => auth.stream('/users/me/export/', { query: { lang: language } })
