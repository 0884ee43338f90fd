import { type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { consultationWindow, formatDateTime, formatTime, timeZoneOr } from '#app/domain/appointments.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getAppointment, getConsultation } from '#app/provider/appointments.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { appointmentView } from '#app/features/appointments/appointment-views.server.ts'
import { parseId } from '#app/utils/ids.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { useReloadAt } from '#app/ui/use-reload-at.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

/** Only web links are ever rendered as the meeting link. */
function safeLink(link: string | null): string | null {
  if (!link) return null
  try {
    const url = new URL(link)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null
  } catch {
    return null
  }
}

/**
 * The consultation page: the meeting link while the consultation is open (from 10 minutes before
 * the start to the end), otherwise when it opens; and the notes the professional shared.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const id = parseId(params.id)
  if (id === undefined) throw data({ reason: 'not-found' }, { status: 404 })
  const [t, language, appointment, consultation] = await Promise.all([
    getFixedT(request, 'appointments'),
    languageOf(request),
    getAppointment(auth, id).catch(errorResponseFor),
    getConsultation(auth, id).catch(errorResponseFor),
  ])
  const patientZone = timeZoneOr(user.time_zone)
  const view = appointmentView(appointment, { language, patientZone })
  const now = new Date()
  const window = consultationWindow({ start: appointment.start_time, end: appointment.end_time }, now)
  const link = safeLink(consultation.meeting_link)
  // The provider says whether the room is open; the same rule (decision 0023) says when it opens or ended.
  const state = consultation.status === 'cancelled' ? ('cancelled' as const) : consultation.is_open ? ('open' as const) : window.state
  return data({
    meta: { title: `${t('consultation.title')} · Innera`, description: t('consultation.lead') },
    id,
    // The other person of the consultation.
    professional: roleFromGroups(user.groups) === 'profissional' ? view.patient : view.professional.name,
    when: view.whenLong,
    ends: view.ends,
    zone: view.zone,
    state,
    link: state === 'open' ? link : null,
    opensAt: formatDateTime(consultation.opens_at, patientZone, language),
    opensAtTime: formatTime(consultation.opens_at, patientZone, language),
    /** For the browser to load the page again when the consultation opens (JavaScript on). */
    opensInMs: state === 'before' ? Math.max(0, Date.parse(window.opensAt) - now.getTime()) : null,
    sharedNotes: consultation.shared_notes,
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function ConsultationPage() {
  const { id, professional, when, ends, zone, state, link, opensAt, opensAtTime, opensInMs, sharedNotes } = useLoaderData<typeof loader>()
  const { t } = useTranslation('appointments')
  useReloadAt(opensInMs)
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link className="link" to={`/consultas/${id}`}>
          {t('consultation.backToDetails')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('consultation.title')}</h1>
      <p className="mt-2 text-lg text-muted">{t('consultation.with', { name: professional, when, ends })}</p>
      <p className="text-sm text-muted">{t('picker.zone', { zone })}</p>
      <section aria-labelledby="room-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm" data-testid="consultation-state">
        <h2 id="room-title" className="text-2xl font-semibold">
          {t('consultation.room')}
        </h2>
        {state === 'open' ? (
          link ? (
            <>
              <p className="mt-2">{t('consultation.open')}</p>
              <a className="btn-primary mt-4" href={link} target="_blank" rel="noopener noreferrer">
                {t('consultation.join')}
                <span className="sr-only"> {t('consultation.newWindow')}</span>
              </a>
            </>
          ) : (
            <p className="mt-2">{t('consultation.openNoLink')}</p>
          )
        ) : state === 'before' ? (
          <>
            <p className="mt-2">{t('consultation.opensAt', { when: opensAt })}</p>
            <p className="mt-1 text-sm text-muted">{t('consultation.opensHint', { time: opensAtTime })}</p>
            <Link className="btn-secondary mt-4" to=".">
              {t('consultation.refresh')}
            </Link>
          </>
        ) : state === 'cancelled' ? (
          <p className="mt-2">{t('consultation.cancelled')}</p>
        ) : (
          <p className="mt-2">{t('consultation.ended')}</p>
        )}
      </section>
      <section aria-labelledby="shared-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
        <h2 id="shared-title" className="text-2xl font-semibold">
          {t('consultation.sharedNotes')}
        </h2>
        <p className="mt-2 whitespace-pre-line">{sharedNotes || t('consultation.noSharedNotes')}</p>
      </section>
    </main>
  )
}
