import { ICalCalendar, ICalEventStatus } from 'ical-generator'
import { z } from 'zod'
import { authenticate, roleOf, type Caller } from '#server/auth/authenticate.ts'
import type { Entitlements } from '#server/courses/access.ts'
import { entitlementsOf } from '#server/courses/repository.ts'
import { idParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { apiError, fieldError, notFound, permissionDenied, validationError } from '#server/http/errors.ts'
import { charField, choiceField, idField, instantField, integerField, validate } from '#server/http/fields.ts'
import { paginate, PRIVATE_NO_STORE } from '#server/http/pagination.ts'
import { countClasses, createClass, ensureMeeting, findClass, listClasses, newClassProblems, reserveSeat, seatsHeld, type ClassFilter, type LiveClassView } from '#server/live-classes/repository.ts'
import { classAccess, endOf, joinState, joinWindow } from '#server/live-classes/rules.ts'
import { pillarsInOrder } from '#server/questionnaire/repository.ts'
import type { Services } from '#server/services.ts'
import { photoUrl } from '#server/users/serializers.ts'
import { ZoomUnavailableError } from '#server/zoom/client.ts'

const PRIVATE = { 'Cache-Control': PRIVATE_NO_STORE }
const LANGUAGES = ['pt', 'en', 'es'] as const

const iso = (instant: number) => new Date(instant).toISOString()

// The query and form shapes the handlers check, built once (a zod schema compiles its parser on first use).
const langQuery = z.object({ lang: choiceField(LANGUAGES).optional() })
const sessionIdForm = z.object({ session_id: idField() })

/**
 * The live classes (docs/product.md §7, decision 0058): upcoming sessions by pillar, one
 * session, its .ics, a seat, the meeting's link inside the join window, and an admin's new class.
 * Every role signed in reads; nobody signed in 401.
 */
export function registerLiveClassRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const photoBase = config.providerPublicUrl

  function serialize(view: LiveClassView, caller: Caller, entitlements: Entitlements, reserved: boolean, now: number) {
    const { cls, teacher } = view
    const times = { startsAt: cls.startsAt.getTime(), durationMinutes: cls.durationMinutes, cancelledAt: cls.cancelledAt?.getTime() ?? null }
    const locked = classAccess(entitlements, cls) === null
    const role = roleOf(caller.groups)
    const seatsLeft = cls.seats - cls.seatsTaken
    const mayJoin =
      role === 'paciente' ? !locked && (reserved || seatsLeft > 0) : role === 'admin' || cls.teacherId === caller.user.id
    return {
      id: cls.id,
      slug: cls.slug,
      pillar: cls.pillarSlug,
      pillar_id: view.pillarId,
      title: cls.title,
      description: cls.description,
      teacher: { id: teacher.id, first_name: teacher.firstName, last_name: teacher.lastName, photo: photoUrl(photoBase, teacher.photoName), profession: teacher.profession ?? '' },
      starts_at: iso(times.startsAt),
      ends_at: iso(endOf(times)),
      duration_minutes: cls.durationMinutes,
      seats: cls.seats,
      seats_left: seatsLeft,
      access: cls.access,
      can_join_now: mayJoin && joinState(now, times) === 'open',
      join_opens_at: iso(joinWindow(times).opensAt),
      reserved,
      locked,
      cancelled: cls.cancelledAt !== null,
    }
  }

  async function serializeAll(views: LiveClassView[], caller: Caller, now: number) {
    const [entitlements, seats] = await Promise.all([
      entitlementsOf(db, caller, now),
      seatsHeld(
        db,
        caller.user.id,
        views.map((view) => view.cls.id),
      ),
    ])
    return views.map((view) => serialize(view, caller, entitlements, seats.has(view.cls.id), now))
  }

  /** A DRF page of the classes the filter keeps, for the caller. */
  async function pageOf(c: AppContext, caller: Caller, filter: ClassFilter, now: number) {
    const page = paginate(c, await countClasses(db, filter))
    const rows = await listClasses(db, filter, page)
    return page.envelope(await serializeAll(rows, caller, now))
  }

  const listQuery = z.object({ pillar: z.string().max(50).optional(), from: instantField().optional(), to: instantField().optional() })

  api.endpoint('/products/zoom/sessions/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const query = validate(listQuery, { pillar: c.req.query('pillar') || undefined, from: c.req.query('from') || undefined, to: c.req.query('to') || undefined })
      if (query.pillar !== undefined && !(await pillarsInOrder(db)).some((pillar) => pillar.slug === query.pillar)) throw fieldError('pillar', 'Select a valid choice. That choice is not one of the available choices.')
      return c.json(await pageOf(c, caller, { now, pillarSlug: query.pillar, from: query.from, to: query.to }, now), 200, PRIVATE)
    },
    POST: async (c) => {
      const caller = await authenticate(c, services)
      if (roleOf(caller.groups) !== 'admin') throw permissionDenied()
      const now = clock()
      const input = validate(createSchema, await readFields(c.req.raw))
      const problems = await newClassProblems(db, { pillarSlug: input.pillar, teacherId: input.teacher_id, startsAt: input.starts_at }, now)
      if (Object.keys(problems).length > 0) throw validationError(problems)
      const created = await createClass(
        db,
        {
          pillarSlug: input.pillar,
          title: input.title,
          description: input.description,
          teacherId: input.teacher_id,
          startsAt: new Date(input.starts_at),
          durationMinutes: input.duration_minutes,
          seats: input.seats,
          access: input.access,
        },
        now,
      )
      const [session] = await serializeAll([(await findClass(db, created!.id))!], caller, now)
      return c.json(session, 201, PRIVATE)
    },
  })

  api.endpoint('/products/sessions/upcoming/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      return c.json(await pageOf(c, caller, { now, reservedBy: caller.user.id }, now), 200, PRIVATE)
    },
  })

  async function classOr404(c: AppContext, id = idParam(c, 'id')): Promise<LiveClassView> {
    const view = await findClass(db, id)
    if (!view) throw notFound()
    return view
  }

  api.endpoint('/products/zoom/sessions/:id{[0-9]+}/', {
    GET: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const [session] = await serializeAll([await classOr404(c)], caller, now)
      return c.json(session, 200, PRIVATE)
    },
  })

  api.endpoint('/products/zoom/sessions/:id{[0-9]+}/ics/', {
    GET: async (c) => {
      await authenticate(c, services)
      const { lang } = validate(langQuery, { lang: c.req.query('lang') || undefined })
      const { cls } = await classOr404(c)
      const language = lang ?? 'pt'
      const page = `${config.appPublicUrl}/aulas-ao-vivo/${cls.id}`
      const opens = { pt: 'A sala abre na página da aula 10 minutos antes do início:', en: 'The room opens on the class page 10 minutes before the start:', es: 'La sala se abre en la página de la clase 10 minutos antes del inicio:' }[language]
      const calendar = new ICalCalendar({ prodId: { company: 'Innera', product: 'Aulas ao vivo', language: language.toUpperCase() }, timezone: null })
      calendar.createEvent({
        id: `live-class-${cls.id}@innera`,
        start: cls.startsAt,
        end: new Date(endOf({ startsAt: cls.startsAt.getTime(), durationMinutes: cls.durationMinutes })),
        summary: cls.title[language],
        description: `${cls.description[language]}\n\n${opens} ${page}`,
        url: page,
        status: cls.cancelledAt ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      })
      return c.body(calendar.toString(), 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `attachment; filename="aula-${cls.slug}.ics"`,
        'Cache-Control': PRIVATE_NO_STORE,
      })
    },
  })

  const locked = () => apiError(403, 'This live class is for members: a plan or a program opens it.', { code: 'locked' })
  const closedError = (state: 'ended' | 'cancelled') => apiError(409, state === 'ended' ? 'This class has ended.' : 'This class was cancelled.', { code: state })
  const full = () => apiError(409, 'This class has no seats left.', { code: 'full' })

  /** A patient's seat, taken if they have none yet: whether it was new; 409 full. */
  async function takeSeat(view: LiveClassView, caller: Caller, now: number): Promise<boolean> {
    const outcome = await reserveSeat(db, view.cls, caller.user.id, now)
    if (outcome === 'full') throw full()
    return outcome === 'reserved'
  }

  api.endpoint('/products/sessions/join/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const { session_id } = validate(sessionIdForm, await readFields(c.req.raw))
      const view = await findClass(db, session_id)
      if (!view) throw notFound()
      if (roleOf(caller.groups) !== 'paciente') throw apiError(403, 'Seats are for patients; staff join through join-class.', { code: 'patients_only' })
      const entitlements = await entitlementsOf(db, caller, now)
      if (classAccess(entitlements, view.cls) === null) throw locked()
      const state = joinState(now, { startsAt: view.cls.startsAt.getTime(), durationMinutes: view.cls.durationMinutes, cancelledAt: view.cls.cancelledAt?.getTime() ?? null })
      if (state === 'ended' || state === 'cancelled') throw closedError(state)
      const created = await takeSeat(view, caller, now)
      const [session] = await serializeAll([(await findClass(db, session_id))!], caller, now)
      return c.json(session, created ? 201 : 200, PRIVATE)
    },
  })

  api.endpoint('/products/zoom/join-class/:id{[0-9]+}/', {
    POST: async (c) => {
      const caller = await authenticate(c, services)
      const now = clock()
      const view = await classOr404(c)
      const role = roleOf(caller.groups)
      const isTeacher = view.cls.teacherId === caller.user.id
      if (role === 'profissional' && !isTeacher) throw permissionDenied()
      if (role === 'paciente' && classAccess(await entitlementsOf(db, caller, now), view.cls) === null) throw locked()
      const times = { startsAt: view.cls.startsAt.getTime(), durationMinutes: view.cls.durationMinutes, cancelledAt: view.cls.cancelledAt?.getTime() ?? null }
      const window = joinWindow(times)
      const state = joinState(now, times)
      if (state === 'too_early') throw apiError(409, 'The room is not open yet.', { code: 'not_open_yet', opens_at: iso(window.opensAt) })
      if (state !== 'open') throw closedError(state)
      if (role === 'paciente') await takeSeat(view, caller, now)
      let cls
      try {
        cls = await ensureMeeting(services, view.cls)
      } catch (error) {
        if (!(error instanceof ZoomUnavailableError)) throw error
        services.log({ level: 'warn', msg: 'zoom meeting unavailable at join', class_id: view.cls.id, error: error.message })
        throw apiError(503, 'The meeting is not available right now; try again in a moment.', { code: 'meeting_unavailable' }, { 'Retry-After': '30' })
      }
      const answer = { join_url: cls.joinUrl, opens_at: iso(window.opensAt), closes_at: iso(window.closesAt) }
      return c.json(isTeacher ? { ...answer, start_url: cls.startUrl } : answer, 200, PRIVATE)
    },
  })
}

const localized = (maxLength: number) => z.object({ pt: charField({ maxLength }), en: charField({ maxLength }), es: charField({ maxLength }) })

const createSchema = z.object({
  pillar: charField({ maxLength: 50 }),
  title: localized(120),
  description: localized(2000),
  teacher_id: idField(),
  starts_at: instantField(),
  duration_minutes: integerField({ min: 15, max: 240 }),
  seats: integerField({ min: 1, max: 1000 }),
  access: choiceField(['free', 'members'] as const),
})
