import { type FieldMetadata, type SubmissionResult, getFormProps, getInputProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { localizedFieldTargets } from '#app/features/admin/localized-text.server.ts'
import { CONTENT_LANGUAGES, MISSING_LANGUAGES_KEY, type LocalizedDraft } from '#app/forms/localized-text.ts'
import { replyToFailure, sameNames } from '#app/utils/provider-reply.server.ts'
import { MAX_QUESTIONS, OPTION_COUNT, newQuestion, questionnaireVersionSchema, textNames } from '#app/forms/questionnaire-version.ts'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { formatDateAndTime } from '#app/domain/viewer-times.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { discardQuestionnaireDraft, getQuestionnaireVersion, publishQuestionnaireVersion, saveQuestionnaireDraft } from '#app/provider/admin-questionnaire.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { forgetDefinition } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { type FormInput, type FormOutput, useDeferredValidation } from '#app/ui/deferred-validation.ts'
import { ContentSubmitButtons, LocalizedFields } from '#app/ui/localized-fields.tsx'
import { ErrorList, FormError } from '#app/ui/forms.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin-questionnaire', 'admin'] }

/** Every input of a full version's form: 22 per question (code, pillar, reverse, 3 texts, 15 labels) and the version's own; some 800 for 36 questions, past readFormData's default 300. */
const MAX_ENTRIES = MAX_QUESTIONS * 22 + 20

const versionOf = (params: LoaderFunctionArgs['params']) => params.version ?? ''
/** In the admin's time zone (decision 0077; the console names it). */
const when = (iso: string, language: Language, timeZone: string) => formatDateAndTime(iso, timeZone, language, { dateStyle: 'medium' })

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const timeZone = timeZoneOr(user.time_zone)
  const version = versionOf(params)
  const [t, language, found] = await Promise.all([getFixedT(request, 'admin-questionnaire'), languageOf(request), getQuestionnaireVersion(auth, version).catch(errorResponseFor)])
  return data({
    meta: { title: `${t('editor.title', { version })} · Innera`, description: found.published ? t('editor.publishedLead') : t('editor.draftLead') },
    version,
    pillars: found.pillars.map((pillar) => ({ slug: pillar.slug, name: pillar.name[language] })),
    published: found.published ? { ...found.published, publishedOn: when(found.published.published_at, language, timeZone) } : null,
    draft: found.draft ? { ...found.draft, savedOn: when(found.draft.updated_at, language, timeZone) } : null,
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'admin' })
  const version = versionOf(params)
  const formData = await readFormData(request, { maxEntries: MAX_ENTRIES })
  if (formData.get('intent') === 'discard') {
    await discardQuestionnaireDraft(auth, version).catch((error: unknown) => (error instanceof ProviderError && error.status === 404 ? undefined : Promise.reject(error)))
    return redirectWithToast('/admin/questionnaire', { type: 'success', message: { key: 'admin:content.draftDiscarded', values: { name: version } } })
  }
  const submission = parseWithZod(formData, { schema: questionnaireVersionSchema })
  if (submission.status !== 'success') {
    // A publish refused here (a missing language) is kept as the draft all the same.
    if (submission.status === 'error' && formData.get('intent') === 'publish') {
      const asDraft = new FormData()
      for (const [name, value] of formData) if (name !== 'intent') asDraft.append(name, value)
      asDraft.set('intent', 'save')
      const draft = parseWithZod(asDraft, { schema: questionnaireVersionSchema })
      if (draft.status === 'success') {
        const { intent: _, ...body } = draft.value
        await saveQuestionnaireDraft(auth, version, body).catch((error: unknown) => (error instanceof ProviderError ? undefined : Promise.reject(error)))
      }
    }
    // Adding or removing a question (conform's intents) re-renders the form; an error is a 400.
    return data({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
  }
  const { intent, ...body } = submission.value
  try {
    if (intent === 'publish') await publishQuestionnaireVersion(auth, version, body)
    else await saveQuestionnaireDraft(auth, version, body)
  } catch (error) {
    const t = await getFixedT(request, ['admin-questionnaire', 'admin', 'common'])
    const codes = body.questions.flatMap((_, index) => [`questions[${index}].code`, `questions[${index}].pillar`, `questions[${index}].options`])
    const { result, init } = replyToFailure(submission, error, t, {
      fields: { ...localizedFieldTargets(textNames(body.questions.length)), ...sameNames(['estimated_minutes', 'questions', 'version', ...codes]) },
    })
    const languageRefused = Object.keys(result.error ?? {}).some((name) => /\.(pt|en|es)$/.test(name))
    return data({ result: languageRefused ? { ...result, error: { ...result.error, '': [MISSING_LANGUAGES_KEY] } } : result }, init)
  }
  if (intent === 'publish') {
    // This process's copy of the assessment is read again: patients get the new version at once.
    forgetDefinition()
    return redirectWithToast('/admin/questionnaire', { type: 'success', message: { key: 'admin:content.published', values: { name: version } } })
  }
  return redirectWithToast(`/admin/questionnaire/${version}`, { type: 'success', message: { key: 'admin:content.draftSaved', values: { name: version } } })
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>

export default function QuestionnaireVersionEditor() {
  const loaded = useLoaderData<typeof loader>()
  const { t } = useTranslation('admin-questionnaire')
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/questionnaire">
          {t('editor.back')}
        </Link>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{t('editor.title', { version: loaded.version })}</h1>
      {loaded.published ? <PublishedVersion published={loaded.published} pillars={loaded.pillars} /> : loaded.draft ? <DraftEditor loaded={loaded} draft={loaded.draft} /> : null}
    </main>
  )
}

const inputClass = 'mt-1 block min-h-11 w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700'

function DraftEditor({ loaded, draft }: { loaded: LoaderData; draft: NonNullable<LoaderData['draft']> }) {
  const { t } = useTranslation('admin-questionnaire')
  const { t: tAdmin } = useTranslation('admin')
  const lastResult = useActionData<typeof action>()?.result as SubmissionResult<string[]> | undefined
  const validation = useDeferredValidation('questionnaireVersion')
  const [form, fields] = useForm<FormInput<'questionnaireVersion'>, FormOutput<'questionnaireVersion'>>({
    id: 'questionnaire-version',
    lastResult,
    defaultValue: {
      title: draft.title,
      description: draft.description,
      estimated_minutes: draft.estimated_minutes,
      questions: draft.questions,
    },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  })
  const questions = fields.questions.getFieldList()
  const codes = new Set(questions.map((question) => question.getFieldset().code.value))
  let next = questions.length + 1
  while (codes.has(`nova_pergunta_${next}`)) next += 1
  return (
    <>
      <p className="mt-2 max-w-3xl text-muted">{t('editor.draftLead')}</p>
      <p className="mt-2">
        <span className="rounded-full border border-amber-700 px-2 py-0.5 text-sm font-medium text-amber-900">{tAdmin('content.draft')}</span>{' '}
        <span className="text-sm text-muted">{t('list.savedOn', { date: draft.savedOn })}</span>
      </p>
      <Form method="post" {...getFormProps(form)} {...validation.formProps} noValidate className="mt-6 space-y-6">
        <FormError id={form.errorId} errors={form.errors} />
        <section aria-labelledby="about-title" className="space-y-4 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
          <h2 id="about-title" className="text-xl font-semibold">
            {t('editor.about')}
          </h2>
          <LocalizedFields meta={fields.title as FieldMetadata<Partial<LocalizedDraft> | undefined>} label={t('editor.versionTitle')} />
          <LocalizedFields meta={fields.description as FieldMetadata<Partial<LocalizedDraft> | undefined>} label={t('editor.description')} multiline />
          <div className="max-w-xs">
            <label htmlFor={fields.estimated_minutes.id} className="block font-medium">
              {t('editor.minutes')}
            </label>
            <input {...getInputProps(fields.estimated_minutes, { type: 'text' })} inputMode="numeric" autoComplete="off" className={inputClass} aria-describedby={fields.estimated_minutes.errors ? fields.estimated_minutes.errorId : undefined} />
            <ErrorList id={fields.estimated_minutes.errorId} errors={fields.estimated_minutes.errors} />
          </div>
        </section>

        <section aria-labelledby="questions-title" className="space-y-4">
          <h2 id="questions-title" className="text-xl font-semibold">
            {t('editor.questionsTitle')}
          </h2>
          <p className="max-w-3xl text-muted">{t('editor.questionsLead')}</p>
          <ErrorList id={fields.questions.errorId} errors={fields.questions.errors} />
          <ol className="space-y-4">
            {questions.map((question, index) => {
              const item = question.getFieldset()
              const options = item.options.getFieldList()
              const number = index + 1
              const optionErrors = options.some((option) => CONTENT_LANGUAGES.some((language) => option.getFieldset()[language].errors?.length))
              return (
                <li key={question.key}>
                  <fieldset className="space-y-4 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
                    <legend className="max-w-full break-words rounded-lg bg-white px-2 text-lg font-semibold">{t('editor.question', { number, code: item.code.value || '—' })}</legend>
                    <div className="grid gap-4 sm:grid-cols-2">
                      <div>
                        <label htmlFor={item.code.id} className="block font-medium">
                          {t('editor.code')}
                        </label>
                        <input
                          {...getInputProps(item.code, { type: 'text' })}
                          autoComplete="off"
                          spellCheck={false}
                          className={inputClass}
                          aria-describedby={[`${item.code.id}-hint`, item.code.errors ? item.code.errorId : ''].filter(Boolean).join(' ')}
                        />
                        <p id={`${item.code.id}-hint`} className="mt-1 text-sm text-muted">
                          {t('editor.codeHint')}
                        </p>
                        <ErrorList id={item.code.errorId} errors={item.code.errors} />
                      </div>
                      <div>
                        <label htmlFor={item.pillar.id} className="block font-medium">
                          {t('editor.pillar')}
                        </label>
                        <select {...getSelectProps(item.pillar)} className={inputClass} aria-describedby={item.pillar.errors ? item.pillar.errorId : undefined}>
                          {loaded.pillars.map((pillar) => (
                            <option key={pillar.slug} value={pillar.slug}>
                              {pillar.name}
                            </option>
                          ))}
                        </select>
                        <ErrorList id={item.pillar.errorId} errors={item.pillar.errors} />
                      </div>
                    </div>
                    <LocalizedFields meta={item.text as FieldMetadata<Partial<LocalizedDraft> | undefined>} label={t('editor.text')} multiline rows={2} />
                    <details className="rounded-xl border border-gray-300 p-4" open={optionErrors || undefined}>
                      <summary className="min-h-11 cursor-pointer py-2 font-semibold">{optionErrors ? t('editor.optionsWithErrors') : t('editor.options')}</summary>
                      <div className="mt-3 space-y-3">
                        {options.slice(0, OPTION_COUNT).map((option, value) => (
                          <LocalizedFields key={option.key} meta={option as FieldMetadata<Partial<LocalizedDraft> | undefined>} label={`${t('editor.option', { value })} · ${t('editor.question', { number, code: item.code.value || '—' })}`} />
                        ))}
                      </div>
                    </details>
                    <div className="flex min-h-11 items-center gap-2">
                      <input {...getInputProps(item.reverse, { type: 'checkbox' })} className="h-5 w-5" />
                      <label htmlFor={item.reverse.id}>{t('editor.reverse')}</label>
                    </div>
                    <button {...form.remove.getButtonProps({ name: fields.questions.name, index })} className="btn-secondary min-h-11" disabled={questions.length <= 1}>
                      {t('editor.removeQuestion', { number })}
                    </button>
                  </fieldset>
                </li>
              )
            })}
          </ol>
          {questions.length < MAX_QUESTIONS ? (
            <button {...form.insert.getButtonProps({ name: fields.questions.name, defaultValue: newQuestion(`nova_pergunta_${next}`, loaded.pillars[0]?.slug ?? '') })} className="btn-secondary min-h-11">
              {t('editor.addQuestion')}
            </button>
          ) : null}
        </section>

        <ContentSubmitButtons name={loaded.version} />
      </Form>

      <Form method="post" className="mt-8 max-w-xl rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <p className="text-muted">{t('editor.discardLead')}</p>
        <button type="submit" name="intent" value="discard" className="btn-secondary mt-3">
          {tAdmin('content.discardDraft')}
          <span className="sr-only"> ({loaded.version})</span>
        </button>
      </Form>
    </>
  )
}

function PublishedVersion({ published, pillars }: { published: NonNullable<LoaderData['published']>; pillars: LoaderData['pillars'] }) {
  const { t } = useTranslation('admin-questionnaire')
  const { t: tAdmin } = useTranslation('admin')
  const pillarName = new Map(pillars.map((pillar) => [pillar.slug, pillar.name]))
  return (
    <>
      <p className="mt-2 max-w-3xl text-muted">{t('editor.publishedLead')}</p>
      <p className="mt-2 flex flex-wrap items-center gap-2">
        <span className="rounded-full border border-gray-500 px-2 py-0.5 text-sm font-medium text-ink">{tAdmin('content.published_state')}</span>
        <span className="text-sm text-muted">{t('list.publishedOn', { date: published.publishedOn })}</span>
        {published.current ? <strong className="text-sm">{t('editor.currentNote')}</strong> : null}
      </p>
      <section aria-labelledby="about-title" className="mt-6 rounded-2xl bg-white p-4 shadow-sm sm:p-6">
        <h2 id="about-title" className="text-xl font-semibold">
          {t('editor.about')}
        </h2>
        <Texts label={t('editor.versionTitle')} text={published.title} />
        <Texts label={t('editor.description')} text={published.description} />
        <p className="mt-3">
          {t('editor.minutes')}: <strong>{published.estimated_minutes}</strong>
        </p>
      </section>
      <section aria-labelledby="questions-title" className="mt-6">
        <h2 id="questions-title" className="text-xl font-semibold">
          {t('editor.questionsTitle')} ({published.questions.length})
        </h2>
        <ol className="mt-3 space-y-4">
          {published.questions.map((question, index) => (
            <li key={question.code} className="rounded-2xl bg-white p-4 shadow-sm sm:p-6">
              <h3 className="break-words text-lg font-semibold">{t('editor.question', { number: index + 1, code: question.code })}</h3>
              <p className="text-sm text-muted">
                {t('editor.pillar')}: {pillarName.get(question.pillar) ?? question.pillar} · {t('editor.reverseLabel')}: {question.reverse ? t('editor.yes') : t('editor.no')}
              </p>
              <Texts label={t('editor.text')} text={question.text} />
              <h4 className="mt-3 font-medium">{t('editor.options')}</h4>
              <ol className="mt-1 list-inside list-decimal space-y-1 text-sm" start={0}>
                {question.options.map((option, value) => (
                  <li key={value}>
                    {CONTENT_LANGUAGES.map((language) => (
                      <span key={language} lang={language === 'pt' ? 'pt-BR' : language}>
                        {language === 'pt' ? '' : ' · '}
                        {option[language]}
                      </span>
                    ))}
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
      </section>
    </>
  )
}

function Texts({ label, text }: { label: string; text: LocalizedDraft }) {
  const { t: tAdmin } = useTranslation('admin')
  return (
    <div className="mt-3">
      <h3 className="font-medium">{label}</h3>
      <dl className="mt-1 grid gap-x-3 gap-y-1 text-sm sm:grid-cols-[8rem_1fr]">
        {CONTENT_LANGUAGES.map((language) => (
          <div key={language} className="contents">
            <dt className="text-muted">{tAdmin(`content.languages.${language}`)}</dt>
            <dd lang={language === 'pt' ? 'pt-BR' : language}>{text[language]}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
