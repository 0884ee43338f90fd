import { z } from 'zod'
import { authenticateWithRole } from '#server/auth/authenticate.ts'
import {
  adminCourses,
  courseBySlug,
  courseChoices,
  courseDraftSchema,
  courseLessonsForAdmin,
  COURSE_SLUG_MAX,
  type CourseDraft,
  createFlagSchema,
  discardWithAudit,
  isContentSlug,
  lessonBySlug,
  lessonDraftSchema,
  lessonsOfCourse,
  mediaVideos,
  NO_SUCH_COURSE,
  NO_SUCH_VIDEO,
  LESSON_SLUG_MAX,
  type LessonDraft,
  publishCourse,
  publishLesson,
  serializeAdminCourse,
  serializeAdminLesson,
  serializeDraft,
  startDraft,
} from '#server/courses/admin.ts'
import { findLessonsDir } from '#server/courses/seed.ts'
import { listDrafts, readDraft, saveDraft } from '#server/content/drafts.ts'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { fieldError, notFound } from '#server/http/errors.ts'
import { charField, validate } from '#server/http/fields.ts'
import { PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import type { Services } from '#server/services.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const SLUG_SEGMENT = '[a-z0-9]+(?:-[a-z0-9]+)*'

type AdminContentCourseOptions = {
  /** Where the lessons' videos are (server/media/lessons unless told); tests give their own folder. */
  lessonsDir?: string
}

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const courseQuery = z.object({ course: charField({ maxLength: COURSE_SLUG_MAX }) })

/**
 * The admin content editor's courses and lessons (issue 26, decisions 0064 and 0066): drafts,
 * publishing with every language, new courses named by their slug and new lessons by the video
 * they show. Admins only (401 anonymous, 403 anyone else); every answer private, no-store.
 */
export function registerAdminContentCourseRoutes(api: Api, services: Services, options: AdminContentCourseOptions = {}): void {
  const { db, clock } = services
  let lessonsDirectory = options.lessonsDir
  const lessonsDir = () => (lessonsDirectory ??= findLessonsDir())

  const admin = (c: AppContext) => authenticateWithRole(c, services, 'admin')
  /** The path's key, checked against the table's slug rule and length; anything else is a 404. */
  const keyOf = (c: AppContext, max: number) => {
    const key = pathParam(c, 'slug')
    if (!isContentSlug(key, max)) throw notFound()
    return key
  }
  const courseKey = (c: AppContext) => keyOf(c, COURSE_SLUG_MAX)
  const lessonKey = (c: AppContext) => keyOf(c, LESSON_SLUG_MAX)

  api.endpoint('/admin/content/courses/', {
    GET: async (c) => {
      await admin(c)
      const [rows, drafts, choices] = await Promise.all([adminCourses(db), listDrafts<CourseDraft>(db, 'course'), courseChoices(db)])
      const draftOf = new Map(drafts.map((draft) => [draft.key, draft]))
      const slugs = new Set(rows.map((row) => row.course.slug))
      return c.json(
        {
          results: rows.map((row) => ({ ...serializeAdminCourse(row.course, row.lessonsCount), draft: draftOf.has(row.course.slug) ? { updated_at: draftOf.get(row.course.slug)!.updatedAt.toISOString() } : null })),
          new_drafts: drafts.filter((draft) => !slugs.has(draft.key)).map((draft) => ({ key: draft.key, title: draft.body.title, updated_at: draft.updatedAt.toISOString() })),
          choices,
        },
        200,
        PRIVATE,
      )
    },
  })

  api.endpoint(`/admin/content/courses/:slug{${SLUG_SEGMENT}}/`, {
    GET: async (c) => {
      await admin(c)
      const slug = courseKey(c)
      const [row, draft, choices] = await Promise.all([courseBySlug(db, slug), readDraft(db, 'course', slug), courseChoices(db)])
      if (!row && !draft) throw notFound()
      const lessonsCount = row ? await courseLessonsCount(row.id) : 0
      return c.json({ published: row ? serializeAdminCourse(row, lessonsCount) : null, draft: serializeDraft(draft), choices }, 200, PRIVATE)
    },
  })

  const courseLessonsCount = async (courseId: number) => (await lessonsOfCourse(db, courseId)).length

  api.endpoint(`/admin/content/courses/:slug{${SLUG_SEGMENT}}/draft/`, {
    PUT: async (c) => {
      const caller = await admin(c)
      const slug = courseKey(c)
      const fields = await readFields(c.req.raw)
      const body = validate(courseDraftSchema, fields)
      const { create } = validate(createFlagSchema, fields)
      const draft = create ? await startDraft(db, 'course', slug, body, caller.user.id, clock()) : await saveDraft(db, 'course', slug, body, caller.user.id, clock())
      return c.json(serializeDraft(draft), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const caller = await admin(c)
      if (!(await discardWithAudit(db, caller, 'course', courseKey(c), clock()))) throw notFound()
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint(`/admin/content/courses/:slug{${SLUG_SEGMENT}}/publish/`, {
    POST: async (c) => {
      const caller = await admin(c)
      const slug = courseKey(c)
      const fields = await readFields(c.req.raw)
      const body = validate(courseDraftSchema, fields)
      const { create } = validate(createFlagSchema, fields)
      // Saved first, so nothing typed is lost when publishing is refused.
      if (create) await startDraft(db, 'course', slug, body, caller.user.id, clock())
      else await saveDraft(db, 'course', slug, body, caller.user.id, clock())
      const { row, created } = await publishCourse(db, caller, slug, body, { create, now: clock() })
      return c.json(serializeAdminCourse(row, await courseLessonsCount(row.id)), created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/admin/content/lessons/', {
    GET: async (c) => {
      await admin(c)
      const { course: slug } = validate(courseQuery, { course: c.req.query('course') })
      const course = await courseBySlug(db, slug)
      if (!course) throw notFound()
      return c.json(await courseLessonsForAdmin(db, course, lessonsDir()), 200, PRIVATE)
    },
  })

  api.endpoint(`/admin/content/lessons/:slug{${SLUG_SEGMENT}}/`, {
    GET: async (c) => {
      await admin(c)
      const slug = lessonKey(c)
      const [found, draft] = await Promise.all([lessonBySlug(db, slug), readDraft<LessonDraft>(db, 'lesson', slug)])
      if (!found && !draft) throw notFound()
      return c.json({ published: found ? serializeAdminLesson(found.lesson, found.courseSlug) : null, draft: serializeDraft(draft) }, 200, PRIVATE)
    },
  })

  /** A lesson's draft keeps the course it is published in (a lesson does not move between courses). */
  async function lessonFormOf(c: AppContext, slug: string): Promise<{ body: LessonDraft; create: boolean }> {
    const fields = await readFields(c.req.raw)
    const body = validate(lessonDraftSchema, fields)
    const { create } = validate(createFlagSchema, fields)
    const found = await lessonBySlug(db, slug)
    if (found) return { body: { ...body, course: found.courseSlug }, create }
    // A new lesson: its course must exist, and its video be in the media folder.
    if (!(await courseBySlug(db, body.course))) throw fieldError('course', NO_SUCH_COURSE)
    if (create && !(await mediaVideos(lessonsDir())).present.has(slug)) throw fieldError('video', NO_SUCH_VIDEO)
    return { body, create }
  }

  api.endpoint(`/admin/content/lessons/:slug{${SLUG_SEGMENT}}/draft/`, {
    PUT: async (c) => {
      const caller = await admin(c)
      const slug = lessonKey(c)
      const { body, create } = await lessonFormOf(c, slug)
      const draft = create ? await startDraft(db, 'lesson', slug, body, caller.user.id, clock()) : await saveDraft(db, 'lesson', slug, body, caller.user.id, clock())
      return c.json(serializeDraft(draft), 200, PRIVATE)
    },
    DELETE: async (c) => {
      const caller = await admin(c)
      if (!(await discardWithAudit(db, caller, 'lesson', lessonKey(c), clock()))) throw notFound()
      return c.body(null, 204, PRIVATE)
    },
  })

  api.endpoint(`/admin/content/lessons/:slug{${SLUG_SEGMENT}}/publish/`, {
    POST: async (c) => {
      const caller = await admin(c)
      const slug = lessonKey(c)
      const { body, create } = await lessonFormOf(c, slug)
      if (create) await startDraft(db, 'lesson', slug, body, caller.user.id, clock())
      else await saveDraft(db, 'lesson', slug, body, caller.user.id, clock())
      const { row, courseSlug, created } = await publishLesson(db, caller, slug, body, { lessonsDir: lessonsDir(), create, now: clock() })
      return c.json(serializeAdminLesson(row, courseSlug), created ? 201 : 200, PRIVATE)
    },
  })
}
