import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { timeZoneChoices } from '#app/domain/time-zones.ts'
import { editorConflicts } from '#app/features/calendar/calendar-conflicts.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { scheduleFormValues, scheduleSchema } from '#app/forms/schedule-form.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { getIntegrationStatus } from '#app/provider/calendar.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { getSchedule, updateSchedule } from '#app/provider/schedule.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { ScheduleEditor } from '#app/ui/schedule-editor.tsx'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['schedule', 'calendar'] }

/**
 * The professional's availability editor (issue 12): weekly slots, settings and date exceptions;
 * with a connected Google Calendar, the conflicts of the next 30 days beside the slots they hit.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  const [t, schedule, calendarStatus] = await Promise.all([getFixedT(request, 'schedule'), getSchedule(auth).catch(errorResponseFor), getIntegrationStatus(auth).catch(orNull)])
  return data({
    meta: { title: `${t('editor.title')} · Innera`, description: t('editor.lead') },
    values: scheduleFormValues(schedule),
    timeZones: timeZoneChoices(schedule.time_zone, new Date()),
    conflicts: await editorConflicts(auth, { status: calendarStatus, schedule, request }),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: 'profissional' })
  const submission = parseWithZod(await readFormData(request), { schema: scheduleSchema })
  // "Add a time", "remove" (conform's list intents) come back with the list changed, nothing saved.
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: submission.status === 'error' ? 400 : 200 })
  try {
    await updateSchedule(auth, submission.value)
  } catch (error) {
    const t = await getFixedT(request, ['common', 'schedule'])
    const { result, init } = replyToFailure(submission, error, t, {
      fields: {
        time_zone: 'time_zone',
        consultation_minutes: 'consultation_minutes',
        buffer_minutes: 'buffer_minutes',
        minimum_notice_hours: 'minimum_notice_hours',
        horizon_days: 'horizon_days',
      },
    })
    return data({ result }, init)
  }
  return redirectWithToast('/agenda/disponibilidade', { type: 'success', message: { key: 'schedule:editor.saved' } })
}

export default function AvailabilityPage() {
  const { t } = useTranslation('schedule')
  const { values, timeZones, conflicts } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()?.result
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('editor.title')}</h1>
      <p className="mt-2 max-w-2xl text-muted">{t('editor.lead')}</p>
      <ScheduleEditor defaultValue={values} lastResult={lastResult} timeZones={timeZones} conflicts={conflicts} />
    </main>
  )
}
