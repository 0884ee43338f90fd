import { data, redirect } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { consultationWindow, formatDate, formatDateTime, formatTime, localDate, timeZoneName } from '#app/domain/appointments.ts'
import { type PillarSlug, isPillarSlug } from '#app/domain/pillars.ts'
import { getEnv } from '#app/env.server.ts'
import { formActionAllows, formActionOriginsOf } from '#app/http/security.server.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { type LiveClass } from '#app/provider/class-schemas.ts'
import { joinLiveClass, listLiveClasses, reserveLiveClass } from '#app/provider/classes.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type Role } from '#app/session/roles.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { mediaUrl } from '#app/utils/media.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { pageParam } from '#app/utils/pagination.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * Live classes (decision 0058, the app's pages): the list's query, what the pages show of the
 * provider's sessions (texts in the page's language, times in the user's zone), and the class
 * page's actions (take a seat, open the room) with the provider's refusals worded.
 */

/** Classes per page of the list: a few weeks of the weekly classes. */
export const CLASSES_PAGE_SIZE = 20

// ——— the list's query ———

/** `?pilar=` (a pillar's slug, or nothing: an unknown one is no filter) and `?page=`. */
export function readClassQuery(url: URL): { pilar: PillarSlug | ''; page: number } {
  const pilar = url.searchParams.get('pilar')
  return { pilar: isPillarSlug(pilar) ? pilar : '', page: pageParam(url) }
}

/** A page of the upcoming classes of a pillar, or all; a pillar the provider does not know (400) shows them all. */
export async function classesFor(auth: SignedInCaller, { pilar, page }: { pilar: PillarSlug | ''; page: number }) {
  const pageOf = (pillar?: PillarSlug) => listLiveClasses(auth, { pillar, page, pageSize: CLASSES_PAGE_SIZE })
  if (!pilar) return { filtered: false, page: await pageOf() }
  try {
    return { filtered: true, page: await pageOf(pilar) }
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status !== 400) throw error
    return { filtered: false, page: await pageOf() }
  }
}

// ——— views ———

type ViewContext = { language: Language; timeZone: string; pillarNames: Record<string, string>; now: Date }

/** "ter., 2 de dez., 19:00 – 19:50" in the user's zone. */
export function classTime(cls: Pick<LiveClass, 'starts_at' | 'ends_at'>, timeZone: string, language: Language): string {
  return `${formatDate(localDate(cls.starts_at, timeZone), language, 'short')}, ${formatTime(cls.starts_at, timeZone, language)} – ${formatTime(cls.ends_at, timeZone, language)}`
}

/** A class as its card and its page show it. */
export function liveClassView(cls: LiveClass, { language, timeZone, pillarNames, now }: ViewContext) {
  const window = consultationWindow({ start: cls.starts_at, end: cls.ends_at }, now)
  return {
    id: cls.id,
    title: cls.title[language],
    description: cls.description[language],
    pillar: { slug: cls.pillar, name: pillarNames[cls.pillar] ?? cls.pillar },
    teacher: { id: cls.teacher.id, name: `${cls.teacher.first_name} ${cls.teacher.last_name}`.trim(), profession: cls.teacher.profession, photo: mediaUrl(cls.teacher.photo) },
    /** The local date it starts on (the list's day). */
    day: localDate(cls.starts_at, timeZone),
    when: classTime(cls, timeZone, language),
    whenLong: formatDateTime(cls.starts_at, timeZone, language),
    ends: formatTime(cls.ends_at, timeZone, language),
    zone: timeZoneName(timeZone, language, cls.starts_at),
    minutes: cls.duration_minutes,
    seatsLeft: cls.seats_left,
    access: cls.access,
    reserved: cls.reserved,
    locked: cls.locked,
    cancelled: cls.cancelled,
    canJoinNow: cls.can_join_now,
    /** Before, open or ended by the clock (the provider's can_join_now decides the button). */
    state: cls.cancelled ? ('cancelled' as const) : window.state,
    opensAt: formatTime(cls.join_opens_at, timeZone, language),
    opensInMs: window.state === 'before' ? Math.max(0, Date.parse(cls.join_opens_at) - now.getTime()) : null,
  }
}
export type LiveClassView = ReturnType<typeof liveClassView>

/** The classes by the day they fall on in the user's zone, in order, each day named ("terça-feira, 2 de dezembro de 2026"). */
export function groupByDay(classes: readonly LiveClassView[], language: Language) {
  const days = [...new Set(classes.map((cls) => cls.day))]
  return days.map((day) => ({ day, title: formatDate(day, language, 'long'), classes: classes.filter((cls) => cls.day === day) }))
}

/** What the class page offers the user, by role and the class's state. */
export function classActions(view: LiveClassView, { role, userId }: { role: Role; userId: number }) {
  const open = view.state !== 'ended' && view.state !== 'cancelled'
  const teacher = view.teacher.id === userId
  return {
    // Inside the window joining takes the seat too: one button, not two.
    reserve: role === 'paciente' && open && !view.locked && !view.reserved && view.seatsLeft > 0 && !view.canJoinNow,
    /** A patient with access and no seat, none left. */
    fullNote: role === 'paciente' && open && !view.locked && !view.reserved && view.seatsLeft === 0,
    join: view.canJoinNow && !teacher && (role === 'paciente' || role === 'admin'),
    host: view.canJoinNow && teacher,
    /** "The room opens at …": to whoever may enter it, before the window. */
    opensNote: view.state === 'before' && !view.locked && (view.reserved || teacher || role === 'admin'),
  }
}

// ——— the class page's actions ———

const INTENTS = ['reserve', 'join', 'host'] as const
type Intent = (typeof INTENTS)[number]
const isIntent = (value: unknown): value is Intent => INTENTS.includes(value as Intent)

/** The provider's refusal in the user's words (docs/product.md §8: the live classes' codes). */
function refusalText(error: ProviderError, t: TFunction, { language, timeZone }: { language: Language; timeZone: string }) {
  const code = error.code
  if (code === 'not_open_yet') {
    // `opens_at` beside the code (read with the error's fields).
    const opens = error.failure.kind === 'http' ? error.failure.fieldErrors?.opens_at?.[0] : undefined
    return opens && !Number.isNaN(Date.parse(opens)) ? t('classes:errors.notOpenYetAt', { time: formatTime(opens, timeZone, language) }) : t('classes:errors.notOpenYet')
  }
  const keys: Record<string, string> = {
    ended: 'classes:errors.ended',
    cancelled: 'classes:errors.cancelled',
    full: 'classes:errors.full',
    locked: 'classes:errors.locked',
    patients_only: 'classes:errors.patientsOnly',
    meeting_unavailable: 'classes:errors.meetingUnavailable',
  }
  if (code && keys[code]) return t(keys[code])
  if (error.status === 503) return t('classes:errors.meetingUnavailable')
  return failureText(t, error)
}

/**
 * `intent=reserve` takes a seat (back to the page with a toast); `join` and `host` ask for the
 * meeting's link and go there (a redirect after a post, which the CSP's form-action allows for the
 * payment pages' and Zoom's origins), or, for a link elsewhere, answer it for the page to show as
 * "Abrir a sala da aula". A refusal re-renders the page with its reason.
 */
export async function liveClassAction(request: Request, auth: SignedInCaller, { id, timeZone }: { id: number; timeZone: string }) {
  const form = await readFormData(request)
  const intent = form.get('intent')
  if (!isIntent(intent)) throw data({ reason: 'invalid' }, { status: 400 })
  try {
    if (intent === 'reserve') {
      await reserveLiveClass(auth, id)
      return redirectWithToast(`/aulas-ao-vivo/${id}`, { type: 'success', message: { key: 'classes:toast.reserved' } })
    }
    const answer = await joinLiveClass(auth, id)
    const url = intent === 'host' ? (answer.start_url ?? answer.join_url) : answer.join_url
    if (formActionAllows(url, formActionOriginsOf(getEnv()))) return redirect(url, { status: 303, headers: { 'Cache-Control': 'private, no-store' } })
    // Elsewhere: a plain link on the page, which always works; never a link that is not the web's.
    if (!/^https?:\/\//i.test(url)) throw new ProviderError({ kind: 'http', status: 502 })
    return data({ error: null, room: { url, host: intent === 'host' } }, { headers: { 'Cache-Control': 'private, no-store' } })
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const [t, language] = await Promise.all([getFixedT(request, ['classes', 'common']), languageOf(request)])
    return data({ error: refusalText(error, t, { language, timeZone }), room: null }, failureInit(error))
  }
}
