import { z } from 'zod'
import { authenticate, type Caller } from '#server/auth/authenticate.ts'
import { courseAccess, lessonPlays, type Entitlements } from '#server/courses/access.ts'
import {
  completeLesson,
  entitlementsOf,
  findCourse,
  findLesson,
  lessonsOf,
  listCourses,
  pillarsWithCourses,
  progressOf,
  reportProgress,
  startedCourseIds,
  type CourseView,
  type LessonRow,
} from '#server/courses/repository.ts'
import { LANGUAGES, serializeCourse, serializeLesson, serializeLessonDetail, serializeProgress, type Language, type MediaLinks } from '#server/courses/serializers.ts'
import { MAX_REPORTED_WATCH_MS, REPORT_INTERVAL_MS } from '#server/courses/progress.ts'
import { idParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, fieldError, notFound } from '#server/http/errors.ts'
import { booleanField, choiceField, decimalField, idField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { LESSON_MEDIA_PREFIX, mediaSigningKey, signedLessonMedia } from '#server/media/signed-urls.ts'
import { pillarsInOrder } from '#server/questionnaire/repository.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const courseQuery = z.object({ course: idField() })
const langQuery = z.object({ lang: choiceField(LANGUAGES).optional() })

/**
 * The Videos calls (docs/product.md §7, decision 0057): courses by pillar, a course and its
 * lessons, a lesson's page with signed media addresses when it plays, and progress. Every role
 * signed in; nobody signed in 401.
 */
export function registerCourseRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const key = mediaSigningKey(config.jwtSecret)
  const base = (config.mediaBaseUrl ?? config.providerPublicUrl).replace(/\/$/, '')
  const mediaLinks = (now: number): MediaLinks => ({
    poster: (slug) => `${base}${LESSON_MEDIA_PREFIX}${slug}.jpg`,
    signed: (file) => signedLessonMedia(base, file, key, now),
  })

  /** The courses' answers for a caller: their lessons, the caller's progress in them, and access. */
  async function coursesFor(caller: Caller, views: readonly CourseView[], entitlements: Entitlements, now: number) {
    const lessons = await lessonsOf(
      db,
      views.map((view) => view.course.id),
    )
    const progress = await progressOf(
      db,
      caller.user.id,
      lessons.map((lesson) => lesson.id),
    )
    const media = mediaLinks(now)
    return views.map((view) => {
      const own = lessons.filter((lesson) => lesson.courseId === view.course.id)
      return serializeCourse(view, own, progress, courseAccess({ productId: view.product?.id ?? null }, entitlements), media)
    })
  }

  api.endpoint('/videos/courses/pillars/', {
    GET: async (c) => {
      await authenticate(c, services)
      const rows = await pillarsWithCourses(db)
      return c.json(
        rows.map((row) => ({ pillar: row.slug, pillar_id: row.id, name: row.name, courses_count: row.coursesCount })),
        200,
        PRIVATE,
      )
    },
  })

  const listQuery = z.object({ pillar: z.string().max(50).optional(), mine: booleanField().optional() })

  api.endpoint('/videos/courses/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const query = validate(listQuery, { pillar: c.req.query('pillar') || undefined, mine: c.req.query('mine') || undefined })
      if (query.pillar !== undefined && !(await pillarsInOrder(db)).some((pillar) => pillar.slug === query.pillar)) throw fieldError('pillar', 'Select a valid choice. That choice is not one of the available choices.')
      const [all, entitlements, started] = await Promise.all([
        listCourses(db, { pillarSlug: query.pillar }),
        entitlementsOf(db, caller, now),
        query.mine ? startedCourseIds(db, caller.user.id) : Promise.resolve(new Set<number>()),
      ])
      // "Mine": what the user has by purchase, program or plan (staff: nothing bought), or has started.
      const views = query.mine
        ? all.filter((view) => started.has(view.course.id) || ['owned', 'program', 'subscription'].includes(courseAccess({ productId: view.product?.id ?? null }, entitlements) ?? ''))
        : all
      const page = paginate(c, views.length)
      const shown = views.slice(page.offset, page.offset + page.limit)
      return c.json(page.envelope(await coursesFor(caller, shown, entitlements, now)), 200, PRIVATE)
    },
  })

  api.endpoint('/videos/courses/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const [view, entitlements] = await Promise.all([findCourse(db, idParam(c, 'id')), entitlementsOf(db, caller, now)])
      if (!view) throw notFound()
      const [course] = await coursesFor(caller, [view], entitlements, now)
      return c.json(course, 200, PRIVATE)
    },
  })

  api.endpoint('/videos/lessons/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const { course: courseId } = validate(courseQuery, { course: c.req.query('course') })
      const [view, entitlements] = await Promise.all([findCourse(db, courseId), entitlementsOf(db, caller, clock())])
      if (!view) throw notFound()
      const lessons = await lessonsOf(db, [courseId])
      const progress = await progressOf(
        db,
        caller.user.id,
        lessons.map((lesson) => lesson.id),
      )
      const media = mediaLinks(clock())
      const course = { productId: view.product?.id ?? null }
      return c.json(
        lessons.map((lesson) => serializeLesson(lesson, lessonPlays(lesson, course, entitlements), progress.get(lesson.id), media)),
        200,
        PRIVATE,
      )
    },
  })

  /**
   * The lesson asked for, its course, and whether it plays for the caller; 404 for a lesson of no
   * active course. `withSiblings`: the course's lessons too, read beside the course.
   */
  async function lessonFor(c: AppContext, caller: Caller, now: number, { withSiblings = false } = {}) {
    const lesson = await findLesson(db, idParam(c, 'id'))
    if (!lesson) throw notFound()
    const [view, entitlements, siblings] = await Promise.all([
      findCourse(db, lesson.courseId),
      entitlementsOf(db, caller, now),
      withSiblings ? lessonsOf(db, [lesson.courseId]) : Promise.resolve([]),
    ])
    if (!view) throw notFound()
    return { lesson, view, entitlements, siblings, plays: lessonPlays(lesson, { productId: view.product?.id ?? null }, entitlements) }
  }

  api.endpoint('/videos/lessons/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const query = validate(langQuery, { lang: c.req.query('lang') || undefined })
      const { lesson, view, entitlements, siblings, plays } = await lessonFor(c, caller, now, { withSiblings: true })
      // The caller's progress in the whole course: the course's summary and this lesson's own.
      const progress = await progressOf(
        db,
        caller.user.id,
        siblings.map((sibling) => sibling.id),
      )
      const media = mediaLinks(now)
      const course = serializeCourse(view, siblings, progress, courseAccess({ productId: view.product?.id ?? null }, entitlements), media)
      return c.json(
        serializeLessonDetail(lesson, { course, siblings, plays, progress: progress.get(lesson.id), lang: (query.lang ?? 'pt') as Language, media }),
        200,
        PRIVATE,
      )
    },
  })

  const locked = () => apiError(403, 'This lesson is part of a course you do not have yet.', { code: 'locked' })

  api.endpoint('/videos/lessons/:id{[0-9]+}/progress/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const fields = await readFields(c.req.raw)
      const { lesson, plays } = await lessonFor(c, caller, now)
      const report = validate(reportSchema(lesson), fields)
      if (!plays) throw locked()
      const result = await reportProgress(db, caller.user.id, lesson, { positionMs: report.position_seconds * 1000, watchedMs: report.watched_seconds * 1000 }, now)
      if (result === 'throttled') throw apiError(429, 'Progress was reported a moment ago.', { code: 'throttled' }, { 'Retry-After': String(Math.ceil(REPORT_INTERVAL_MS / 1000)) })
      return c.json(serializeProgress(result), 200, PRIVATE)
    },
  })

  api.endpoint('/videos/lessons/:id{[0-9]+}/complete/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const { lesson, plays } = await lessonFor(c, caller, now)
      if (!plays) throw locked()
      return c.json(serializeProgress(await completeLesson(db, caller.user.id, lesson.id, now)), 200, PRIVATE)
    },
  })
}

/** A report's bounds: a position inside the video, and at most a minute played since the last one. */
const reportSchema = (lesson: Pick<LessonRow, 'durationMs'>) =>
  z.object({
    position_seconds: decimalField({ min: 0, max: lesson.durationMs / 1000 }),
    watched_seconds: decimalField({ min: 0, max: MAX_REPORTED_WATCH_MS / 1000 }),
  })

