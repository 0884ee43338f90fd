import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { z } from 'zod'
import { clockTime, courseStage, resumeFragment } from '#app/domain/courses.ts'
import { formatMoney } from '#app/domain/money.ts'
import { type PillarSlug, isPillarSlug } from '#app/domain/pillars.ts'
import { type Language, languageTags, supportedLanguages } from '#app/i18n/config.ts'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type Course, type CoursePillar, type Lesson, type LessonDetail } from '#app/provider/course-schemas.ts'
import { completeLesson, listCourses, reportLessonProgress } from '#app/provider/courses.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { type Pillar } from '#app/provider/schemas.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { mediaUrl, playableMediaUrl, signedMediaUrl } from '#app/utils/media.ts'
import { failureInit, failureText } from '#app/utils/messages.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/**
 * Courses and lessons (decision 0057, "App"): the list's query, what the pages show of the
 * provider's answers (texts in the page's language, prices and lengths worded, media on this
 * site's /media/), "mark as done" and the player's progress reports.
 */

// ——— the list's query ———

/** `?pilar=`: a pillar's slug, or nothing (an unknown one is no filter, with no error). */
export function readCourseQuery(url: URL): { pilar: PillarSlug | '' } {
  const pilar = url.searchParams.get('pilar')
  return { pilar: isPillarSlug(pilar) ? pilar : '' }
}

/** The courses of a pillar, or all; a pillar the provider does not know (400) shows them all. */
export async function coursesFor(auth: SignedInCaller, pillar: PillarSlug | '') {
  if (!pillar) return { filtered: false, page: await listCourses(auth) }
  try {
    return { filtered: true, page: await listCourses(auth, { pillar }) }
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status !== 400) throw error
    return { filtered: false, page: await listCourses(auth) }
  }
}

// ——— views ———

type PillarNames = Record<string, string>

export const coursePillarNames = (pillars: readonly CoursePillar[], language: Language): PillarNames =>
  Object.fromEntries(pillars.map((item) => [item.pillar, item.name[language]]))

export const pillarNamesOf = (pillars: readonly Pillar[], language: Language): PillarNames =>
  Object.fromEntries(pillars.map((item) => [item.slug, item.name[language] ?? item.name.en]))

/** A course as its card and its page show it. */
export function courseView(course: Course, { language, pillarNames, mediaBase = getEnv().MEDIA_BASE_URL }: { language: Language; pillarNames: PillarNames; mediaBase?: string }) {
  return {
    id: course.id,
    title: course.title[language],
    description: course.description[language],
    pillar: { slug: course.pillar, name: pillarNames[course.pillar] ?? course.pillar },
    poster: mediaUrl(course.poster_url, mediaBase),
    lessons: course.lessons_count,
    duration: clockTime(course.duration_seconds),
    /** Null when the course is free. */
    price: course.product ? formatMoney(course.product.price_cents, language) : null,
    productId: course.product?.id ?? null,
    /** How the user has it; null when it is locked. */
    access: course.access,
    progress: { done: course.progress.completed_lessons, total: course.progress.total_lessons, percent: Math.round(course.progress.percent) },
    stage: courseStage(course.progress),
    nextLessonId: course.progress.next_lesson_id,
  }
}
export type CourseView = ReturnType<typeof courseView>

/** One line of a course's lesson list. */
export function lessonView(lesson: Lesson, course: Course, language: Language) {
  return {
    id: lesson.id,
    number: lesson.number,
    title: lesson.title[language],
    summary: lesson.summary[language],
    duration: clockTime(lesson.duration_seconds),
    done: lesson.progress.completed,
    locked: lesson.locked,
    /** A free lesson of a paid course: a preview anyone signed in may watch. */
    preview: lesson.free && course.product !== null,
  }
}

/** Captions in the order pt, en, es, each named in its own language. */
function captionsView(captions: LessonDetail['captions'], language: Language, t: TFunction, mediaBase: string | undefined) {
  return supportedLanguages.flatMap((lang) => {
    const caption = captions.find((item) => item.lang === lang)
    const src = caption ? signedMediaUrl(caption.url, mediaBase) : null
    return src ? [{ lang, src, label: t(`common:language.${lang}`), default: lang === language }] : []
  })
}

/** A file's size as a reader says it: "1,2 MB". */
function sizeText(bytes: number, language: Language) {
  const megabytes = bytes / 1_000_000
  const format = new Intl.NumberFormat(languageTags[language], { maximumFractionDigits: megabytes < 10 ? 1 : 0 })
  return megabytes >= 0.1 ? `${format.format(megabytes)} MB` : `${format.format(Math.max(1, Math.round(bytes / 1000)))} kB`
}

/**
 * The lesson page: the video (its signed URL on this site, or on MEDIA_BASE_URL when the provider
 * signed it there; opened at the resume point), captions, transcript, or, locked, only what it is
 * and how to get it.
 */
export function lessonPageView(lesson: LessonDetail, { language, t, mediaBase = getEnv().MEDIA_BASE_URL }: { language: Language; t: TFunction; mediaBase?: string }) {
  const file = lesson.video ? playableMediaUrl(lesson.video.url, mediaBase) : null
  const video =
    lesson.video && file
      ? {
          src: `${file}${resumeFragment(lesson.progress, lesson.duration_seconds)}`,
          file,
          type: lesson.video.type || 'video/mp4',
          size: sizeText(lesson.video.bytes, language),
          poster: mediaUrl(lesson.poster_url ?? lesson.course.poster_url, mediaBase),
          captions: captionsView(lesson.captions, language, t, mediaBase),
        }
      : null
  return {
    id: lesson.id,
    number: lesson.number,
    total: lesson.course.lessons_count,
    title: lesson.title[language],
    summary: lesson.summary[language],
    duration: clockTime(lesson.duration_seconds),
    course: { id: lesson.course.id, title: lesson.course.title[language] },
    completed: lesson.progress.completed,
    position: lesson.progress.completed ? 0 : Math.floor(lesson.progress.position_seconds),
    previousId: lesson.previous_id,
    nextId: lesson.next_id,
    /** Null when locked, or (not expected) when its URL is not one this site serves. */
    video,
    transcript: lesson.transcript.map((cue) => ({ at: clockTime(cue.start), start: cue.start, text: cue.text })),
    /** Locked: no video is given; how to get it instead. */
    lock:
      lesson.video === null
        ? { productId: lesson.lock?.product_id ?? lesson.course.product?.id ?? null, price: lesson.course.product ? formatMoney(lesson.course.product.price_cents, language) : null }
        : null,
  }
}
export type LessonPageView = ReturnType<typeof lessonPageView>

// ——— "mark as done" ———

/** The lesson page's form: done, back to the page with a toast; a refusal or failure keeps the page and says why. */
export async function completeAction(request: Request, auth: SignedInCaller, id: number) {
  const form = await readFormData(request)
  if (form.get('intent') !== 'complete') throw data({ reason: 'invalid' }, { status: 400 })
  try {
    await completeLesson(auth, id)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const t = await getFixedT(request, ['courses', 'common'])
    const message = error.status === 403 ? t('courses:lesson.lockedError') : failureText(t, error)
    return data({ error: message }, failureInit(error))
  }
  return redirectWithToast(`/aula/${id}`, { type: 'success', message: { key: 'courses:toast.completed' } })
}

// ——— the player's reports ———

const PRIVATE = { 'Cache-Control': 'private, no-store' }
/** A lesson longer than this does not exist; a position past it is not one. */
const MAX_POSITION_SECONDS = 24 * 3600

/** A number of seconds as a form or JSON gives it: digits with an optional fraction, nothing else (not "", not "1e3"). */
const secondsField = (max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,6}(\.\d{1,6})?$/).transform(Number)])
    .pipe(z.number().finite().min(0).max(max))

const reportSchema = z.object({ position_seconds: secondsField(MAX_POSITION_SECONDS), watched_seconds: secondsField(60) })

/** The report as the script sends it (a form, which a beacon can carry) or as JSON; anything else is null. */
async function readReport(request: Request) {
  try {
    const body: unknown = request.headers.get('Content-Type')?.startsWith('application/json') ? await request.json() : Object.fromEntries(await readFormData(request))
    const parsed = reportSchema.safeParse(body)
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/**
 * `POST /aula/{id}/progresso` (the player's script, or its beacon when the page goes): the numbers
 * passed on to the provider as they came, its answer as JSON `{progress}`. Refusals keep their
 * status (400, 403 locked, 404, 429 throttled with Retry-After) with no message: nobody reads it.
 */
export async function progressAction(request: Request, id: number) {
  const auth = await getAuth(request)
  if (!auth.isSignedIn) return Response.json({ error: 'unauthorized' }, { status: 401, headers: PRIVATE })
  const report = await readReport(request)
  if (!report) return Response.json({ error: 'invalid' }, { status: 400, headers: PRIVATE })
  try {
    const progress = await reportLessonProgress(auth, id, report)
    return Response.json({ progress }, { headers: PRIVATE })
  } catch (error) {
    // The session could not be renewed (the redirect to sign in): the script stops reporting.
    if (error instanceof Response) return Response.json({ error: 'unauthorized' }, { status: 401, headers: PRIVATE })
    if (!(error instanceof ProviderError)) throw error
    if (error.failure.kind === 'network') return Response.json({ error: 'network' }, { status: 503, headers: PRIVATE })
    const { status, retryAfterSeconds } = error.failure
    if (status === 429) return Response.json({ error: 'throttled' }, { status, headers: { ...PRIVATE, 'Retry-After': String(retryAfterSeconds ?? 3) } })
    return Response.json({ error: error.code ?? 'refused' }, { status: status >= 500 ? 502 : status, headers: PRIVATE })
  }
}
