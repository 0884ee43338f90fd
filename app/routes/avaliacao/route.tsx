import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { languageOf } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { action } from './assessment-action.server.ts'
import { definitionForDraft, readDraft } from './assessment-draft.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['assessment'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const auth = await getAuth(request)
  const [t, lang] = await Promise.all([getFixedT(request, 'assessment'), languageOf(request)])
  const meta = { title: `${t('title')} · Innera`, description: t('lead') }
  const user = auth.isSignedIn ? auth.user : null
  if (!user || !hasRole(user.groups, 'paciente')) {
    return data({ meta, mode: user ? ('other' as const) : ('anonymous' as const), wizard: null })
  }
  const definition = await definitionForDraft(request).catch(errorResponseFor)
  const { draft } = await readDraft(request, definition)
  const steps = definition.pillars.map((pillar) => ({
    slug: pillar.slug,
    name: pillar.name[lang],
    questions: pillar.questions.map((question) => ({
      code: question.code,
      text: question.text[lang],
      options: question.options.map((option) => ({ value: option.value, label: option.label[lang] })),
    })),
  }))
  return data(
    {
      meta,
      mode: 'wizard' as const,
      wizard: {
        title: definition.title[lang],
        description: definition.description[lang],
        minutes: definition.estimated_minutes ?? 10,
        step: draft.step,
        answers: draft.answers,
        steps,
      },
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

// The wizard's steps: the draft in its own cookie and the action beside the route.
export { action }

type Wizard = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['wizard']>

export default function AssessmentPage() {
  const { mode, wizard } = useLoaderData<typeof loader>()
  const { t } = useTranslation('assessment')
  if (mode !== 'wizard' || !wizard) {
    return (
      <main id="main" className="container-page py-10">
        <h1 className="text-3xl font-bold">{t('title')}</h1>
        <p className="mt-3 max-w-2xl text-lg text-muted">{t('lead')}</p>
        <p className="mt-2 max-w-2xl text-muted">{t('notDiagnosis')}</p>
        {mode === 'anonymous' ? (
          <div className="mt-6 flex flex-wrap gap-3">
            <Link className="btn-primary" to={`/auth?mode=login&redirectTo=${encodeURIComponent('/avaliacao')}`}>
              {t('signIn')}
            </Link>
            <Link className="btn-secondary" to={`/auth?mode=register&redirectTo=${encodeURIComponent('/avaliacao')}`}>
              {t('register')}
            </Link>
          </div>
        ) : (
          <p className="mt-6 rounded-2xl bg-white p-6">{t('patientsOnly')}</p>
        )}
      </main>
    )
  }
  return <WizardView wizard={wizard} />
}

function WizardView({ wizard }: { wizard: Wizard }) {
  const { t } = useTranslation('assessment')
  const actionData = useActionData<typeof action>()
  const problems: Record<string, string> = actionData?.problems ?? {}
  // After a refused step the action's draft is the newest (the loader read the cookie sent with the request).
  if (actionData?.answers) wizard = { ...wizard, step: actionData.step, answers: actionData.answers }
  const total = wizard.steps.length
  const isReview = wizard.step >= total
  const current = wizard.steps[wizard.step]
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{wizard.title}</h1>
      <p className="mt-2 max-w-2xl text-muted">{wizard.description}</p>
      <p className="mt-1 text-sm text-muted">{t('minutes', { count: wizard.minutes })}</p>
      <div className="mt-6">
        <label htmlFor="assessment-progress" className="text-sm font-medium">
          {isReview ? t('reviewTitle') : t('stepOf', { number: wizard.step + 1, total })}
        </label>
        <progress id="assessment-progress" max={total + 1} value={wizard.step + 1} className="mt-1 block h-3 w-full max-w-xl accent-brand-700">
          {t('stepOf', { number: Math.min(wizard.step + 1, total), total })}
        </progress>
      </div>
      <Form method="post" noValidate className="mt-6 space-y-6 rounded-2xl bg-white p-6 shadow-sm" key={wizard.step}>
        <FormError errors={actionData?.formError ? [actionData.formError] : null} />
        {Object.keys(problems).length ? (
          <ul className="space-y-1 text-sm font-medium text-red-700" aria-label={t('errors.summary')}>
            {Object.entries(problems).map(([code, message]) => (
              <li key={code}>
                <a href={`#q-${code}`}>{message}</a>
              </li>
            ))}
          </ul>
        ) : null}
        {current ? (
          <>
            <h2 className="text-2xl font-semibold">{current.name}</h2>
            {current.questions.map((question) => (
              <fieldset key={question.code} id={`q-${question.code}`} aria-invalid={problems[question.code] ? true : undefined} aria-describedby={problems[question.code] ? `q-${question.code}-error` : undefined}>
                <legend className="font-medium">{question.text}</legend>
                <div className="mt-2 flex flex-wrap gap-3">
                  {question.options.map((option) => (
                    <label key={option.value} className="flex min-h-11 items-center gap-2 rounded-lg border border-gray-300 px-3 py-2">
                      <input type="radio" name={question.code} value={option.value} defaultChecked={wizard.answers[question.code] === option.value} className="size-5 accent-brand-700" />
                      {option.label}
                    </label>
                  ))}
                </div>
                {problems[question.code] ? (
                  <p id={`q-${question.code}-error`} className="mt-1 text-sm font-medium text-red-700">
                    {problems[question.code]}
                  </p>
                ) : null}
              </fieldset>
            ))}
            <div className="flex flex-wrap gap-3">
              {wizard.step > 0 ? (
                <button type="submit" name="intent" value="back" className="btn-secondary" formNoValidate>
                  {t('back')}
                </button>
              ) : null}
              <SubmitButton name="intent" value={wizard.step === total - 1 ? 'review' : 'next'} className="btn-primary" pendingText={t('saving')}>
                {wizard.step === total - 1 ? t('toReview') : t('next')}
              </SubmitButton>
            </div>
          </>
        ) : (
          <ReviewView wizard={wizard} />
        )}
      </Form>
    </main>
  )
}

function ReviewView({ wizard }: { wizard: Wizard }) {
  const { t } = useTranslation('assessment')
  return (
    <>
      <h2 className="text-2xl font-semibold">{t('reviewTitle')}</h2>
      <p className="text-muted">{t('reviewLead')}</p>
      {wizard.steps.map((step, index) => (
        <section key={step.slug} aria-labelledby={`review-${step.slug}`} className="border-t border-gray-200 pt-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h3 id={`review-${step.slug}`} className="text-lg font-semibold">
              {step.name}
            </h3>
            <button type="submit" name="intent" value={`edit-${index}`} className="btn-secondary">
              {t('editStep', { name: step.name })}
            </button>
          </div>
          <dl className="mt-2 space-y-2">
            {step.questions.map((question) => (
              <div key={question.code}>
                <dt className="text-muted">{question.text}</dt>
                <dd className="font-medium">{question.options.find((option) => option.value === wizard.answers[question.code])?.label ?? t('unanswered')}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="flex flex-wrap gap-3 border-t border-gray-200 pt-4">
        <SubmitButton name="intent" value="submit" className="btn-primary" pendingText={t('sending')}>
          {t('submit')}
        </SubmitButton>
      </div>
    </>
  )
}
