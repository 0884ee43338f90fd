import { http, HttpResponse } from 'msw'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { loader as icsLoader } from '#app/routes/aulas-ao-vivo.$id_.ics.ts'
import { action as classAction, loader as classLoader } from '#app/routes/aulas-ao-vivo.$id.tsx'
import { loader as classesLoader } from '#app/routes/aulas-ao-vivo._index.tsx'
import { loader as myProductsLoader } from '#app/routes/meus-produtos._index/route.tsx'
import { loader as pillarsLoader } from '#app/routes/pilares.tsx'
import { liveClassAnswer, liveClassPage } from '#tests/mocks/classes.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { type SessionUser } from '#app/provider/schemas.ts'
import { demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** The live classes' pages (decision 0058) against the provider's shapes. */

const NOW = new Date('2026-12-01T12:00:00Z')
const cookie = (user: SessionUser = demoPatient) => signedIn(user, { checked: true })
const get = async (url: string, user?: SessionUser) => getRequest(`http://app.test${url}`, await cookie(user))
const post = async (fields: Record<string, string>, user?: SessionUser) => formRequest('http://app.test/aulas-ao-vivo/7', fields, { Cookie: await cookie(user) })
const classPage = async (answer: Record<string, unknown>, user?: SessionUser) => {
  providerMock.use(http.get(providerUrl('/products/zoom/sessions/7/'), () => HttpResponse.json(liveClassAnswer(answer))))
  return (await run(classLoader, await get('/aulas-ao-vivo/7', user), { id: '7' })) as { status: number; headers: Headers; data: { cls: Record<string, unknown>; actions: Record<string, boolean> } }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('live classes', () => {
  test('the list: by day in the user’s zone, the filter and the page passed to the provider, each class worded; private', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const asked: string[] = []
    providerMock.use(
      http.get(providerUrl('/products/zoom/sessions/'), ({ request }) => {
        asked.push(new URL(request.url).search)
        return HttpResponse.json(
          liveClassPage(
            [liveClassAnswer({ reserved: true }), liveClassAnswer({ id: 8, seats_left: 0, access: 'free', starts_at: '2026-12-03T15:30:00.000Z', ends_at: '2026-12-03T16:15:00.000Z' })],
            45,
          ),
        )
      }),
    )
    const page = await run(classesLoader, await get('/aulas-ao-vivo?pilar=sono&page=2'))
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(asked).toEqual(['?pillar=sono&page=2&page_size=20'])
    expect(page.data).toMatchObject({
      pilar: 'sono',
      count: 45,
      page: 2,
      days: [
        {
          day: '2026-12-01',
          title: 'terça-feira, 1 de dezembro de 2026',
          classes: [{ id: 7, title: 'Yoga para dormir melhor', pillar: { name: 'Sono' }, teacher: { name: 'Paula Ribeiro' }, when: 'ter., 1 de dez., 19:00 – 19:50', seatsLeft: 12, access: 'members', reserved: true }],
        },
        { day: '2026-12-03', classes: [{ id: 8, when: 'qui., 3 de dez., 12:30 – 13:15', seatsLeft: 0, access: 'free' }] },
      ],
    })
    expect((page.data as { days: { classes: { zone: string }[] }[] }).days[0]!.classes[0]!.zone).toMatch(/Brasília/)
  })

  test('a class page: reservable; reserved before the window with the opening time; open with the join button; locked with the plans; the teacher as host', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const reservable = await classPage({})
    expect(reservable.headers.get('cache-control')).toBe('private, no-store')
    expect(reservable.data.actions).toEqual({ reserve: true, fullNote: false, join: false, host: false, opensNote: false })

    const reserved = await classPage({ reserved: true })
    expect(reserved.data.cls).toMatchObject({ state: 'before', opensAt: '18:50', reserved: true })
    expect(reserved.data.actions).toMatchObject({ reserve: false, join: false, opensNote: true })

    vi.setSystemTime(new Date('2026-12-01T21:55:00Z'))
    const open = await classPage({ reserved: true, can_join_now: true })
    expect(open.data.cls).toMatchObject({ state: 'open' })
    expect(open.data.actions).toMatchObject({ join: true, host: false, opensNote: false })

    const locked = await classPage({ locked: true })
    expect(locked.data.cls).toMatchObject({ locked: true })
    expect(locked.data.actions).toMatchObject({ reserve: false, join: false })

    const teacher = await classPage({ can_join_now: true }, demoProfessional)
    expect(teacher.data.actions).toMatchObject({ reserve: false, join: false, host: true })
  })

  test('reserving: the seat asked for, back to the page with a toast', async () => {
    const bodies: unknown[] = []
    providerMock.use(
      http.post(providerUrl('/products/sessions/join/'), async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json(liveClassAnswer({ reserved: true }), { status: 201 })
      }),
    )
    const done = await run(classAction, await post({ intent: 'reserve' }), { id: '7' })
    expect(bodies).toEqual([{ session_id: 7 }])
    expect(done.status).toBe(303)
    expect(done.location).toBe('/aulas-ao-vivo/7')
    expect(await toastOf(done.headers)).toMatchObject({ type: 'success', message: { key: 'classes:toast.reserved' } })
  })

  test('joining: to the meeting (Zoom) or, elsewhere, its link on the page; the host to the start link; refusals worded', async () => {
    let answer: () => Response = () => HttpResponse.json({ join_url: 'https://us06web.zoom.us/j/123?pwd=abc', opens_at: '2026-12-01T21:50:00Z', closes_at: '2026-12-01T22:50:00Z', start_url: 'https://us06web.zoom.us/s/123?zak=x' })
    providerMock.use(http.post(providerUrl('/products/zoom/join-class/7/'), () => answer()))
    const join = async (intent = 'join', user?: SessionUser) => run(classAction, await post({ intent }, user), { id: '7' })

    expect((await join()).location).toBe('https://us06web.zoom.us/j/123?pwd=abc')
    expect((await join('host', demoProfessional)).location).toBe('https://us06web.zoom.us/s/123?zak=x')

    answer = () => HttpResponse.json({ join_url: 'http://elsewhere.test/fake-zoom/j/1?pwd=p', opens_at: '2026-12-01T21:50:00Z', closes_at: '2026-12-01T22:50:00Z' })
    expect((await join()).data).toEqual({ error: null, room: { url: 'http://elsewhere.test/fake-zoom/j/1?pwd=p', host: false } })

    answer = () => HttpResponse.json({ detail: 'The room is not open yet.', code: 'not_open_yet', opens_at: '2026-12-01T21:50:00.000Z' }, { status: 409 })
    const early = await join()
    expect(early.status).toBe(400)
    expect(early.data).toEqual({ error: 'A sala ainda não abriu: ela abre às 18:50 (10 minutos antes do início).', room: null })

    answer = () => HttpResponse.json({ detail: 'Zoom away.', code: 'meeting_unavailable' }, { status: 503, headers: { 'Retry-After': '30' } })
    expect((await join()).data).toEqual({ error: 'A sala da aula não está disponível agora. Tente de novo em instantes.', room: null })

    answer = () => HttpResponse.json({ detail: 'Members only.', code: 'locked' }, { status: 403 })
    expect((await join()).data).toMatchObject({ error: 'Esta aula é para assinantes: um plano ou um programa dá acesso a ela.' })
  })

  test('signed out: to sign in, for the pages and the actions', async () => {
    const list = await run(classesLoader, new Request('http://app.test/aulas-ao-vivo'))
    expect(list.status).toBe(302)
    expect(list.location).toMatch(/^\/auth\?mode=login/)
    const act = await run(classAction, formRequest('http://app.test/aulas-ao-vivo/7', { intent: 'reserve' }), { id: '7' })
    expect(act.location).toMatch(/^\/auth\?mode=login/)
  })

  test('the .ics passes through in the page’s language, private; my products list the seats', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    const languages: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/products/zoom/sessions/7/ics/'), ({ request }) => {
        languages.push(new URL(request.url).searchParams.get('lang'))
        return new HttpResponse('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n', { headers: { 'Content-Type': 'text/calendar; charset=utf-8', 'Content-Disposition': 'attachment; filename="aula-yoga.ics"' } })
      }),
      http.get(providerUrl('/products/sessions/upcoming/'), () => HttpResponse.json(liveClassPage([liveClassAnswer({ reserved: true })]))),
      http.get(providerUrl('/products/my-products/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    )
    const file = await run(icsLoader, await get('/aulas-ao-vivo/7/ics?lng=en'), { id: '7' })
    expect(languages).toEqual(['en'])
    expect(file.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="aula-yoga.ics"')
    expect(file.headers.get('cache-control')).toBe('private, no-store')
    expect(file.data).toContain('BEGIN:VCALENDAR')

    const mine = await run(myProductsLoader, await get('/meus-produtos'))
    expect(mine.data).toMatchObject({ products: { liveClasses: [{ id: 7, name: 'Yoga para dormir melhor', href: '/aulas-ao-vivo/7' }] } })
    expect((mine.data as { products: { liveClasses: { when: string }[] } }).products.liveClasses[0]!.when).toMatch(/^ter\., 1 de dez\., 19:00 – 19:50 \(.*Brasília\)$/)
  })

  test('/pilares links the pillars that have upcoming classes, for a signed-in user only', async () => {
    providerMock.use(http.get(providerUrl('/products/zoom/sessions/'), () => HttpResponse.json(liveClassPage([liveClassAnswer(), liveClassAnswer({ id: 8, pillar: 'estresse' })]))))
    const linked = (loaded: { data: unknown }) => (loaded.data as { pillars: { slug: string; hasLiveClasses: boolean }[] }).pillars.filter((pillar) => pillar.hasLiveClasses).map((pillar) => pillar.slug)
    expect(linked(await run(pillarsLoader, new Request('http://app.test/pilares')))).toEqual([])
    expect(linked(await run(pillarsLoader, await get('/pilares')))).toEqual(['estresse', 'sono'])
  })
})
