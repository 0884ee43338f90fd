import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { calendarAction } from './calendar-action.server.ts'
import { calendarPage } from './calendar-page.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { requireUser } from '#app/session/auth.server.ts'
import { CalendarWeek } from '#app/ui/calendar/calendar-week.tsx'
import { ConflictList } from '#app/ui/calendar/conflict-list.tsx'
import { ConnectionPanel } from '#app/ui/calendar/connection-panel.tsx'
import { EventForm } from '#app/ui/calendar/event-form.tsx'
import { SubmitButton } from '#app/ui/forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['calendar'] }

/**
 * The professional's Google Calendar (issue 13): the connection, and once connected the week's
 * events beside the appointments (`?semana=`), the conflicts of the next 30 days, the stats, and
 * forms to create (`?editar=` to edit) and delete (`?excluir=`) events.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'profissional' })
  return data(await calendarPage(request, { auth, user }))
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'profissional' })
  return calendarAction(request, { auth, user })
}

export default function CalendarPage() {
  const { connection, stats, conflicts, week, form, deleting, timeZone, today } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('calendar')
  const statusError = reply?.form === 'status' && reply.intent !== 'delete' ? reply.error : null
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('lead')}</p>
      <ConnectionPanel connection={connection} error={statusError} />
      {stats ? (
        <section aria-labelledby="stats-title" className="mt-8">
          <h2 id="stats-title" className="text-2xl font-semibold">
            {t('stats.title')}
          </h2>
          <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
            {(['totalEvents', 'inneraEvents', 'externalEvents', 'upcomingEvents', 'conflictsDetected'] as const).map((name) => (
              <div key={name} className="rounded-2xl bg-white p-4 shadow-sm">
                <dt className="text-sm text-muted">{t(`stats.${name}`)}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{stats[name]}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      {week ? <ConflictList conflicts={conflicts} /> : null}
      {deleting && week ? (
        <DeleteConfirmation event={deleting} week={week.start} error={reply?.form === 'status' && reply.intent === 'delete' ? reply.error : null} />
      ) : null}
      {week ? <CalendarWeek week={week} timeZone={timeZone} /> : null}
      {form && week ? (
        <EventForm
          key={form.eventId ?? 'new'}
          mode={form.mode}
          eventId={form.eventId}
          defaults={form.defaults}
          notFound={form.notFound}
          today={today}
          timeZone={timeZone}
          week={week.start}
          lastResult={reply?.form === 'event' ? reply.result : undefined}
        />
      ) : null}
    </main>
  )
}

function DeleteConfirmation({ event, week, error }: { event: { id: string; title: string; when: string }; week: string; error: string | null }) {
  const { t } = useTranslation('calendar')
  return (
    <section aria-labelledby="delete-title" className="mt-8 rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
      <h2 id="delete-title" className="text-2xl font-semibold">
        {t('event.deleteTitle', { title: event.title })}
      </h2>
      <p className="mt-2">{t('event.deleteLead', { when: event.when })}</p>
      {error ? (
        <div role="alert" className="mt-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p>{error}</p>
        </div>
      ) : null}
      <Form method="post" className="mt-4 flex flex-wrap gap-3">
        <input type="hidden" name="event_id" value={event.id} />
        <SubmitButton name="intent" value="delete" className="btn-primary bg-red-700 hover:bg-red-800" pendingText={t('event.deleting')}>
          {t('event.deleteConfirm')}
        </SubmitButton>
        <Link className="btn-secondary" to={`?semana=${week}`} preventScrollReset>
          {t('event.keep')}
        </Link>
      </Form>
    </section>
  )
}
