import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { weekdayNames } from '#app/domain/habits.ts'
import { emptyHabitForm, habitFormSchema, habitFormValues } from '#app/forms/habit-forms.ts'
import { habitFormFailure } from '#app/features/habits/habits.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getHabit, updateHabit } from '#app/provider/habits.server.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { nullWhileResubmitting } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { HabitForm } from '#app/ui/habits/habit-form.tsx'
import { pillarOptions } from '#app/features/habits/habit-views.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['habits'] }

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const id = routeId(params)
  // After a failed save with the provider out of reach, the page comes back around what was typed
  // (the form's last result) even though the habit and the pillars cannot be read.
  const [t, language, habit, pillars] = await Promise.all([
    getFixedT(request, ['habits', 'pages']),
    languageOf(request),
    getHabit(auth, id).catch(nullWhileResubmitting),
    listPillars().catch(nullWhileResubmitting),
  ])
  return data({
    meta: { title: `${habit ? t('edit.title', { name: habit.name }) : t('edit.titleUnnamed')} · Innera`, description: t('edit.lead') },
    id,
    name: habit?.name ?? null,
    defaultValue: habit ? habitFormValues(habit) : emptyHabitForm,
    pillars: pillarOptions(pillars, language, t),
    weekdayNames: weekdayNames(language, 'long'),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'paciente' })
  const id = routeId(params)
  const submission = parseWithZod(await readFormData(request), { schema: habitFormSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const habit = await updateHabit(auth, id, submission.value)
    return redirectWithToast(`/habitos/${id}`, { type: 'success', message: { key: 'habits:toast.saved', values: { name: habit.name } } })
  } catch (error) {
    const t = await getFixedT(request, ['habits', 'common'])
    const { result, init } = habitFormFailure(submission, error, t)
    return data({ result }, init)
  }
}

export default function EditHabitPage() {
  const { id, name, defaultValue, pillars, weekdayNames } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()?.result
  const { t } = useTranslation('habits')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to={`/habitos/${id}`} className="link">
          {name === null ? t('edit.backUnnamed') : t('edit.back', { name })}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{name === null ? t('edit.titleUnnamed') : t('edit.title', { name })}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('edit.lead')}</p>
      <HabitForm
        defaultValue={defaultValue}
        lastResult={lastResult}
        pillars={pillars}
        weekdayNames={weekdayNames}
        submitLabel={t('edit.submit')}
        pendingLabel={t('edit.submitting')}
        cancelTo={`/habitos/${id}`}
      />
    </main>
  )
}
