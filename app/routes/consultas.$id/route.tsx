import { type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { StatusBadge } from '#app/ui/appointments/status-badge.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { action } from './appointment-action.server.ts'
import { Actions, AppointmentFacts } from './appointment-facts.tsx'
import { loader } from './appointment-page.server.ts'
import { CancelConfirmation, ManageConsultation } from './appointment-changes.tsx'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['appointments'] }

// The loader (the appointment, what the viewer may do, the cancel's terms) and the three-intent
// action (status, notes, cancel) are the route's server half, beside it.
export { action, loader }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function AppointmentPage() {
  const { appointment, cancel, manage } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('appointments')
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link className="link" to="/consultas">
          {t('details.backToList')}
        </Link>
      </p>
      {appointment ? (
        <>
          <div className="mt-4 flex flex-wrap items-center gap-4">
            <h1 className="text-3xl font-bold">
              {appointment.viewer === 'profissional' ? t('details.titleWithPatient', { name: appointment.patient }) : t('details.titleWith', { name: appointment.professional.name })}
            </h1>
            <StatusBadge status={appointment.status} />
          </div>
          {appointment.messageWith ? (
            <p className="mt-3">
              <Link className="link" to={`/mensagens?com=${appointment.messageWith}`}>
                {t('details.sendMessage')}
              </Link>
            </p>
          ) : null}
          <AppointmentFacts appointment={appointment} />
          {cancel ? <CancelConfirmation terms={cancel.terms} /> : <Actions appointment={appointment} />}
          {manage && !cancel ? <ManageConsultation manage={manage} /> : null}
        </>
      ) : (
        // The appointment could not be read again after a failed submission: the form that was
        // sent comes back around what was typed.
        <>
          <h1 className="mt-4 text-3xl font-bold">{t('details.title')}</h1>
          {reply?.intent === 'notes' ? <ManageConsultation manage={{ canConfirm: false, canClose: false, privateNotes: '', sharedNotes: '' }} /> : <CancelConfirmation terms={[]} />}
        </>
      )}
    </main>
  )
}
