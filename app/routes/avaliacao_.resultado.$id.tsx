import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { type ShareList } from '#app/provider/questionnaire-schemas.ts'
import { formatWhen, getDefinition, getResult, languageOf, listShares, pillarNames, removeShare, shareResult } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { ScoreBarChart } from '#app/ui/score-chart.tsx'
import { failureText } from '#app/utils/messages.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

const fullName = (person: { first_name: string; last_name: string; username: string }) => `${person.first_name} ${person.last_name}`.trim() || person.username

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['assessment'] }

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const id = routeId(params)
  const [t, language, definition, result] = await Promise.all([
    getFixedT(request, 'assessment'),
    languageOf(request),
    getDefinition().catch(errorResponseFor),
    getResult(auth, id).catch(errorResponseFor),
  ])
  const isOwner = hasRole(user.groups, 'paciente') && (!result.patient || result.patient.id === user.id)
  let sharing: { shares: ShareList['professionals']; professionals: { id: number; name: string; specialty: string }[] } | null = null
  if (isOwner) {
    const [shares, professionals] = await Promise.all([listShares(auth, id).catch(errorResponseFor), listProfessionals(auth).catch(errorResponseFor)])
    sharing = {
      shares: shares.professionals,
      professionals: professionals.map((person) => ({ id: person.id, name: fullName(person), specialty: person.specialty ?? '' })),
    }
  }
  const names = pillarNames(definition, language)
  return data(
    {
      meta: { title: `${t('result.title')} · Innera`, description: t('result.focusLead') },
      result: {
        id: result.id,
        submittedAt: formatWhen(result.submitted_at, language, timeZoneOr(user.time_zone)),
        scores: definition.pillars.map((pillar) => ({ slug: pillar.slug, label: names[pillar.slug] ?? pillar.slug, score: result.scores[pillar.slug] ?? 0 })),
        focus: result.focus_pillars.map((slug) => ({ slug, label: names[slug] ?? slug })),
        patient: !isOwner && result.patient ? fullName(result.patient) : null,
      },
      isOwner,
      sharing,
    },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const id = routeId(params)
  const form = await readFormData(request)
  const t = await getFixedT(request, ['assessment', 'common'])
  const intent = form.get('intent')
  try {
    if (intent === 'remove') {
      const professional = parseId(form.get('professional'))
      if (professional === undefined) return data({ formError: t('share.chooseOne') }, { status: 400 })
      await removeShare(auth, id, professional)
      return redirectWithToast(`/avaliacao/resultado/${id}`, { type: 'success', message: { key: 'assessment:share.removed' } })
    }
    const professionals = [...new Set(form.getAll('professional').map(parseId).filter((id) => id !== undefined))]
    if (professionals.length === 0) return data({ formError: t('share.chooseOne') }, { status: 400 })
    await shareResult(auth, id, professionals)
    return redirectWithToast(`/avaliacao/resultado/${id}`, { type: 'success', message: { key: 'assessment:share.shared' } })
  } catch (error) {
    return data({ formError: failureText(t, error) }, { status: 400 })
  }
}

export default function ResultPage() {
  const { result, isOwner, sharing } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const { t } = useTranslation('assessment')
  const sharedIds = new Set(sharing?.shares.map((share) => share.id) ?? [])
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('result.title')}</h1>
      <p className="mt-2 text-muted">{t('result.submittedAt', { date: result.submittedAt })}</p>
      {result.patient ? <p className="mt-1 font-medium">{t('result.patient', { name: result.patient })}</p> : null}
      <section aria-labelledby="scores-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="scores-title" className="text-2xl font-semibold">
          {t('result.chart')}
        </h2>
        <div aria-hidden="true" className="mt-4">
          <ScoreBarChart bars={result.scores} title={t('result.chart')} />
        </div>
        <table className="mt-4 w-full max-w-md text-left">
          <caption className="sr-only">{t('result.chart')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('result.pillar')}</th>
              <th scope="col">{t('result.score')}</th>
            </tr>
          </thead>
          <tbody>
            {result.scores.map((row) => (
              <tr key={row.slug}>
                <th scope="row" className="font-normal">
                  {row.label}
                </th>
                <td data-testid={`score-${row.slug}`}>{row.score}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="focus-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="focus-title" className="text-2xl font-semibold">
          {t('result.focus')}
        </h2>
        <p className="mt-2 text-muted">{t('result.focusLead')}</p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {result.focus.map((pillar) => (
            <li key={pillar.slug} className="rounded-full bg-brand-50 px-3 py-1 font-medium text-brand-800">
              {pillar.label}
            </li>
          ))}
        </ul>
        {isOwner ? (
          <div className="mt-6 flex flex-wrap gap-3">
            <Link className="btn-primary" to="/programa">
              {t('result.programInvite')}
            </Link>
            <Link className="btn-secondary" to="/pilares">
              {t('result.choosePillars')}
            </Link>
            <Link className="btn-secondary" to="/avaliacao/historico">
              {t('result.history')}
            </Link>
          </div>
        ) : null}
      </section>
      {isOwner && sharing ? (
        <section aria-labelledby="share-title" className="mt-8 rounded-2xl bg-white p-6 shadow-sm">
          <h2 id="share-title" className="text-2xl font-semibold">
            {t('share.title')}
          </h2>
          <FormError errors={actionData?.formError ? [actionData.formError] : null} />
          <h3 className="mt-4 text-lg font-semibold">{t('share.sharedWith')}</h3>
          {sharing.shares.length ? (
            <ul className="mt-2 space-y-2" data-testid="shared-with">
              {sharing.shares.map((share) => (
                <li key={share.id} className="flex flex-wrap items-center justify-between gap-3">
                  <span>
                    {fullName(share)} {share.specialty ? <span className="text-muted">· {share.specialty}</span> : null}
                  </span>
                  <Form method="post">
                    <input type="hidden" name="professional" value={share.id} />
                    <SubmitButton name="intent" value="remove" className="btn-secondary" pendingText="…">
                      {t('share.remove', { name: fullName(share) })}
                    </SubmitButton>
                  </Form>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-muted">{t('share.none')}</p>
          )}
          {sharing.professionals.some((person) => !sharedIds.has(person.id)) ? (
            <Form method="post" className="mt-6">
              <fieldset>
                <legend className="font-medium">{t('share.lead')}</legend>
                <ul className="mt-2 space-y-2">
                  {sharing.professionals
                    .filter((person) => !sharedIds.has(person.id))
                    .map((person) => (
                      <li key={person.id}>
                        <label className="flex min-h-11 items-center gap-3">
                          <input type="checkbox" name="professional" value={person.id} className="size-5 accent-brand-700" />
                          {person.name} {person.specialty ? <span className="text-muted">· {person.specialty}</span> : null}
                        </label>
                      </li>
                    ))}
                </ul>
              </fieldset>
              <SubmitButton name="intent" value="share" className="btn-primary mt-4" pendingText="…">
                {t('share.submit')}
              </SubmitButton>
            </Form>
          ) : sharing.professionals.length === 0 ? (
            <p className="mt-4 text-muted">{t('share.noProfessionals')}</p>
          ) : null}
        </section>
      ) : null}
    </main>
  )
}
