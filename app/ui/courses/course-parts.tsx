import { Link } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import type { CourseView } from '#app/features/courses/courses.server.ts'
import { CheckIcon, LockIcon } from '#app/ui/icons.tsx'

export { CheckIcon, LockIcon }

/** "2 de 3 aulas concluídas" over a bar: the text is the bar's label. */
export function CourseProgress({ id, done, total, className = '' }: { id: string; done: number; total: number; className?: string }) {
  const { t } = useTranslation('courses')
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {t('progress.label', { done, total })}
      </label>
      <progress id={id} max={total || 1} value={done} className="mt-1 h-2 w-full accent-brand-700" />
    </div>
  )
}

/** How the user has the course ("Comprado", "Incluído no seu plano"), or the lock when they do not. */
export function AccessBadge({ access }: { access: CourseView['access'] }) {
  const { t } = useTranslation('courses')
  if (access === 'free') return null
  if (access === null) {
    return (
      <span className="inline-flex items-center gap-1 rounded-full bg-gray-200 px-3 py-1 text-sm font-medium text-ink">
        <LockIcon />
        {t('access.locked')}
      </span>
    )
  }
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-brand-100 px-3 py-1 text-sm font-medium text-brand-800">
      <CheckIcon />
      {t(`access.${access}`)}
    </span>
  )
}

/** The price line: "Gratuito" or the course's price. */
export function CoursePrice({ price, className = 'font-semibold text-brand-800' }: { price: string | null; className?: string }) {
  const { t } = useTranslation('courses')
  return <p className={className}>{price ?? t('price.free')}</p>
}

/** A course in the list: poster, pillar, title, lessons and length, price, how it is had, progress, a link to it. */
export function CourseCard({ course }: { course: CourseView }) {
  const { t } = useTranslation('courses')
  return (
    <article aria-labelledby={`course-${course.id}-title`} className="flex h-full flex-col overflow-hidden rounded-2xl border border-brand-100 bg-white shadow-sm">
      {course.poster ? <img src={course.poster} alt="" width={640} height={360} loading="lazy" className="aspect-video w-full bg-brand-50 object-cover" /> : null}
      <div className="flex flex-1 flex-col p-5">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{course.pillar.name}</p>
        <h3 id={`course-${course.id}-title`} className="mt-1 text-xl font-semibold">
          <Link to={`/cursos/${course.id}`} className="hover:underline">
            {course.title}
          </Link>
        </h3>
        <p className="mt-1 text-sm text-muted">
          {t('card.lessons', { count: course.lessons })} · {course.duration}
        </p>
        {course.stage !== 'new' ? <CourseProgress id={`course-${course.id}-progress`} done={course.progress.done} total={course.progress.total} className="mt-3" /> : null}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
          <div className="flex flex-wrap items-center gap-2">
            {course.access === null || course.access === 'free' ? <CoursePrice price={course.price} /> : null}
            <AccessBadge access={course.access} />
          </div>
          <Link to={`/cursos/${course.id}`} className="btn-secondary">
            {t('card.details')}
            <span className="sr-only">: {course.title}</span>
          </Link>
        </div>
      </div>
    </article>
  )
}

/** What a locked course or lesson is, why it is locked and how to get it: the course in the shop, or a plan. */
export function LockBox({ id, title, why, price, productId, children }: { id: string; title: string; why: string; price: string | null; productId: number | null; children?: React.ReactNode }) {
  const { t } = useTranslation('courses')
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-brand-100 bg-white p-6 shadow-sm" data-testid="lock-box">
      <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
        <LockIcon className="size-5 shrink-0 text-brand-700" />
        {title}
      </h2>
      {children}
      <p className="mt-3">{why}</p>
      {price ? <p className="mt-3 text-lg font-bold text-brand-800">{t('lock.price', { price })}</p> : null}
      <div className="mt-4 flex flex-wrap gap-3">
        {productId ? (
          <Link to={`/produto/${productId}`} className="btn-primary">
            {t('lock.store')}
          </Link>
        ) : null}
        <Link to="/solucoes?tipo=subscription" className="btn-secondary">
          {t('lock.plans')}
        </Link>
      </div>
    </section>
  )
}
