import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { formatDateTime, timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { type ClassForm, adminClassAction, classFacts, editorDefaults, scheduleDefaults } from '#app/features/admin/admin-classes.server.ts'
import { pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getAdminClass } from '#app/provider/admin-classes.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CancelForm, ClassTextsEditor, NewClassEditor, ScheduleForm, StateBadge } from '#app/ui/admin-class-forms.tsx'
import { DiscardDraftForm } from '#app/ui/content-editor-parts.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-classes'] }

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

function slugParam(params: Record<string, string | undefined>): string {
  const slug = params.slug ?? ''
  if (slug.length > 120 || !SLUG.test(slug)) throw data({ reason: 'not-found' }, { status: 404 })
  return slug
}

/**
 * One live class for an admin (`/admin/live-classes/{slug}`, decision 0067). A class not yet
 * published: its draft in the whole editor. A published class ahead: what it is, its texts'
 * editor (a draft until published), its schedule (a new time tells the seat holders) and its
 * cancellation (with a reason, saying how many people are told). Started or cancelled: read only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const slug = slugParam(params)
  const timeZone = timeZoneOr(user.time_zone)
  const [t, language, pillars, detail] = await Promise.all([getFixedT(request, 'admin-classes'), languageOf(request), pillarsForDisplay().catch(() => []), getAdminClass(auth, slug).catch(errorResponseFor)])
  const { published, draft } = detail
  // The teachers to choose from: only a class not yet published has the choice.
  const teachers = published ? [] : await listProfessionals(auth).catch(errorResponseFor)
  const pillarNames = pillarNamesOf(pillars, language)
  const name = published ? published.title[language] || published.title.pt : draft?.title[language] || draft?.title.pt || slug
  return data(
    {
      meta: { title: `${name} · ${t('list.title')} · Innera`, description: t('list.lead') },
      slug,
      name,
      zone: timeZoneLabel(timeZone, language, published?.starts_at ?? new Date()),
      facts: published ? classFacts(published, { language, timeZone, pillarNames }) : null,
      draftSince: draft ? formatDateTime(draft.updated_at, timeZone, language) : null,
      defaults: editorDefaults(published, draft, timeZone),
      schedule: published ? scheduleDefaults(published, timeZone) : null,
      pillars: PILLAR_ORDER.map((value) => ({ value, label: pillarNames[value] ?? value })),
      teachers: teachers.map((person) => ({ value: String(person.id), label: [person.first_name, person.last_name].filter(Boolean).join(' ') || person.username })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const slug = slugParam(params)
  const detail = await getAdminClass(auth, slug).catch(() => null)
  return adminClassAction(request, auth, { slug, published: detail?.published != null, timeZone: timeZoneOr(user.time_zone) })
}

export default function AdminLiveClass() {
  const { name, zone, facts, draftSince, defaults, schedule, pillars, teachers } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('admin-classes')
  const { t: tAdmin } = useTranslation('admin')
  const resultOf = (form: ClassForm) => (reply && 'form' in reply && reply.form === form ? reply.result : undefined)
  const row = 'grid gap-1 border-t border-brand-100 py-3 sm:grid-cols-[12rem_1fr]'
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/live-classes">
          {t('back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{name}</h1>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        {facts ? <StateBadge state={facts.state} /> : <span className="rounded-full bg-gray-200 px-3 py-1 text-sm font-medium text-ink">{tAdmin('content.unpublished')}</span>}
        {draftSince ? <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900">{tAdmin('content.draft')}</span> : null}
      </div>
      {draftSince ? (
        <div className="mt-4 flex max-w-3xl flex-wrap items-center justify-between gap-3 rounded-2xl bg-amber-50 p-4">
          <p>{tAdmin('content.draftSince', { date: draftSince })}</p>
          <DiscardDraftForm name={name} />
        </div>
      ) : null}

      {facts ? (
        <>
          <section aria-labelledby="facts-title" className="mt-6 max-w-3xl rounded-2xl bg-white p-4 shadow-sm sm:p-6">
            <h2 id="facts-title" className="text-xl font-semibold">
              {t('facts.title')}
            </h2>
            <dl className="mt-2">
              <div className={row}>
                <dt className="text-muted">{t('facts.when')}</dt>
                <dd>
                  {facts.when} <span className="text-muted">({facts.zone})</span>
                </dd>
              </div>
              <div className={row}>
                <dt className="text-muted">{t('facts.pillarAndTeacher')}</dt>
                <dd>
                  {facts.pillar} · {facts.teacher}
                </dd>
              </div>
              <div className={row}>
                <dt className="text-muted">{t('form.access')}</dt>
                <dd>{t(`access.${facts.access}`)}</dd>
              </div>
              <div className={row}>
                <dt className="text-muted">{t('facts.seats')}</dt>
                <dd>{t('list.seats', { taken: facts.seatsTaken, total: facts.seats })}</dd>
              </div>
              <div className={row}>
                <dt className="text-muted">{t('facts.meeting')}</dt>
                <dd>{facts.hasMeeting ? t('facts.meetingReady') : t('facts.meetingLater')}</dd>
              </div>
            </dl>
            <p className="mt-4">
              <Link className="link" to={`/aulas-ao-vivo/${facts.id}`}>
                {t('facts.memberPage')}
              </Link>
            </p>
          </section>
          {facts.state === 'scheduled' && schedule ? (
            <div className="mt-6 grid max-w-3xl gap-6">
              <ClassTextsEditor defaults={defaults} name={name} lastResult={resultOf('editor')} />
              <ScheduleForm defaults={schedule} zone={zone} seatsTaken={facts.seatsTaken} lastResult={resultOf('schedule')} />
              <CancelForm seatsTaken={facts.seatsTaken} lastResult={resultOf('cancel')} />
            </div>
          ) : (
            <p role="status" className="mt-6 max-w-3xl rounded-2xl bg-white p-4 text-muted">
              {t(facts.state === 'cancelled' ? 'closed.cancelled' : 'closed.started')}
            </p>
          )}
        </>
      ) : (
        <div className="mt-6 max-w-3xl">
          <NewClassEditor defaults={defaults} askSlug={false} name={name} zone={zone} pillars={pillars} teachers={teachers} lastResult={resultOf('editor')} />
        </div>
      )}
    </main>
  )
}
