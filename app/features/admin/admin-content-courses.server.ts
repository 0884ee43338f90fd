import { type Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { type z } from 'zod'
import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type AdminCourse, type AdminLesson, type CourseChoices, type CourseDraft, type LessonDraft, type Video } from '#app/provider/admin-content-course-schemas.ts'
import {
  type CourseForm,
  discardCourseDraft,
  discardLessonDraft,
  type LessonForm,
  publishCourse,
  publishLesson,
  saveCourseDraft,
  saveLessonDraft,
} from '#app/provider/admin-content-courses.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { courseContentSchema, lessonContentSchema, newCourseSchema, newLessonSchema } from '#app/forms/admin-content-courses.ts'
import { localizedFieldTargets } from './localized-text.server.ts'
import { MISSING_LANGUAGES_KEY } from '#app/forms/localized-text.ts'
import { type FieldTarget, replyToFailure } from '#app/utils/provider-reply.server.ts'

/**
 * The course and lesson editor pages' actions and views (decisions 0064 and 0066): save a draft,
 * publish (the languages checked here and again at the provider), discard; a refusal comes back
 * with what was typed, and a publish refused for a missing language still keeps it as the draft.
 */

type Localized = { pt: string; en: string; es: string }

/** When a draft was saved, in the reader's language and time zone (decision 0077). */
export const draftDate = (iso: string, language: Language, timeZone: string) => formatDateAndTime(iso, timeZone, language, { dateStyle: 'short' })

/** A text in the reader's language, or the first language that has it (a draft may lack some). */
export const inLanguage = (text: Localized, language: Language) => text[language] || text.pt || text.en || text.es

/** The course form's starting values: the draft when there is one, else the published course. */
export function courseDefaults(published: AdminCourse | null, draft: CourseDraft | null) {
  const source = draft ?? published
  return {
    title: source?.title ?? { pt: '', en: '', es: '' },
    description: source?.description ?? { pt: '', en: '', es: '' },
    pillar: source?.pillar ?? '',
    sort_order: String(source?.sort_order ?? 0),
    active: source ? (source.active ? 'on' : '') : 'on',
    product_id: source?.product_id ? String(source.product_id) : '',
  }
}

/** The lesson form's starting values: the draft when there is one, else the published lesson. */
export function lessonDefaults(published: AdminLesson | null, draft: LessonDraft | null) {
  const source = draft ?? published
  return {
    title: source?.title ?? { pt: '', en: '', es: '' },
    summary: source?.summary ?? { pt: '', en: '', es: '' },
    number: source?.number ? String(source.number) : '',
    free: source?.free ? 'on' : '',
  }
}

type Sent = { name: string; redirectTo: string }

/** The provider's refusals on a field (server/courses/admin.ts), in the reader's language. */
const PROVIDER_MESSAGES: Record<string, string> = {
  'A course with this address already exists: open it from the list.': 'admin-courses:errors.courseExists',
  'This video already belongs to a lesson.': 'admin-courses:errors.lessonExists',
  'This product already sells another course.': 'admin-courses:errors.productTaken',
  'Another lesson of this course has this number.': 'admin-courses:errors.numberTaken',
  'Select a course product of the catalogue.': 'admin-courses:validation.product',
  'Select a valid pillar.': 'admin-courses:validation.pillar',
  'This course does not exist.': 'admin-courses:errors.noCourse',
  'This video is not in the media folder.': 'admin-courses:errors.noVideo',
}
const fieldTargets = (names: readonly string[]): Record<string, FieldTarget> =>
  Object.fromEntries(names.map((name) => [name, { field: name, messages: (provided: string[]) => provided.map((message) => PROVIDER_MESSAGES[message] ?? message) }]))

/**
 * One content form's submission: discard, save or publish. A publish refused here (a missing
 * language, a publish-only field) is saved as the draft all the same, so nothing typed is lost.
 */
async function contentAction<Schema extends z.ZodType<{ intent: 'save' | 'publish' }>>(
  request: Request,
  {
    schema,
    send,
    discard,
    texts,
    fields,
  }: {
    schema: Schema
    send: (value: z.output<Schema>, intent: 'save' | 'publish') => Promise<Sent>
    discard?: () => Promise<Sent>
    texts: string[]
    fields: string[]
  },
) {
  const formData = await readFormData(request)
  if (formData.get('intent') === 'discard' && discard) {
    const sent = await discard()
    return redirectWithToast(sent.redirectTo, { type: 'success', message: { key: 'admin:content.draftDiscarded', values: { name: sent.name } } })
  }
  const submission = parseWithZod(formData, { schema }) as Submission<unknown, string[], z.output<Schema>>
  if (submission.status !== 'success') {
    if (formData.get('intent') === 'publish') {
      const asDraft = new FormData()
      for (const [name, value] of formData) if (name !== 'intent') asDraft.append(name, value)
      asDraft.set('intent', 'save')
      const draft = parseWithZod(asDraft, { schema }) as Submission<unknown, string[], z.output<Schema>>
      if (draft.status === 'success') await send(draft.value, 'save').catch((error: unknown) => (error instanceof ProviderError ? undefined : Promise.reject(error)))
    }
    return data({ result: submission.reply() }, { status: 400 })
  }
  const intent = submission.value.intent
  let sent: Sent
  try {
    sent = await send(submission.value, intent)
  } catch (error) {
    const t = await getFixedT(request, ['admin-courses', 'admin', 'common'])
    const { result, init } = replyToFailure(submission, error, t, { fields: { ...localizedFieldTargets(texts), ...fieldTargets(fields) } })
    // The provider's own language check: the form's message too, as the browser's check gives it.
    const languageRefused = Object.keys(result.error ?? {}).some((name) => /\.(pt|en|es)$/.test(name))
    return data({ result: languageRefused ? { ...result, error: { ...result.error, '': [MISSING_LANGUAGES_KEY] } } : result }, init)
  }
  return redirectWithToast(sent.redirectTo, { type: 'success', message: { key: intent === 'publish' ? 'admin:content.published' : 'admin:content.draftSaved', values: { name: sent.name } } })
}

type CourseValue = z.output<typeof courseContentSchema>
const courseForm = (value: CourseValue, create: boolean): CourseForm => ({
  title: value.title,
  description: value.description,
  pillar: value.pillar,
  sort_order: value.sort_order,
  active: value.active,
  product_id: value.product_id ?? null,
  ...(create && { create: true }),
})

/** The course editor's action (`slug`), or the new-course form's (the slug typed in the form). */
export function courseAction(request: Request, auth: SignedInCaller, slug: string | null) {
  const fields = ['pillar', 'sort_order', 'active', 'product_id', 'slug']
  const texts = ['title', 'description']
  if (slug === null) {
    return contentAction(request, {
      schema: newCourseSchema,
      texts,
      fields,
      send: async (value, intent) => {
        const form = courseForm(value, true)
        const sent = intent === 'publish' ? await publishCourse(auth, value.slug, form) : await saveCourseDraft(auth, value.slug, form)
        return { name: sent.title.pt || value.slug, redirectTo: `/admin/courses/${value.slug}` }
      },
    })
  }
  return contentAction(request, {
    schema: courseContentSchema,
    texts,
    fields,
    send: async (value, intent) => {
      const form = courseForm(value, false)
      const sent = intent === 'publish' ? await publishCourse(auth, slug, form) : await saveCourseDraft(auth, slug, form)
      return { name: sent.title.pt || slug, redirectTo: intent === 'publish' ? '/admin/courses' : `/admin/courses/${slug}` }
    },
    discard: async () => {
      await discardCourseDraft(auth, slug).catch(ignoreNotFound)
      return { name: slug, redirectTo: `/admin/courses/${slug}` }
    },
  })
}

type LessonValue = z.output<typeof lessonContentSchema>
const lessonForm = (course: string, value: LessonValue, create: boolean): LessonForm => ({
  course,
  title: value.title,
  summary: value.summary,
  number: value.number ?? null,
  free: value.free,
  ...(create && { create: true }),
})

/** The lesson editor's action (`lesson`), or the new-lesson form's (the video chosen in the form). */
export function lessonAction(request: Request, auth: SignedInCaller, course: string, lesson: string | null) {
  const texts = ['title', 'summary']
  const fields = ['number', 'free', 'video']
  const back = `/admin/courses/${course}`
  if (lesson === null) {
    return contentAction(request, {
      schema: newLessonSchema,
      texts,
      fields,
      send: async (value, intent) => {
        const form = lessonForm(course, value, true)
        const sent = intent === 'publish' ? await publishLesson(auth, value.video, form) : await saveLessonDraft(auth, value.video, form)
        return { name: sent.title.pt || value.video, redirectTo: intent === 'publish' ? back : `${back}/lessons/${value.video}` }
      },
    })
  }
  return contentAction(request, {
    schema: lessonContentSchema,
    texts,
    fields,
    send: async (value, intent) => {
      const form = lessonForm(course, value, false)
      const sent = intent === 'publish' ? await publishLesson(auth, lesson, form) : await saveLessonDraft(auth, lesson, form)
      return { name: sent.title.pt || lesson, redirectTo: intent === 'publish' ? back : `${back}/lessons/${lesson}` }
    },
    discard: async () => {
      await discardLessonDraft(auth, lesson).catch(ignoreNotFound)
      return { name: lesson, redirectTo: `${back}/lessons/${lesson}` }
    },
  })
}

/** A draft already gone (discarded or published by another admin) is what was asked for. */
function ignoreNotFound(error: unknown) {
  if (error instanceof ProviderError && error.status === 404) return
  throw error
}

/** A route's `:slug` (a course's, a lesson's): the tables' slug rule, or the page's 404. */
export function slugParam(value: string | undefined, max = 120): string {
  if (!value || value.length > max || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(value)) throw data({ reason: 'not-found' }, { status: 404 })
  return value
}

/** The course form's choices: the pillars by name; the course products, those selling another course not to be picked. */
export function courseOptions(choices: CourseChoices, slug: string | null, language: Language, t: TFunction) {
  return {
    pillars: choices.pillars.map((pillar) => ({ value: pillar.slug, label: inLanguage(pillar.name, language) })),
    products: choices.products.map((product) => {
      const taken = product.course !== null && product.course !== slug
      const name = inLanguage(product.name, language)
      return { value: String(product.id), label: taken ? t('course.productTaken', { name, course: product.course }) : name, disabled: taken }
    }),
  }
}

/** A video a new lesson may show, as the select names it: its file and length. */
export const videoOption = (video: Video, t: TFunction) => ({
  value: video.slug,
  label: t('lesson.videoOption', { file: `${video.slug}.mp4`, duration: duration(video.duration_seconds) }),
})

/** "1:05" */
export const duration = (seconds: number) => {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}
