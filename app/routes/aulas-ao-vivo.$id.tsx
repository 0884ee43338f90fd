import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { pillarNamesOf } from '#app/features/courses/courses.server.ts'
import { classActions, liveClassAction, liveClassView } from '#app/features/live-classes/live-classes.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getLiveClass } from '#app/provider/classes.server.ts'
import { pillarsForDisplay } from '#app/provider/pillars.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { roleFromGroups } from '#app/session/roles.ts'
import { ClassBadges, SeatsLeft } from '#app/ui/classes/class-parts.tsx'
import { LockIcon } from '#app/ui/icons.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { routeId } from '#app/utils/route-ids.server.ts'
import { useReloadAt } from '#app/ui/use-reload-at.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['classes'] }

const PRIVATE = { 'Cache-Control': 'private, no-store' }

/**
 * A live class (`/aulas-ao-vivo/{id}`, decision 0058): what it is, when in the user's zone, the
 * seats left, and what the user may do: take a seat, enter the room from 10 minutes before the
 * start (the teacher as host), add it to a calendar; locked, why and the plans. One provider call
 * (the class); the pillar's name from the process's copy.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request)
  const id = routeId(params)
  const [t, language, pillars, cls] = await Promise.all([
    getFixedT(request, 'classes'),
    languageOf(request),
    pillarsForDisplay().catch(() => []),
    getLiveClass(auth, id).catch(errorResponseFor),
  ])
  const view = liveClassView(cls, { language, timeZone: timeZoneOr(user.time_zone), pillarNames: pillarNamesOf(pillars, language), now: new Date() })
  return data(
    {
      meta: { title: `${view.title} · ${t('list.title')} · Innera`, description: view.description },
      cls: view,
      actions: classActions(view, { role: roleFromGroups(user.groups), userId: user.id }),
    },
    { headers: PRIVATE },
  )
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request)
  return liveClassAction(request, auth, { id: routeId(params), timeZone: timeZoneOr(user.time_zone) })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

export default function LiveClassPage() {
  const { cls, actions } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting'
  const { t } = useTranslation('classes')
  useReloadAt(cls.opensInMs)
  const room = answer && 'room' in answer ? answer.room : null
  const error = answer && 'error' in answer ? answer.error : null
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/aulas-ao-vivo" className="link">
          {t('class.back')}
        </Link>
      </p>
      <div className="mt-4 max-w-3xl">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          <Link to={`/aulas-ao-vivo?pilar=${cls.pillar.slug}`} className="hover:underline">
            {cls.pillar.name}
          </Link>
        </p>
        <h1 className="mt-1 text-3xl font-bold">{cls.title}</h1>
        <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold">{t('class.teacher')}</dt>
          <dd>
            {cls.teacher.name}
            {cls.teacher.profession ? <span className="text-muted"> · {cls.teacher.profession}</span> : null}
          </dd>
          <dt className="font-semibold">{t('class.when')}</dt>
          <dd>
            {cls.whenLong} – {cls.ends} <span className="text-muted">({cls.zone})</span>
          </dd>
          <dt className="font-semibold">{t('class.duration')}</dt>
          <dd>{t('class.minutes', { count: cls.minutes })}</dd>
          <dt className="font-semibold">{t('class.seats')}</dt>
          <dd>
            <SeatsLeft seats={cls.seatsLeft} />
          </dd>
        </dl>
        <div className="mt-4">
          <ClassBadges cls={cls} />
        </div>
        <p className="mt-6 whitespace-pre-line text-lg">{cls.description}</p>
      </div>

      <section aria-labelledby="room-title" className="mt-8 max-w-3xl rounded-2xl bg-white p-6 shadow-sm" data-testid="class-room">
        <h2 id="room-title" className="text-2xl font-semibold">
          {t('class.room')}
        </h2>
        {error ? (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 font-medium text-red-800">
            {error}
          </p>
        ) : null}
        {room ? (
          <div role="status" className="mt-3">
            <p>{t('class.roomReady')}</p>
            <a href={room.url} className="btn-primary mt-3" rel="noopener noreferrer">
              {t(room.host ? 'class.openRoomHost' : 'class.openRoom')}
            </a>
          </div>
        ) : null}
        {cls.state === 'cancelled' ? (
          <p className="mt-3">{t('class.cancelled')}</p>
        ) : cls.state === 'ended' ? (
          <p className="mt-3">{t('class.ended')}</p>
        ) : cls.locked ? (
          <div className="mt-3" data-testid="lock-box">
            <p className="flex items-center gap-2 font-semibold">
              <LockIcon className="size-5 shrink-0 text-brand-700" />
              {t('lock.title')}
            </p>
            <p className="mt-2">{t('lock.why')}</p>
            <Link to="/solucoes?tipo=subscription" className="btn-primary mt-4">
              {t('lock.plans')}
            </Link>
          </div>
        ) : (
          <>
            {cls.reserved ? <p className="mt-3">{t('class.reservedNote')}</p> : null}
            {actions.opensNote ? <p className="mt-3">{t('class.opensAt', { time: cls.opensAt })}</p> : null}
            {actions.fullNote ? <p className="mt-3">{t('class.fullNote')}</p> : null}
            {actions.join || actions.host ? <p className="mt-3">{t('class.open')}</p> : null}
            <div className="mt-4 flex flex-wrap gap-3">
              {(['reserve', 'join', 'host'] as const).map((intent) =>
                actions[intent] ? (
                  <Form method="post" key={intent}>
                    <button type="submit" name="intent" value={intent} className="btn-primary" disabled={busy}>
                      {t(`class.${intent}`)}
                    </button>
                  </Form>
                ) : null,
              )}
              {cls.state === 'before' && actions.opensNote ? (
                <Link to="." className="btn-secondary">
                  {t('class.refresh')}
                </Link>
              ) : null}
            </div>
          </>
        )}
        {cls.state !== 'ended' && cls.state !== 'cancelled' ? (
          <p className="mt-6">
            <a href={`/aulas-ao-vivo/${cls.id}/ics`} className="link" download>
              {t('class.addToCalendar')}
            </a>
          </p>
        ) : null}
      </section>
    </main>
  )
}
