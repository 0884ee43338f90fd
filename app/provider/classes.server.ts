import { type PillarSlug } from '#app/domain/pillars.ts'
import { type Language } from '#app/i18n/config.ts'
import { joinAnswerSchema, liveClassPageSchema, liveClassSchema } from './class-schemas.ts'
import { type SignedInCaller } from './fetch.server.ts'

/** Live classes (docs/decisions/0058-live-classes.md): every call is the signed-in user's. */

/** Upcoming classes (not ended, not cancelled), soonest first, a DRF page; of one pillar or all. */
export const listLiveClasses = (auth: SignedInCaller, { pillar, page, pageSize }: { pillar?: PillarSlug; page?: number; pageSize?: number } = {}) =>
  auth.call('/products/zoom/sessions/', liveClassPageSchema, { query: { pillar, page: page && page > 1 ? page : undefined, page_size: pageSize } })

/** The caller's reserved classes not ended, soonest first ("my next classes"). */
export const listMyLiveClasses = (auth: SignedInCaller) => auth.call('/products/sessions/upcoming/', liveClassPageSchema)

export const getLiveClass = (auth: SignedInCaller, id: number) => auth.call(`/products/zoom/sessions/${id}/`, liveClassSchema)

/** Takes the caller's seat (201, or 200 when they had it): 409 full/ended/cancelled, 403 locked/patients_only. */
export const reserveLiveClass = (auth: SignedInCaller, id: number) => auth.call('/products/sessions/join/', liveClassSchema, { method: 'POST', json: { session_id: id } })

/** The meeting's link inside the window: 409 not_open_yet/ended/full, 403 locked, 503 meeting_unavailable. */
export const joinLiveClass = (auth: SignedInCaller, id: number) => auth.call(`/products/zoom/join-class/${id}/`, joinAnswerSchema, { method: 'POST' })

/** The class's iCalendar file, its texts in `language`. */
export const liveClassCalendar = (auth: SignedInCaller, id: number, language: Language) => auth.file(`/products/zoom/sessions/${id}/ics/`, { query: { lang: language } })
