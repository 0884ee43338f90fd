import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { formatAmount, weekdayNames } from '#app/domain/habits.ts'
import { habitFormFromQuery, habitFormQuery, habitFormSchema } from '#app/forms/habit-forms.ts'
import { habitFormFailure } from '#app/features/habits/habits.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { createHabit, getHabitSuggestions } from '#app/provider/habits.server.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { HabitForm } from '#app/ui/habits/habit-form.tsx'
import { frequencyView, pillarOptions } from '#app/features/habits/habit-views.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { frequencyText } from '#app/ui/habits/habit-figures.tsx'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['habits'] }

/** Suggestions are a help, not the page: without them the form still works. */
const withoutSuggestions = (error: unknown) => {
  if (error instanceof ProviderError) return null
  throw error
}

/**
 * A new habit. The suggestions (from the program's focus pillars) are links that open this page
 * with the form filled in (`?name=…&pillar=…`), so choosing one needs no JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const [t, language, pillars, suggestions] = await Promise.all([
    getFixedT(request, ['habits', 'pages']),
    languageOf(request),
    listPillars().catch(nullWhileResubmitting),
    getHabitSuggestions(auth).catch(withoutSuggestions),
  ])
  const options = pillarOptions(pillars, language, t)
  const names = Object.fromEntries(options.map((option) => [option.slug, option.name]))
  return data({
    meta: { title: `${t('new.title')} · Innera`, description: t('new.lead') },
    defaultValue: habitFormFromQuery(new URL(request.url).searchParams),
    pillars: options,
    weekdayNames: weekdayNames(language, 'long'),
    suggestions: (suggestions?.results ?? []).map((suggestion) => {
      const name = suggestion.name[language] ?? suggestion.name.en
      const unit = suggestion.unit ? (suggestion.unit[language] ?? suggestion.unit.en) : ''
      return {
        key: suggestion.key,
        name,
        pillarName: names[suggestion.pillar] ?? suggestion.pillar,
        frequency: frequencyView(suggestion, language),
        target: suggestion.target === null ? null : `${formatAmount(suggestion.target, language)} ${unit}`.trim(),
        goal: suggestion.goal ? (suggestion.goal.text[language] ?? suggestion.goal.text.en) : null,
        href: `/habitos/novo?${habitFormQuery({
          name,
          pillar: suggestion.pillar,
          frequency: suggestion.frequency,
          weekdays: suggestion.weekdays,
          times_per_week: suggestion.times_per_week === null ? '' : String(suggestion.times_per_week),
          target: suggestion.target === null ? '' : String(suggestion.target),
          unit,
        })}`,
      }
    }),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const submission = parseWithZod(await readFormData(request), { schema: habitFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const habit = await createHabit(auth, submission.value)
    return redirectWithToast(`/habitos#habito-${habit.id}`, { type: 'success', message: { key: 'habits:toast.created', values: { name: habit.name } } })
  } catch (error) {
    const t = await getFixedT(request, ['habits', 'common'])
    const { result, init } = habitFormFailure(submission, error, t)
    return data({ result }, init)
  }
}

export default function NewHabitPage() {
  const { defaultValue, pillars, weekdayNames, suggestions } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()?.result
  const { t } = useTranslation('habits')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/habitos" className="link">
          {t('backToList')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('new.title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('new.lead')}</p>
      {suggestions.length ? (
        <section aria-labelledby="suggestions-title" className="mt-6">
          <h2 id="suggestions-title" className="text-xl font-semibold">
            {t('new.suggestions')}
          </h2>
          <p className="text-sm text-muted">{t('new.suggestionsHint')}</p>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {suggestions.map((suggestion) => (
              <li key={suggestion.key} className="rounded-2xl bg-white p-4 shadow-sm">
                <Link to={suggestion.href} className="link text-lg" preventScrollReset>
                  {suggestion.name}
                </Link>
                <p className="text-sm text-muted">
                  {suggestion.pillarName} · {frequencyText(t, suggestion.frequency)}
                  {suggestion.target ? ` · ${t('new.suggestionTarget', { target: suggestion.target })}` : null}
                </p>
                {suggestion.goal ? <p className="mt-1 text-sm">{t('new.suggestionGoal', { goal: suggestion.goal })}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2 className="mt-8 text-xl font-semibold">{t('new.formTitle')}</h2>
      {/* A chosen suggestion opens the page anew: the key gives the form its new values. */}
      <HabitForm
        key={JSON.stringify(defaultValue)}
        defaultValue={defaultValue}
        lastResult={lastResult}
        pillars={pillars}
        weekdayNames={weekdayNames}
        submitLabel={t('new.submit')}
        pendingLabel={t('new.submitting')}
        cancelTo="/habitos"
      />
    </main>
  )
}
