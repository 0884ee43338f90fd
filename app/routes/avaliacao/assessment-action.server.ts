import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { type Intent, mergeUnchecked, navigate } from '#app/domain/assessment-steps.ts'
import { PILLAR_ORDER, type PillarSlug, isPillarSlug } from '#app/domain/pillars.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type Definition } from '#app/provider/questionnaire-schemas.ts'
import { languageOf, submitAnswers } from '#app/provider/questionnaire.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { completedPillarsHeader } from '#app/features/pillars/pillar-cookies.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { definitionForDraft, drafts, readDraft, stepsOf } from './assessment-draft.server.ts'

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

/** A step's answers: kept in the draft and checked; the last step submits them to the provider. */
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
