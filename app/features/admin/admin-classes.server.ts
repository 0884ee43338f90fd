import { type Submission } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from '@remix-run/node'
import { type TFunction } from 'i18next'
import { type z } from 'zod'
import { formatTime, localDate, timeZoneLabel } from '#app/domain/appointments.ts'
import { wallClock } from '#app/domain/calendar.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type AdminClass, type ClassDraft } from '#app/provider/admin-classes-schemas.ts'
import { cancelClass, discardClassDraft, publishClass, rescheduleClass, saveClassDraft } from '#app/provider/admin-classes.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type SignedInCaller } from '#app/provider/fetch.server.ts'
import { classTime } from '#app/features/live-classes/live-classes.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { classCancelSchema, classScheduleSchema, classTextsSchema, newClassSchema } from '#app/forms/admin-classes.ts'
import { localizedFieldTargets } from './localized-text.server.ts'
import { MISSING_LANGUAGES_KEY } from '#app/forms/localized-text.ts'
import { type FieldTarget, replyToFailure } from '#app/utils/provider-reply.server.ts'

/**
 * The admin's live-class pages (decision 0067): what the list and the editor show (times in the
 * admin's zone, texts in the page's language), and their action: a draft saved, published or
 * discarded, a class moved or given other seats, a class cancelled. Each success goes back with a
 * toast; each refusal (the provider's included) re-renders its form with what was typed.
 */

export const CLASS_FORMS = ['editor', 'schedule', 'cancel'] as const
export type ClassForm = (typeof CLASS_FORMS)[number]

type Names = Record<string, string>

/** The class's wall clock in a zone: the form's date and time ("2026-12-01", "19:00"). */
export function wallTimeOf(instant: string, timeZone: string): { date: string; time: string } {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(instant))
  return { date: localDate(instant, timeZone), time }
}

/** A date and a time typed in a zone, as the instant the provider stores. */
export function instantOf(date: string, time: string, timeZone: string): string {
  const [hours, minutes] = time.split(':').map(Number)
  return new Date(wallClock(date, timeZone)(hours! * 60 + minutes!)).toISOString()
}

/** "sono-e-descanso-2026-12-01" from the Portuguese title and the date: a new class's address when none is typed. */
export function slugFrom(title: string, date?: string): string | undefined {
  const base = title
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '')
  if (!base) return undefined
  return date ? `${base}-${date}` : base
}

const personName = (teacher: { first_name: string; last_name: string }) => [teacher.first_name, teacher.last_name].filter(Boolean).join(' ')

/** A class in the list. */
export function classRow(cls: AdminClass & { draft: { updated_at: string } | null }, { language, timeZone, pillarNames }: { language: Language; timeZone: string; pillarNames: Names }) {
  return {
    slug: cls.slug,
    title: cls.title[language] || cls.title.pt,
    when: classTime(cls, timeZone, language),
    pillar: pillarNames[cls.pillar] ?? cls.pillar,
    teacher: personName(cls.teacher),
    seats: cls.seats,
    seatsTaken: cls.seats_taken,
    state: cls.state,
    hasDraft: cls.draft !== null,
  }
}

/** A new class's draft in the list. */
export function draftRow(draft: ClassDraft & { key: string }, { language, timeZone }: { language: Language; timeZone: string }) {
  return {
    slug: draft.key,
    title: draft.title[language] || draft.title.pt || draft.key,
    when: draft.starts_at ? `${localDate(draft.starts_at, timeZone)} ${formatTime(draft.starts_at, timeZone, language)}` : null,
  }
}

/** What the class page shows of a published class. */
export function classFacts(cls: AdminClass, { language, timeZone, pillarNames }: { language: Language; timeZone: string; pillarNames: Names }) {
  return {
    id: cls.id,
    slug: cls.slug,
    title: cls.title[language] || cls.title.pt,
    when: classTime(cls, timeZone, language),
    zone: timeZoneLabel(timeZone, language, cls.starts_at),
    pillar: pillarNames[cls.pillar] ?? cls.pillar,
    teacher: personName(cls.teacher),
    access: cls.access,
    minutes: cls.duration_minutes,
    seats: cls.seats,
    seatsTaken: cls.seats_taken,
    state: cls.state,
    hasMeeting: cls.has_meeting,
  }
}

/** The editor's starting values: the draft when there is one, else the published class; the start in the admin's zone. */
export function editorDefaults(published: AdminClass | null, draft: ClassDraft | null, timeZone: string) {
  const source = draft ?? published
  const startsAt = draft ? draft.starts_at : (published?.starts_at ?? null)
  const start = startsAt ? wallTimeOf(startsAt, timeZone) : null
  const teacherId = draft ? draft.teacher_id : (published?.teacher.id ?? null)
  return {
    title: source?.title ?? { pt: '', en: '', es: '' },
    description: source?.description ?? { pt: '', en: '', es: '' },
    pillar: source?.pillar ?? '',
    teacher_id: teacherId === null ? '' : String(teacherId),
    date: start?.date ?? '',
    time: start?.time ?? '',
    duration_minutes: source?.duration_minutes == null ? '' : String(source.duration_minutes),
    seats: source?.seats == null ? '' : String(source.seats),
    access: source?.access ?? '',
  }
}

/** The schedule form's starting values. */
export function scheduleDefaults(cls: AdminClass, timeZone: string) {
  const start = wallTimeOf(cls.starts_at, timeZone)
  return { date: start.date, time: start.time, duration_minutes: String(cls.duration_minutes), seats: String(cls.seats) }
}

// ——— the action ———

const V = 'admin-classes:validation'
/** The provider's refusals on a field, in the page's language. */
function providerMessages(t: TFunction) {
  return (provided: string[]) =>
    provided.map((message) => {
      const taken = /^(\d+) seats are already taken/.exec(message)
      if (taken) return t(`${V}.seatsTaken`, { count: Number(taken[1]) })
      if (message === 'The class must start in the future.') return t(`${V}.future`)
      if (message.startsWith('The class must start within')) return t(`${V}.tooFar`)
      if (message === 'Select an active professional.') return t(`${V}.teacher`)
      if (message === 'This field is required.') return t('errors.required')
      if (message.startsWith('Enter a valid slug')) return t(`${V}.slug`)
      return message
    })
}
const targets = (t: TFunction, map: Record<string, string>): Record<string, FieldTarget> =>
  Object.fromEntries(Object.entries(map).map(([provider, field]) => [provider, { field, messages: providerMessages(t) }]))

type Reply = { form: ClassForm; result: ReturnType<Submission<unknown>['reply']> }

/** A refusal of the provider: on its fields, a class that can no longer change in words, anything else as the form's message. */
async function refused(request: Request, form: ClassForm, submission: Submission<unknown>, error: unknown, fields: Record<string, string>) {
  const t = await getFixedT(request, ['common', 'admin', 'admin-classes'])
  if (error instanceof ProviderError && error.status === 409 && ['cancelled', 'started', 'exists'].includes(error.code ?? '')) {
    return data<Reply>({ form, result: submission.reply({ formErrors: [t(`admin-classes:errors.${error.code}`)] }) }, { status: 409 })
  }
  const { result, init } = replyToFailure(submission, error, t, { fields: { ...localizedFieldTargets(['title', 'description']), ...targets(t, fields) } })
  const languageRefused = Object.keys(result.error ?? {}).some((name) => /\.(pt|en|es)$/.test(name))
  return data<Reply>({ form, result: languageRefused ? { ...result, error: { ...result.error, '': [MISSING_LANGUAGES_KEY] } } : result }, init)
}

type Page = { slug: string | null; published: boolean; timeZone: string }

const EDITOR_FIELDS = { slug: 'slug', pillar: 'pillar', teacher_id: 'teacher_id', starts_at: 'date', duration_minutes: 'duration_minutes', seats: 'seats', access: 'access' }

/** The new class's form as the provider takes it: only what was typed. */
function newClassBody(value: z.output<typeof newClassSchema>, timeZone: string): Record<string, unknown> {
  const body: Record<string, unknown> = { title: value.title, description: value.description }
  for (const field of ['pillar', 'teacher_id', 'duration_minutes', 'seats', 'access'] as const) if (value[field] !== undefined) body[field] = value[field]
  if (value.date && value.time) body.starts_at = instantOf(value.date, value.time, timeZone)
  return body
}

/**
 * The pages' action. `page.slug` is the class's key (null on the new-class page, where it is typed
 * or made from the title); `page.published` says whether the editor holds a new class or a
 * published one's texts.
 */
export async function adminClassAction(request: Request, auth: SignedInCaller, page: Page) {
  const formData = await readFormData(request)
  const intent = String(formData.get('intent') ?? '')
  const list = '/admin/live-classes'

  if (intent === 'discard' && page.slug) {
    try {
      await discardClassDraft(auth, page.slug)
    } catch (error) {
      // Already gone (published or discarded by another admin): what was asked for.
      if (!(error instanceof ProviderError && error.status === 404)) throw error
    }
    return redirectWithToast(page.published ? `${list}/${page.slug}` : list, { type: 'success', message: { key: 'admin:content.draftDiscarded', values: { name: page.slug } } })
  }

  if (intent === 'schedule' && page.slug) {
    const submission = parseWithZod(formData, { schema: classScheduleSchema })
    if (submission.status !== 'success') return data<Reply>({ form: 'schedule', result: submission.reply() }, { status: 400 })
    const { date, time, duration_minutes, seats } = submission.value
    try {
      const answer = await rescheduleClass(auth, page.slug, { starts_at: instantOf(date, time, page.timeZone), duration_minutes, seats })
      const key = answer.meeting_updated === false ? 'admin-classes:schedule.savedZoomLater' : 'admin-classes:schedule.saved'
      return redirectWithToast(`${list}/${page.slug}`, { type: 'success', message: { key, values: { count: answer.notified } }, durationMs: 8_000 })
    } catch (error) {
      return refused(request, 'schedule', submission, error, { starts_at: 'date', duration_minutes: 'duration_minutes', seats: 'seats' })
    }
  }

  if (intent === 'cancel' && page.slug) {
    const submission = parseWithZod(formData, { schema: classCancelSchema })
    if (submission.status !== 'success') return data<Reply>({ form: 'cancel', result: submission.reply() }, { status: 400 })
    try {
      const answer = await cancelClass(auth, page.slug, submission.value.reason)
      return redirectWithToast(`${list}/${page.slug}`, { type: 'success', message: { key: 'admin-classes:cancel.done', values: { count: answer.notified } }, durationMs: 8_000 })
    } catch (error) {
      return refused(request, 'cancel', submission, error, { reason: 'reason' })
    }
  }

  // The editor: save or publish.
  const schema = page.published ? classTextsSchema : newClassSchema
  const submission = parseWithZod(formData, { schema }) as Submission<unknown, string[], z.output<typeof newClassSchema>>
  const slugOf = (value: z.output<typeof newClassSchema>) => page.slug ?? value.slug ?? slugFrom(value.title.pt, value.date)
  const bodyOf = (value: z.output<typeof newClassSchema>) => (page.published ? { title: value.title, description: value.description } : newClassBody(value, page.timeZone))
  if (submission.status !== 'success') {
    // A publish refused here is kept as the draft all the same: nothing typed is lost.
    if (formData.get('intent') === 'publish') {
      const asDraft = new FormData()
      for (const [name, value] of formData) if (name !== 'intent') asDraft.append(name, value)
      const draft = parseWithZod(asDraft, { schema }) as Submission<unknown, string[], z.output<typeof newClassSchema>>
      const slug = draft.status === 'success' ? slugOf(draft.value) : undefined
      if (draft.status === 'success' && slug) await saveClassDraft(auth, slug, bodyOf(draft.value)).catch((error: unknown) => (error instanceof ProviderError ? undefined : Promise.reject(error)))
    }
    return data<Reply>({ form: 'editor', result: submission.reply() }, { status: 400 })
  }
  const value = submission.value
  const slug = slugOf(value)
  if (!slug) return data<Reply>({ form: 'editor', result: submission.reply({ fieldErrors: { slug: [`${V}.slugOrTitle`] } }) }, { status: 400 })
  const publish = value.intent === 'publish'
  try {
    if (publish) await publishClass(auth, slug, bodyOf(value))
    else await saveClassDraft(auth, slug, bodyOf(value))
  } catch (error) {
    return refused(request, 'editor', submission, error, EDITOR_FIELDS)
  }
  const name = value.title.pt || slug
  return redirectWithToast(`${list}/${slug}`, { type: 'success', message: { key: publish ? 'admin:content.published' : 'admin:content.draftSaved', values: { name } } })
}
