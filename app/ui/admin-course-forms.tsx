import { type SubmissionResult, getFormProps, getInputProps, useForm } from '@conform-to/react'
import { Form } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { Field } from '#app/ui/field.tsx'
import { FormError } from '#app/ui/forms.tsx'
import { ContentSubmitButtons, LocalizedFields } from '#app/ui/localized-fields.tsx'
import { CheckboxInput, SelectInput, TextInput } from './content-editor-parts.tsx'

/**
 * The course form and the lesson form of the content editor (decisions 0064 and 0066), for an
 * item being edited and for a new one (which names its slug, or picks its video, first). Plain
 * `<Form method="post">`s: they work without JavaScript; with it, conform checks as one types.
 */

type Localized = { pt: string; en: string; es: string }
type CourseDefaults = { title: Localized; description: Localized; pillar: string; sort_order: string; active: string; product_id: string; slug?: string }
type CourseOptions = { pillars: { value: string; label: string }[]; products: { value: string; label: string; disabled: boolean }[] }

export function CourseEditorForm({ isNew, name, defaults, options, lastResult }: { isNew: boolean; name: string; defaults: CourseDefaults; options: CourseOptions; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation('admin-courses')
  const validation = useDeferredValidation(isNew ? 'adminNewCourse' : 'adminCourse')
  const [form, fields] = useForm<FormInput<'adminNewCourse'>, FormOutput<'adminNewCourse'>>({
    id: 'course-editor',
    lastResult,
    defaultValue: defaults as unknown as FormInput<'adminNewCourse'>,
    onValidate: validation.onValidate as never,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-3xl space-y-5 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <FormError id={form.errorId} errors={form.errors} />
      {isNew ? (
        <Field
          labelProps={{ children: t('course.slug') }}
          hint={t('course.slugHint')}
          inputProps={{ ...getInputProps(fields.slug, { type: 'text' }), autoComplete: 'off', spellCheck: false }}
          errors={fields.slug.errors}
        />
      ) : null}
      <LocalizedFields meta={fields.title} label={t('course.titleField')} />
      <LocalizedFields meta={fields.description} label={t('course.description')} multiline />
      <SelectInput meta={fields.pillar} label={t('course.pillar')} options={[{ value: '', label: t('course.choosePillar') }, ...options.pillars]} />
      <SelectInput meta={fields.product_id} label={t('course.product')} hint={t('course.productHint')} options={[{ value: '', label: t('course.noProduct') }, ...options.products]} />
      <TextInput meta={fields.sort_order} label={t('course.sortOrder')} hint={t('course.sortOrderHint')} numeric />
      <CheckboxInput meta={fields.active} label={t('course.active')} hint={t('course.activeHint')} />
      <ContentSubmitButtons name={name} />
    </Form>
  )
}

type LessonDefaults = { title: Localized; summary: Localized; number: string; free: string; video?: string }

export function LessonEditorForm({
  videos,
  name,
  defaults,
  lastResult,
}: {
  /** A new lesson: the videos it may show. */
  videos?: { value: string; label: string }[]
  name: string
  defaults: LessonDefaults
  lastResult?: SubmissionResult<string[]>
}) {
  const { t } = useTranslation('admin-courses')
  const validation = useDeferredValidation(videos ? 'adminNewLesson' : 'adminLesson')
  const [form, fields] = useForm<FormInput<'adminNewLesson'>, FormOutput<'adminNewLesson'>>({
    id: 'lesson-editor',
    lastResult,
    defaultValue: defaults as unknown as FormInput<'adminNewLesson'>,
    onValidate: validation.onValidate as never,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 max-w-3xl space-y-5 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
      <FormError id={form.errorId} errors={form.errors} />
      {videos ? <SelectInput meta={fields.video} label={t('lesson.video')} hint={t('lesson.videoHint')} options={[{ value: '', label: t('lesson.chooseVideo') }, ...videos]} /> : null}
      <LocalizedFields meta={fields.title} label={t('lesson.titleField')} />
      <LocalizedFields meta={fields.summary} label={t('lesson.summary')} multiline />
      <TextInput meta={fields.number} label={t('lesson.number')} hint={t('lesson.numberHint')} numeric />
      <CheckboxInput meta={fields.free} label={t('lesson.free')} hint={t('lesson.freeHint')} />
      <ContentSubmitButtons name={name} />
    </Form>
  )
}
