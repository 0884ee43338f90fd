import { Link } from '@remix-run/react'
import type { LiveClassView } from '#app/features/live-classes/live-classes.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { CheckIcon, LockIcon } from '#app/ui/icons.tsx'

/** "12 vagas" or "Esgotada". */
export function SeatsLeft({ seats }: { seats: number }) {
  const { t } = useTranslation('classes')
  return seats > 0 ? <span>{t('card.seats', { count: seats })}</span> : <span className="font-semibold text-ink">{t('card.full')}</span>
}

/** Free, or for members (with the lock when the user has no access), and "Você está inscrito". */
export function ClassBadges({ cls }: { cls: Pick<LiveClassView, 'access' | 'locked' | 'reserved'> }) {
  const { t } = useTranslation('classes')
  return (
    <span className="flex flex-wrap items-center gap-2">
      {cls.access === 'free' ? (
        <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800">{t('card.free')}</span>
      ) : (
        <span className="inline-flex items-center gap-1 rounded-full bg-gray-200 px-3 py-1 text-sm font-medium text-ink">
          {cls.locked ? <LockIcon /> : null}
          {t('card.members')}
        </span>
      )}
      {cls.reserved ? (
        <span className="inline-flex items-center gap-1 rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-800">
          <CheckIcon />
          {t('card.reserved')}
        </span>
      ) : null}
    </span>
  )
}

/** A class in the list: pillar, title, teacher, time in the user's zone, seats, access, a link to it. */
export function LiveClassCard({ cls }: { cls: LiveClassView }) {
  const { t } = useTranslation('classes')
  return (
    <article aria-labelledby={`class-${cls.id}-title`} className="flex h-full flex-col rounded-2xl border border-brand-100 bg-white p-5 shadow-sm">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{cls.pillar.name}</p>
      <h3 id={`class-${cls.id}-title`} className="mt-1 text-xl font-semibold">
        <Link to={`/aulas-ao-vivo/${cls.id}`} className="hover:underline">
          {cls.title}
        </Link>
      </h3>
      <p className="mt-1">{t('card.teacher', { name: cls.teacher.name })}</p>
      <p className="mt-1 text-sm text-muted">
        <span className="sr-only">{t('class.when')}: </span>
        {cls.when} ({cls.zone})
      </p>
      <p className="mt-1 text-sm">
        <SeatsLeft seats={cls.seatsLeft} />
      </p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <ClassBadges cls={cls} />
        <Link to={`/aulas-ao-vivo/${cls.id}`} className="btn-secondary">
          {t('card.details')}
          <span className="sr-only">: {cls.title}</span>
        </Link>
      </div>
    </article>
  )
}
