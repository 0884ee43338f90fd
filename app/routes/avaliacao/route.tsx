import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, createCookieSessionStorage, data, redirect } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { type Draft, type Intent, type Step, cleanAnswers, clampStep, emptyDraft, mergeUnchecked, navigate } from '#app/domain/assessment-steps.ts'
import { PILLAR_ORDER, type PillarSlug, isPillarSlug } from '#app/domain/pillars.ts'
import { getEnv } from '#app/env.server.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { providerJson } from '#app/provider/fetch.server.ts'
import { type Definition, definitionSchema } from '#app/provider/questionnaire-schemas.ts'
import { getDefinition, languageOf, submitAnswers } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { getAuth, requireUser } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { failureText } from '#app/utils/messages.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { completedPillarsHeader } from '#app/utils/pillar-cookies.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

// The draft (answers so far, current step) in a signed cookie of its own, so the wizard works without JavaScript.
type DraftData = { draft: Partial<Draft> }
let draftStorage: ReturnType<typeof createCookieSessionStorage<DraftData>> | undefined
const drafts = () =>
  (draftStorage ??= createCookieSessionStorage<DraftData>({
    cookie: {
      name: 'innera_assessment',
      path: '/', // '/avaliacao' would miss the single-fetch '/avaliacao.data' requests
      httpOnly: true,
      sameSite: 'lax',
      secure: getEnv().SESSION_COOKIE_SECURE,
      secrets: getEnv().SESSION_SECRET,
      maxAge: 60 * 60 * 24 * 7,
    },
  }))

const stepsOf = (definition: Definition): Step[] => definition.pillars.map((pillar) => ({ slug: pillar.slug, questions: pillar.questions }))

async function readDraft(request: Request, definition: Definition) {
  const session = await drafts().getSession(request.headers.get('Cookie'))
  const stored = session.get('draft')
  const steps = stepsOf(definition)
  // A draft without a version holds answers kept while the definition could not be read: cleaned below.
  const otherVersion = stored?.version !== undefined && stored.version !== definition.version
  if (!stored || otherVersion || typeof stored.answers !== 'object' || stored.answers === null) {
    return { session, draft: emptyDraft(definition.version) }
  }
  const answers = cleanAnswers(steps, stored.answers, definition.scale)
  return { session, draft: { version: definition.version, answers, step: clampStep(steps, answers, Number(stored.step)) } }
}

/**
 * The definition the patient's assessment goes on with: the current version, or the version an
 * unfinished assessment was started with when a new one has been published since (decision 0068:
 * the provider takes its answers for a while, scored with that version's questions).
 */
async function definitionForDraft(request: Request): Promise<Definition> {
  const current = await getDefinition()
  const stored = (await drafts().getSession(request.headers.get('Cookie'))).get('draft')
  const started = typeof stored?.answers === 'object' && stored.answers !== null && Object.keys(stored.answers).length > 0
  if (!started || typeof stored?.version !== 'string' || stored.version === current.version) return current
  return providerJson('/questionnaire/get/', definitionSchema, { query: { version: stored.version } }).catch(() => current)
}

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

const intents = ['next', 'back', 'review', 'submit', 'edit'] as const

/**
 * The posted answers are kept before anything else can fail: when the definition cannot be read
 * (the provider is unreachable and this process has none cached), they go into the draft as they
 * came, and the page (post/redirect/get) shows what happened; the next page that has the
 * definition cleans them.
 */
async function keepUncheckedAnswers(request: Request, auth: Awaited<ReturnType<typeof requireUser>>['auth'], fields: Record<string, unknown>) {
  const session = await drafts().getSession(request.headers.get('Cookie'))
  const stored = session.get('draft')
  const answers = mergeUnchecked(stored && typeof stored.answers === 'object' && stored.answers !== null ? stored.answers : {}, fields)
  session.set('draft', { ...stored, answers })
  const headers = new Headers()
  headers.append('Set-Cookie', await drafts().commitSession(session))
  return redirect('/avaliacao', { status: 303, headers })
}

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const [form, t, lang] = await Promise.all([readFormData(request), getFixedT(request, ['assessment', 'common']), languageOf(request)])
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === 'string'))
  let definition: Definition
  try {
    definition = await definitionForDraft(request)
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    return keepUncheckedAnswers(request, auth, fields)
  }
  const steps = stepsOf(definition)
  const { session, draft } = await readDraft(request, definition)
  const rawIntent = String(fields.intent ?? 'next')
  const editing = /^edit-(\d+)$/.exec(rawIntent)
  const intent: Intent = editing ? 'edit' : (intents as readonly string[]).includes(rawIntent) ? (rawIntent as Intent) : 'next'
  const target = editing ? Number(editing[1]) : undefined
  const outcome = navigate(steps, draft, intent, fields, definition.scale, target)
  const textOf = new Map(definition.pillars.flatMap((pillar) => pillar.questions.map((question) => [question.code, question.text[lang]] as const)))
  const reply = async (body: { problems?: Record<string, string>; formError?: string }, status = 400) => {
    session.set('draft', outcome.draft)
    const headers = new Headers()
    headers.append('Set-Cookie', await drafts().commitSession(session))
    // Moving on is a redirect (post/redirect/get), so the page loads with the new draft without JavaScript too.
    if (status < 400) return redirect('/avaliacao', { status: 303, headers })
    return data({ problems: body.problems ?? {}, formError: body.formError ?? null, step: outcome.draft.step, answers: outcome.draft.answers }, { status, headers })
  }
  const problemTexts = (problems: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(problems).map(([code, problem]) => [
        code,
        problem === 'range' ? t('errors.range', { question: textOf.get(code) ?? code }) : t('errors.missing', { question: textOf.get(code) ?? code }),
      ]),
    )
  if (Object.keys(outcome.problems).length) {
    return reply({ problems: problemTexts(outcome.problems), formError: t('errors.summary') })
  }
  if (!outcome.submit) return reply({}, 200)
  try {
    const result = await submitAnswers(auth, definition.version, outcome.draft.answers)
    const headers = new Headers()
    headers.append('Set-Cookie', await drafts().destroySession(session))
    const slugs = definition.pillars.map((pillar) => pillar.slug).filter(isPillarSlug) as PillarSlug[]
    headers.append('Set-Cookie', await completedPillarsHeader(slugs.length ? slugs : [...PILLAR_ORDER]))
    return redirectWithToast(`/avaliacao/resultado/${result.id}`, { type: 'success', message: { key: 'assessment:submitted' } }, { headers })
  } catch (error) {
    const failure = error instanceof ProviderError && error.failure.kind === 'http' ? error.failure : undefined
    if (failure?.status === 400 && failure.fieldErrors?.version) {
      // The version this assessment was started with no longer takes answers (decision 0068): start again.
      const headers = new Headers()
      headers.append('Set-Cookie', await drafts().destroySession(session))
      return redirectWithToast('/avaliacao', { type: 'error', message: { key: 'assessment:errors.versionChanged' } }, { headers })
    }
    if (failure?.status === 400 && failure.fieldErrors) {
      // Field errors per question code ("answers.<code>" or "<code>") map onto the questions.
      const problems: Record<string, string> = {}
      for (const [field, messages] of Object.entries(failure.fieldErrors)) {
        const code = field.startsWith('answers.') ? field.slice('answers.'.length) : field
        if (textOf.has(code)) problems[code] = `${textOf.get(code)}: ${messages.join(' ')}`
      }
      if (Object.keys(problems).length) return reply({ problems, formError: t('errors.summary') })
    }
    return reply({ formError: failureText(t, error) })
  }
}

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
