import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data, redirect } from '@remix-run/node'
import { Form, Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '#app/i18n/react.tsx'
import { z } from 'zod'
import { type SelectionMode, choose, initialSelection, reset } from '#app/domain/pillar-selection.ts'
import { PILLAR_ORDER, inPillarOrder, positionOf } from '#app/domain/pillars.ts'
import { type Language } from '#app/i18n/config.ts'
import { getFixedT, i18nServer } from '#app/i18n/i18next.server.ts'
import { listLiveClasses } from '#app/provider/classes.server.ts'
import { listCoursePillars } from '#app/provider/courses.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { listPillars } from '#app/provider/pillars.server.ts'
import { getLatestResult } from '#app/provider/questionnaire.server.ts'
import { errorResponseFor, orNull } from '#app/provider/responses.server.ts'
import { getAuth } from '#app/session/auth.server.ts'
import { hasRole } from '#app/session/roles.ts'
import { PillarIcon } from '#app/ui/pillar-icon.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { pillarCookieHeaders, readPillarCookies } from '#app/features/pillars/pillar-cookies.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'

const modeOf = (value: string | null): SelectionMode => (value === 'single' ? 'single' : 'multiple')

/** The latest result of a signed-in patient; nothing for visitors, other roles or when the provider is away. */
async function latestForPatient(request: Request) {
  const auth = await getAuth(request)
  if (!auth.user || !hasRole(auth.user.groups, 'paciente')) return null
  return getLatestResult(auth).catch((error: unknown) => {
    if (error instanceof ProviderError) return null
    throw error
  })
}

/** The pillars that have courses (decision 0057), for a signed-in user only: visitors cannot open /cursos. */
async function coursePillarsFor(request: Request): Promise<string[]> {
  const auth = await getAuth(request)
  if (!auth.isSignedIn) return []
  const pillars = await listCoursePillars(auth).catch(orNull)
  return pillars?.filter((item) => item.courses_count > 0).map((item) => item.pillar) ?? []
}

/** The pillars that have upcoming live classes (decision 0058), for a signed-in user only, as with the courses. */
async function liveClassPillarsFor(request: Request): Promise<string[]> {
  const auth = await getAuth(request)
  if (!auth.isSignedIn) return []
  const classes = await listLiveClasses(auth, { pageSize: 100 }).catch(orNull)
  return [...new Set(classes?.results.map((item) => item.pillar) ?? [])]
}

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['pillars'] }

export async function loader({ request }: LoaderFunctionArgs) {
  const mode = modeOf(new URL(request.url).searchParams.get('mode'))
  const [t, locale, pillars, cookies, latest, withCourses, withLiveClasses] = await Promise.all([
    getFixedT(request, 'pillars'),
    i18nServer().getLocale(request),
    listPillars().catch(errorResponseFor),
    readPillarCookies(request),
    latestForPatient(request),
    coursePillarsFor(request),
    liveClassPillarsFor(request),
  ])
  // Signed-in patients: the completed pillars mirror the provider's latest result (docs/product.md §3).
  const completed = latest ? Object.keys(latest.scores) : cookies.completed
  const state = initialSelection(mode, completed, cookies.selection?.mode === mode ? cookies.selection.selected : undefined)
  const lng = locale as Language
  return data({
    meta: { title: `${t('title')} · Innera`, description: t('lead') },
    state,
    pillars: inPillarOrder(pillars).map((pillar, index) => ({
      slug: pillar.slug,
      icon: pillar.icon,
      position: positionOf(index),
      name: pillar.name[lng] ?? pillar.name.en,
      description: pillar.description[lng] ?? pillar.description.en,
      hasCourses: withCourses.includes(pillar.slug),
      hasLiveClasses: withLiveClasses.includes(pillar.slug),
    })),
  })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

const actionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('choose'), mode: z.enum(['single', 'multiple']), pillar: z.enum(PILLAR_ORDER) }),
  z.object({ intent: z.literal('reset'), mode: z.enum(['single', 'multiple']) }),
])

/** Every change is a small POST, so the selection works without JavaScript. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = actionSchema.safeParse(Object.fromEntries(await readFormData(request)))
  if (!parsed.success) throw data({ reason: 'invalid' }, { status: 400 })
  const { mode } = parsed.data
  const cookies = await readPillarCookies(request)
  const current = initialSelection(mode, cookies.completed, cookies.selection?.mode === mode ? cookies.selection.selected : undefined)
  const next = parsed.data.intent === 'reset' ? reset(current) : choose(current, parsed.data.pillar)
  return redirect(`/pilares?mode=${mode}`, { status: 303, headers: await pillarCookieHeaders(next) })
}

export default function PillarSelection() {
  const { pillars, state } = useLoaderData<typeof loader>()
  const { t } = useTranslation('pillars')
  return (
    <main id="main" className="container-page py-10">
      <h1 className="text-3xl font-bold">{t('title')}</h1>
      <p className="mt-2 max-w-2xl text-lg text-muted">{t('lead')}</p>

      <nav aria-label={t('modeLabel')} className="mt-6 inline-grid grid-cols-2 gap-1 rounded-full bg-brand-50 p-1">
        {(['single', 'multiple'] as const).map((mode) => (
          <Link
            key={mode}
            to={`/pilares?mode=${mode}`}
            aria-current={state.mode === mode ? 'page' : undefined}
            className="min-h-11 rounded-full px-4 py-2 text-center font-semibold text-brand-800 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white"
          >
            {t(`modes.${mode}`)}
          </Link>
        ))}
      </nav>
      <p className="mt-3 text-muted">{t(`modes.${state.mode}Hint`)}</p>

      <ol className="mt-8 space-y-4">
        {pillars.map((pillar) => {
          const selected = state.selected.includes(pillar.slug as never)
          const completed = state.completed.includes(pillar.slug as never)
          return (
            <li key={pillar.slug} data-position={pillar.position} className={`sm:w-2/3 ${pillar.position === 'right' ? 'sm:ml-auto' : ''}`}>
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="choose" />
                <input type="hidden" name="mode" value={state.mode} />
                <button
                  type="submit"
                  name="pillar"
                  value={pillar.slug}
                  aria-pressed={selected}
                  className="flex w-full items-start gap-4 rounded-2xl border-2 border-brand-100 bg-white p-5 text-left shadow-sm hover:border-brand-600 aria-pressed:border-brand-700 aria-pressed:bg-brand-50"
                >
                  <PillarIcon icon={pillar.icon} className="size-10 shrink-0 text-brand-700" />
                  <span className="min-w-0 flex-1 break-words">
                    <span className="flex flex-wrap items-center gap-2 text-xl font-semibold">
                      {pillar.name}
                      {completed ? <span className="rounded-full bg-brand-100 px-2 py-0.5 text-sm font-medium text-brand-800">{t('completed')}</span> : null}
                    </span>
                    <span className="mt-1 block text-muted">{pillar.description}</span>
                  </span>
                  <span className="mt-1 shrink-0 text-sm font-semibold text-brand-800">{selected ? t('selected') : t('choose')}</span>
                </button>
              </Form>
              <p className="mt-1 flex flex-wrap gap-x-4 px-5 text-sm">
                <Link to={`/solucoes?pilar=${pillar.slug}`} className="link">
                  {t('solutionsLink', { pillar: pillar.name })}
                </Link>
                {pillar.hasCourses ? (
                  <Link to={`/cursos?pilar=${pillar.slug}`} className="link">
                    {t('coursesLink', { pillar: pillar.name })}
                  </Link>
                ) : null}
                {pillar.hasLiveClasses ? (
                  <Link to={`/aulas-ao-vivo?pilar=${pillar.slug}`} className="link">
                    {t('liveClassesLink', { pillar: pillar.name })}
                  </Link>
                ) : null}
              </p>
            </li>
          )
        })}
      </ol>

      <div className="mt-8 flex flex-wrap items-center gap-3">
        <p role="status" className="mr-auto text-muted">
          {t('count', { count: state.selected.length })}
        </p>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="mode" value={state.mode} />
          <button type="submit" name="intent" value="reset" className="btn-secondary">
            {t('reset')}
          </button>
        </Form>
        <Link to="/dashboard" className="btn-primary">
          {t('continue')}
        </Link>
      </div>
    </main>
  )
}
