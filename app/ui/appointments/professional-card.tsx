import type { ReactNode } from 'react'
import { useTranslation } from '#app/i18n/react.tsx'
import { PersonPhoto } from '#app/ui/person-photo.tsx'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import type { ProfessionalView } from '#app/features/appointments/appointment-views.server.ts'

/** A professional's photo, or their initials when there is none. */
export const ProfessionalPhoto = PersonPhoto

/** Who the professional is and what a consultation costs; `heading` is the name's level on the page. */
export function ProfessionalCard({ professional, heading: Heading = 'h2', children }: { professional: ProfessionalView; heading?: 'h1' | 'h2'; children?: ReactNode }) {
  const { t } = useTranslation('appointments')
  return (
    <article className="flex flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm sm:flex-row" aria-labelledby={`professional-${professional.id}`}>
      <ProfessionalPhoto name={professional.name} photo={professional.photo} />
      <div className="min-w-0 flex-1 space-y-2">
        <Heading id={`professional-${professional.id}`} className={Heading === 'h1' ? 'text-3xl font-bold' : 'text-xl font-semibold'}>
          {professional.name}
        </Heading>
        <p className="text-muted">
          {professional.profession}
          {professional.registration ? ` · ${t('professional.registration', { number: professional.registration })}` : null}
        </p>
        {professional.pillars.length ? (
          <ul className="flex flex-wrap gap-2" aria-label={t('professional.pillars')}>
            {professional.pillars.map((pillar) => (
              <li key={pillar.slug} className="flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-800">
                <PillarIcon icon={pillar.icon} className="size-4" />
                {pillar.name}
              </li>
            ))}
          </ul>
        ) : null}
        {professional.bio ? <p>{professional.bio}</p> : null}
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          {professional.languages.length ? (
            <div>
              <dt className="inline text-muted">{t('professional.languages')}: </dt>
              <dd className="inline">{professional.languages.join(', ')}</dd>
            </div>
          ) : null}
          <div>
            <dt className="inline text-muted">{t('professional.length')}: </dt>
            <dd className="inline">{t('minutes', { count: professional.minutes })}</dd>
          </div>
          <div>
            <dt className="inline text-muted">{t('professional.price')}: </dt>
            <dd className="inline font-semibold">{professional.price}</dd>
          </div>
          <div>
            <dt className="inline text-muted">{t('professional.nextFree')}: </dt>
            <dd className="inline">{professional.nextFree ?? t('professional.noFreeTime')}</dd>
          </div>
        </dl>
        {professional.zoneLabel ? <p className="text-sm text-muted">{t('picker.zone', { zone: professional.zoneLabel })}</p> : null}
        {children}
      </div>
    </article>
  )
}
