import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { PILLAR_ORDER } from '#app/domain/pillars.ts'
import { timeZoneLabel, timeZoneOr } from '#app/domain/appointments.ts'
import { adminClassAction, editorDefaults } from '#app/features/admin/admin-classes.server.ts'
import { pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { listProfessionals } from '#app/provider/users.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { NewClassEditor } from '#app/ui/admin-class-forms.tsx'
import { pageMeta } from '#app/utils/meta.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['admin', 'admin-classes'] }

/**
 * A new live class (`/admin/live-classes/new`, decision 0067): its address, texts in the three
 * languages, pillar, teacher (an active professional), start in the admin's zone, length, seats and
 * access; saved as a draft (then at `/admin/live-classes/{slug}`) or published with its Zoom meeting.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  const timeZone = timeZoneOr(user.time_zone)
  const [t, language, pillars, teachers] = await Promise.all([getFixedT(request, 'admin-classes'), languageOf(request), pillarsForDisplay().catch(() => []), listProfessionals(auth).catch(errorResponseFor)])
  const names = pillarNamesOf(pillars, language)
  return data(
    {
      meta: { title: `${t('new.title')} · Innera`, description: t('new.lead') },
      zone: timeZoneLabel(timeZone, language, new Date()),
      defaults: editorDefaults(null, null, timeZone),
      pillars: PILLAR_ORDER.map((slug) => ({ value: slug, label: names[slug] ?? slug })),
      teachers: teachers.map((person) => ({ value: String(person.id), label: [person.first_name, person.last_name].filter(Boolean).join(' ') || person.username })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export async function action({ request }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: 'admin' })
  return adminClassAction(request, auth, { slug: null, published: false, timeZone: timeZoneOr(user.time_zone) })
}

export default function NewLiveClass() {
  const { zone, defaults, pillars, teachers } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('admin-classes')
  return (
    <main id="main">
      <p>
        <Link className="link" to="/admin/live-classes">
          {t('back')}
        </Link>
      </p>
      <h1 className="mt-4 text-3xl font-bold">{t('new.title')}</h1>
      <p className="mt-2 max-w-3xl text-muted">{t('new.lead')}</p>
      <div className="mt-6 max-w-3xl">
        <NewClassEditor defaults={defaults} askSlug name={t('new.title')} zone={zone} pillars={pillars} teachers={teachers} lastResult={reply && 'result' in reply ? reply.result : undefined} />
      </div>
    </main>
  )
}
