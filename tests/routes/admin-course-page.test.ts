import { delay, http, HttpResponse, type JsonBodyType } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader } from '#app/routes/admin.courses.$slug._index.tsx'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, signedIn } from '#tests/mocks/session.ts'

/** /admin/courses/{slug}: the course (published and draft) and its lessons, asked for side by side. */

const text = (pt: string) => ({ pt, en: `${pt} (en)`, es: `${pt} (es)` })
const choices = { pillars: [{ slug: 'sono', name: text('Sono') }], products: [] }
const published = { id: 1, slug: 'sono-reparador', title: text('Sono reparador'), description: text('Noites melhores.'), pillar: 'sono', sort_order: 1, active: true, product_id: null, lessons_count: 1 }
const lessons = {
  course: { slug: 'sono-reparador', title: text('Sono reparador') },
  results: [{ id: 7, slug: 'sono-1', course: 'sono-reparador', title: text('O ciclo do sono'), summary: text('Resumo'), number: 1, free: true, duration_seconds: 95, video_bytes: 1_200_000, draft: null }],
  new_drafts: [],
  videos: [{ slug: 'sono-2', duration_seconds: 80, bytes: 1_000_000 }],
}

async function openPage(slug: string) {
  const cookie = await signedIn(demoAdmin)
  return run(loader, getRequest(`http://app.test/admin/courses/${slug}`, cookie), { slug })
}

type PageData = { name: string; state: { published: boolean; draft: boolean }; lessons: { results: { slug: string; title: string }[]; videos: number } | null }

describe('/admin/courses/{slug}', () => {
  test('a published course and its lessons: the two calls run side by side, not one after the other', async () => {
    let asked = 0
    let answered = 0
    let askedAfterAnAnswer = false
    const answer = async (body: JsonBodyType) => {
      asked += 1
      if (answered > 0) askedAfterAnAnswer = true
      // Each answer waits until both have been asked for: in a waterfall the second is asked for
      // only after the first has answered. The 10-second bound only ends the waterfall's wait
      // (then the test fails, later); a busy machine that asks late still passes.
      for (let tries = 0; tries < 1000 && asked < 2; tries++) await delay(10)
      answered += 1
      return HttpResponse.json(body)
    }
    providerMock.use(
      http.get(providerUrl('/admin/content/courses/sono-reparador/'), () => answer({ published, draft: null, choices })),
      http.get(providerUrl('/admin/content/lessons/'), ({ request }) => (new URL(request.url).searchParams.get('course') === 'sono-reparador' ? answer(lessons) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 }))),
    )
    const result = await openPage('sono-reparador')
    expect(result.status).toBe(200)
    expect(asked).toBe(2)
    expect(askedAfterAnAnswer, 'the lessons were asked for only after the course had answered').toBe(false)
    const data = result.data as PageData
    expect(data.name).toBe('Sono reparador')
    expect(data.lessons).toEqual({ results: [{ slug: 'sono-1', number: 1, title: 'O ciclo do sono', free: true, draft: false }], newDrafts: [], videos: 1 })
  })

  test('a course only drafted: the lessons call answers 404 and the page is served without lessons', async () => {
    const draft = { title: { pt: 'Respirar' }, description: undefined, pillar: 'sono', sort_order: null, active: true, product_id: null, updated_at: '2026-11-20T12:00:00Z' }
    providerMock.use(
      http.get(providerUrl('/admin/content/courses/respirar/'), () => HttpResponse.json({ published: null, draft, choices })),
      http.get(providerUrl('/admin/content/lessons/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })),
    )
    const result = await openPage('respirar')
    expect(result.status).toBe(200)
    const data = result.data as PageData
    expect(data.state).toEqual({ published: false, draft: true })
    expect(data.lessons).toBeNull()
  })

  test('a published course whose lessons cannot be read: the provider error page, as before', async () => {
    providerMock.use(
      http.get(providerUrl('/admin/content/courses/sono-reparador/'), () => HttpResponse.json({ published, draft: null, choices })),
      http.get(providerUrl('/admin/content/lessons/'), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })),
    )
    const result = await openPage('sono-reparador')
    expect(result.status).toBe(500)
  })
})
