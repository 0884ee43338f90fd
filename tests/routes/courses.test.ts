import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { lessonPageView } from '#app/features/courses/courses.server.ts'
import { action as lessonAction, loader as lessonLoader } from '#app/routes/aula.$id.tsx'
import { action as progressAction } from '#app/routes/aula.$id_.progresso.ts'
import { loader as courseLoader } from '#app/routes/cursos.$id.tsx'
import { loader as coursesLoader } from '#app/routes/cursos._index.tsx'
import { loader as myProductsLoader } from '#app/routes/meus-produtos._index/route.tsx'
import { loader as pillarsLoader } from '#app/routes/pilares.tsx'
import { courseAnswer, coursePage, coursePillarsAnswer, freeCourseAnswer, lessonAnswer, lessonDetailAnswer, lockedLessonAnswer } from '#tests/mocks/courses.ts'
import { productPage } from '#tests/mocks/products.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoPatient, signedIn } from '#tests/mocks/session.ts'

/** Courses, lessons and progress (decision 0057) against the provider's shapes. */

const get = async (url: string) => getRequest(`http://app.test${url}`, await signedIn(demoPatient, { checked: true }))

describe('courses', () => {
  test('the list: by pillar, the filter passed to the provider, an unknown pillar showing all; each card worded; private', async () => {
    const asked: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/videos/courses/pillars/'), () => HttpResponse.json(coursePillarsAnswer)),
      http.get(providerUrl('/videos/courses/'), ({ request }) => {
        const pillar = new URL(request.url).searchParams.get('pillar')
        asked.push(pillar)
        return HttpResponse.json(coursePage([freeCourseAnswer, courseAnswer()].filter((course) => !pillar || course.pillar === pillar)))
      }),
    )
    const sleep = await run(coursesLoader, await get('/cursos?pilar=sono'))
    expect(sleep.headers.get('cache-control')).toBe('private, no-store')
    expect(sleep.data).toMatchObject({
      pilar: 'sono',
      count: 1,
      groups: [
        {
          slug: 'sono',
          name: 'Sono',
          courses: [{ id: 1, title: 'Sono reparador', poster: '/media/lessons/sono-1.jpg', lessons: 3, duration: '1:35', price: 'R$\u00a0197,00', access: 'owned', progress: { done: 1, total: 3 }, stage: 'started' }],
        },
      ],
    })
    const all = await run(coursesLoader, await get('/cursos?pilar=magia&lng=en'))
    expect(all.data).toMatchObject({ pilar: '', count: 2, groups: [{ slug: 'exercicio', name: 'Physical activity', courses: [{ id: 2, price: null, access: 'free', stage: 'new' }] }, { slug: 'sono' }] })
    expect(asked).toEqual(['sono', null])
  })

  test('a course: unlocked, "continue" goes to the next lesson; locked, the product and the free preview; unknown, a 404', async () => {
    const lessons = [lessonAnswer(1, { progress: { position_seconds: 30, watched_seconds: 30, completed: true, completed_at: '2026-09-20T12:00:00Z' } }), lessonAnswer(2), lessonAnswer(3)]
    let course = courseAnswer()
    providerMock.use(
      http.get(providerUrl('/videos/courses/1/'), () => HttpResponse.json(course)),
      http.get(providerUrl('/videos/lessons/'), ({ request }) => (new URL(request.url).searchParams.get('course') === '1' ? HttpResponse.json(lessons) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))),
      http.get(providerUrl('/videos/courses/7/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
    )
    const open = await run(courseLoader, await get('/cursos/1'), { id: '1' })
    expect(open.data).toMatchObject({
      course: { title: 'Sono reparador', pillar: { slug: 'sono', name: 'Sono' }, stage: 'started', progress: { done: 1, total: 3 } },
      next: 12,
      previewId: null,
      lessons: [
        { id: 11, number: 1, duration: '0:30', done: true, preview: true, locked: false },
        { id: 12, number: 2, done: false, preview: false },
        { id: 13, number: 3 },
      ],
    })

    course = courseAnswer({ access: null, progress: { completed_lessons: 0, total_lessons: 3, percent: 0, started: false, next_lesson_id: 11, next_position_seconds: 0 } })
    lessons.splice(0, 3, lessonAnswer(1), lessonAnswer(2, { locked: true }), lessonAnswer(3, { locked: true }))
    const locked = await run(courseLoader, await get('/cursos/1'), { id: '1' })
    expect(locked.data).toMatchObject({ course: { access: null, productId: 9, price: 'R$\u00a0197,00' }, next: null, previewId: 11, lessons: [{ preview: true, locked: false }, { locked: true }, { locked: true }] })

    expect((await run(courseLoader, await get('/cursos/7'), { id: '7' })).status).toBe(404)
    expect((await run(courseLoader, await get('/cursos/abc'), { id: 'abc' })).status).toBe(404)
  })

  test('a lesson: the signed video at its resume point, captions in pt, en and es with the page’s own on, the transcript; locked, no media at all', async () => {
    let answer = lessonDetailAnswer()
    const languages: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/videos/lessons/12/'), ({ request }) => {
        languages.push(new URL(request.url).searchParams.get('lang'))
        return HttpResponse.json(answer)
      }),
    )
    const page = await run(lessonLoader, await get('/aula/12?lng=en'), { id: '12' })
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(languages).toEqual(['en'])
    expect(page.data).toMatchObject({
      lesson: {
        title: 'Sleep lesson 2',
        number: 2,
        total: 3,
        course: { id: 1, title: 'Restful sleep' },
        previousId: 11,
        nextId: 13,
        completed: false,
        position: 8,
        video: {
          src: '/media/lessons/sono-2.mp4?expires=1790000000&signature=abc123#t=8',
          file: '/media/lessons/sono-2.mp4?expires=1790000000&signature=abc123',
          type: 'video/mp4',
          size: '1.2 MB',
          poster: '/media/lessons/sono-2.jpg',
          captions: [
            { lang: 'pt', label: 'Português', default: false, src: '/media/lessons/sono-2.pt.vtt?expires=1790000000&signature=abc123' },
            { lang: 'en', label: 'English', default: true },
            { lang: 'es', label: 'Español', default: false },
          ],
        },
        transcript: [{ at: '0:00', text: 'Boa noite.' }, { at: '0:04' }],
        lock: null,
      },
    })

    answer = lockedLessonAnswer()
    const locked = await run(lessonLoader, await get('/aula/12'), { id: '12' })
    expect(locked.data).toMatchObject({ lesson: { video: null, transcript: [], lock: { productId: 9, price: 'R$\u00a0197,00' } } })
    expect(JSON.stringify(locked.data)).not.toMatch(/mp4|vtt|signature/)
  })

  test('with MEDIA_BASE_URL, the video plays from there and its captions and poster still come through this site', async () => {
    const cdn = 'https://cdn.example.com/innera'
    const onCdn = (file: string) => `${cdn}/media/lessons/${file}?expires=1790000000&signature=abc123`
    const answer = lessonDetailAnswer({
      poster_url: `${cdn}/media/lessons/sono-2.jpg`,
      video: { url: onCdn('sono-2.mp4'), type: 'video/mp4', bytes: 1_234_567, expires_at: '2026-09-21T15:00:00.000Z' },
      captions: ['pt', 'en', 'es'].map((lang) => ({ lang, url: onCdn(`sono-2.${lang}.vtt`) })),
    }) as unknown as Parameters<typeof lessonPageView>[0]
    const t = ((key: string) => key) as unknown as Parameters<typeof lessonPageView>[1]['t']
    const view = lessonPageView(answer, { language: 'pt', t, mediaBase: cdn })
    expect(view.video).toMatchObject({
      src: `${onCdn('sono-2.mp4')}#t=8`,
      file: onCdn('sono-2.mp4'),
      poster: '/media/lessons/sono-2.jpg',
      captions: [{ lang: 'pt', src: '/media/lessons/sono-2.pt.vtt?expires=1790000000&signature=abc123' }, { lang: 'en' }, { lang: 'es' }],
    })
    // The same answer without the app knowing the base: nothing it would not serve.
    expect(lessonPageView(answer, { language: 'pt', t, mediaBase: undefined }).video).toBeNull()
  })

  test('"mark as done": back to the lesson with a toast; the provider failing keeps the page and says why', async () => {
    let fail = false
    providerMock.use(
      http.post(providerUrl('/videos/lessons/12/complete/'), () =>
        fail ? HttpResponse.json({ detail: 'boom' }, { status: 500 }) : HttpResponse.json({ position_seconds: 8.5, watched_seconds: 8, completed: true, completed_at: '2026-09-21T12:00:00Z' }),
      ),
    )
    const complete = async () => run(lessonAction, formRequest('http://app.test/aula/12', { intent: 'complete' }, { Cookie: await signedIn(demoPatient, { checked: true }) }), { id: '12' })
    const done = await complete()
    expect(done.location).toBe('/aula/12')
    expect(await toastOf(done.headers)).toMatchObject({ type: 'success', message: { key: 'courses:toast.completed' } })

    fail = true
    const failed = await complete()
    expect(failed.status).toBe(400)
    expect(failed.data).toEqual({ error: 'Erro interno do servidor' })
  })

  test('progress reports: the numbers passed through, 429 kept quietly, bad input refused before the provider, signed out 401', async () => {
    const bodies: unknown[] = []
    let throttle = false
    providerMock.use(
      http.post(providerUrl('/videos/lessons/12/progress/'), async ({ request }) => {
        bodies.push(await request.json())
        if (throttle) return HttpResponse.json({ detail: 'Too soon.', code: 'throttled' }, { status: 429, headers: { 'Retry-After': '2' } })
        return HttpResponse.json({ position_seconds: 14, watched_seconds: 13.5, completed: false, completed_at: null })
      }),
    )
    const report = async (fields: Record<string, string>, cookie?: string) =>
      run(progressAction, formRequest('http://app.test/aula/12/progresso', fields, { Cookie: cookie ?? (await signedIn(demoPatient, { checked: true })) }), { id: '12' })

    const sent = await report({ position_seconds: '14', watched_seconds: '5.5' })
    expect(sent.status).toBe(200)
    expect(sent.headers.get('cache-control')).toBe('private, no-store')
    expect(sent.data).toEqual({ progress: { position_seconds: 14, watched_seconds: 13.5, completed: false, completed_at: null } })
    expect(bodies).toEqual([{ position_seconds: 14, watched_seconds: 5.5 }])

    throttle = true
    const throttled = await report({ position_seconds: '19', watched_seconds: '5' })
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('retry-after')).toBe('2')

    const refused: Record<string, string>[] = [{ position_seconds: '19', watched_seconds: '61' }, { position_seconds: '', watched_seconds: '5' }, { position_seconds: '-1', watched_seconds: '5' }, { position_seconds: '1e3', watched_seconds: '5' }, {}]
    for (const bad of refused) expect((await report(bad)).status).toBe(400)
    expect(bodies).toHaveLength(2)
    expect((await report({ position_seconds: '1', watched_seconds: '1' }, 'other=1')).status).toBe(401)
  })

  test('signed out: every page sends to sign in, and back', async () => {
    expect((await run(coursesLoader, new Request('http://app.test/cursos?pilar=sono'))).location).toBe(`/auth?mode=login&redirectTo=${encodeURIComponent('/cursos?pilar=sono')}`)
    expect((await run(courseLoader, new Request('http://app.test/cursos/1'), { id: '1' })).location).toMatch(/^\/auth\?mode=login/)
    expect((await run(lessonLoader, new Request('http://app.test/aula/12'), { id: '12' })).location).toMatch(/^\/auth\?mode=login/)
  })

  test('/pilares links the pillars that have courses for a signed-in user; a visitor’s page does not ask', async () => {
    let asked = 0
    providerMock.use(
      http.get(providerUrl('/videos/courses/pillars/'), () => {
        asked += 1
        return HttpResponse.json(coursePillarsAnswer)
      }),
    )
    const courses = (loaded: { data: unknown }) => (loaded.data as { pillars: { slug: string; hasCourses: boolean }[] }).pillars.filter((pillar) => pillar.hasCourses).map((pillar) => pillar.slug)
    expect(courses(await run(pillarsLoader, new Request('http://app.test/pilares')))).toEqual([])
    expect(asked).toBe(0)
    expect(courses(await run(pillarsLoader, await get('/pilares')))).toEqual(['exercicio', 'sono'])
  })

  test('my products: the courses the user has or started, with their progress and where to go on', async () => {
    const mine: (string | null)[] = []
    providerMock.use(
      http.get(providerUrl('/products/my-products/'), () => HttpResponse.json(productPage([]))),
      http.get(providerUrl('/subscriptions/'), () => HttpResponse.json(productPage([]))),
      http.get(providerUrl('/videos/courses/'), ({ request }) => {
        mine.push(new URL(request.url).searchParams.get('mine'))
        return HttpResponse.json(coursePage([courseAnswer(), courseAnswer({ id: 3, progress: { completed_lessons: 3, total_lessons: 3, percent: 100, started: true, next_lesson_id: null, next_position_seconds: null } })]))
      }),
    )
    const page = await run(myProductsLoader, await get('/meus-produtos'))
    expect(mine).toEqual(['true'])
    expect(page.data).toMatchObject({
      products: {
        courses: [
          { id: 1, name: 'Sono reparador', href: '/cursos/1', progress: { done: 1, total: 3 }, next: { href: '/aula/12', label: 'continue' } },
          { id: 3, href: '/cursos/3', progress: { done: 3, total: 3 }, next: { href: '/cursos/3', label: 'review' } },
        ],
      },
    })
  })
})
