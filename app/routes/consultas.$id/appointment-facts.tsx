import { Link, type useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { ProfessionalPhoto } from '#app/ui/appointments/professional-card.tsx'
import type { loader } from './appointment-page.server.ts'

type Details = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['appointment']>

/** The appointment's facts: who, when, where in time, the price and the payment, the notes, the refund. */
export function AppointmentFacts({ appointment }: { appointment: Details }) {
  const { t } = useTranslation('appointments')
  const row = 'grid gap-1 border-t border-brand-100 py-3 sm:grid-cols-[12rem_1fr]'
  return (
    <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-6 shadow-sm">
      <h2 id="facts-title" className="sr-only">
        {t('details.facts')}
      </h2>
      <div className="flex items-center gap-4 pb-4">
        <ProfessionalPhoto name={appointment.professional.name} photo={appointment.professional.photo} size="size-16" />
        <div>
          <p className="text-lg font-semibold">{appointment.professional.name}</p>
          <p className="text-muted">
            {appointment.professional.profession}
            {appointment.professional.registration ? ` · ${t('professional.registration', { number: appointment.professional.registration })}` : null}
          </p>
        </div>
      </div>
      <dl>
        {appointment.viewer !== 'paciente' ? (
          <div className={row}>
            <dt className="text-muted">{t('details.patient')}</dt>
            <dd>{appointment.patient}</dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('details.when')}</dt>
          <dd className="font-medium">{t('review.whenValue', { when: appointment.whenLong, ends: appointment.ends })}</dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('details.zone')}</dt>
          <dd>
            {appointment.zone}
            {appointment.professionalTime ? (
              <span className="block text-sm text-muted">{t('details.professionalTime', { when: appointment.professionalTime.when, zone: appointment.professionalTime.zone })}</span>
            ) : null}
          </dd>
        </div>
        <div className={row}>
          <dt className="text-muted">{t('review.duration')}</dt>
          <dd>{t('minutes', { count: appointment.minutes })}</dd>
        </div>
        {appointment.price ? (
          <div className={row}>
            <dt className="text-muted">{t('professional.price')}</dt>
            <dd>{appointment.price}</dd>
          </div>
        ) : null}
        {appointment.line ? (
          <div className={row}>
            <dt className="text-muted">{t('payment.title')}</dt>
            <dd data-testid="appointment-payment">
              {appointment.line}
              {appointment.purchaseId && !appointment.payAt ? (
                <>
                  {' '}
                  <Link className="link" to={`/compras/${appointment.purchaseId}`}>
                    {t('payment.receipt')}
                  </Link>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-muted">{t('details.notes')}</dt>
          <dd className="whitespace-pre-line">{appointment.notes || t('review.noNotes')}</dd>
        </div>
        {appointment.sharedNotes ? (
          <div className={row}>
            <dt className="text-muted">{t('consultation.sharedNotes')}</dt>
            <dd className="whitespace-pre-line">{appointment.sharedNotes}</dd>
          </div>
        ) : null}
        {appointment.status === 'cancelled' && appointment.refund ? (
          <div className={row}>
            <dt className="text-muted">{t('details.refund')}</dt>
            <dd>{appointment.refund === 'full' ? t('details.refundFull') : t('details.refundNone')}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  )
}

/** What the viewer may do next: pay, join, reschedule, cancel, add it to a calendar. */
export function Actions({ appointment }: { appointment: Details }) {
  const { t } = useTranslation('appointments')
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      {/* While its time is held: pay first (a card's page is the payment service's, not ours). */}
      {appointment.payAt ? (
        <a className="btn-primary" href={appointment.payAt}>
          {t('payment.payNow')}
        </a>
      ) : null}
      {appointment.hasConsultation ? (
        <Link className="btn-primary" to={`/consultas/${appointment.id}/consulta`}>
          {t('details.consultation')}
        </Link>
      ) : null}
      {appointment.canReschedule ? (
        <Link className="btn-secondary" to={`/consultas/${appointment.id}/remarcar`}>
          {t('details.reschedule')}
        </Link>
      ) : null}
      {appointment.canCancel ? (
        <Link className="btn-secondary" to="?cancelar=1" preventScrollReset>
          {t('details.cancel')}
        </Link>
      ) : null}
      {/* A file download, not a page: a plain link so the browser saves it. Not for a time only held. */}
      {appointment.held ? null : (
        <a className="btn-secondary" href={`/consultas/${appointment.id}/ics`} download>
          {t('details.addToCalendar')}
        </a>
      )}
    </div>
  )
}
