import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { and, eq, sql } from 'drizzle-orm'
import type { DatabaseHandle } from '#server/db/client.ts'
import { courses, lessons, products, purchaseGrants, purchases, subscriptions, users } from '#server/db/schema.ts'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
let api: ReturnType<typeof client>
const tokens = { pedro: '', ana: '', paula: '', admin: '' }
const clock = fakeClock(Date.parse('2026-11-27T12:00:00Z'))
const ids = { pedro: 0, sleep: 0, free: 0, sleepProduct: 0, preview: 0, second: 0, third: 0, freeLesson: 0 }

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: clock.clock }))
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.ana = (await api.login('paciente2@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
  const db = database.db
  ids.pedro = (await db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local')))[0]!.id
  const [sleep] = await db.select().from(courses).where(eq(courses.slug, 'sono-reparador'))
  const [free] = await db.select().from(courses).where(eq(courses.slug, 'movimento-no-dia-a-dia'))
  ids.sleep = sleep!.id
  ids.sleepProduct = sleep!.productId!
  ids.free = free!.id
  const sleepLessons = await db.select().from(lessons).where(eq(lessons.courseId, ids.sleep)).orderBy(lessons.number)
  ;[ids.preview, ids.second, ids.third] = sleepLessons.map((lesson) => lesson.id) as [number, number, number]
  ids.freeLesson = (await db.select().from(lessons).where(and(eq(lessons.courseId, ids.free), eq(lessons.number, 1))))[0]!.id
})
afterAll(() => database.close())
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE "lesson_progress"`)
  await database.db.delete(subscriptions).where(eq(subscriptions.userId, ids.pedro))
})

const get = (path: string, token: string) => api.get(path, { token })
const post = (path: string, token: string, body: unknown = {}) => api.call('POST', path, { body, token })
const report = (lesson: number, position_seconds: unknown, watched_seconds: unknown, token = tokens.pedro) => post(`/videos/lessons/${lesson}/progress/`, token, { position_seconds, watched_seconds })

describe('courses', () => {
  it('lists the courses by pillar to every role signed in, privately, and nobody else', async () => {
    for (const token of Object.values(tokens)) {
      const listed = await get('/videos/courses/', token)
      expect(listed.status).toBe(200)
      expect(listed.headers.get('cache-control')).toBe('private, no-store')
      expect(listed.json.count).toBe(4)
    }
    expect((await api.get('/videos/courses/')).status).toBe(401)
    const pillars = await get('/videos/courses/pillars/', tokens.pedro)
    expect(pillars.json.map((row: { pillar: string }) => row.pillar)).toEqual(['estresse', 'exercicio', 'alimento', 'sono'])
    expect(pillars.json[0]).toMatchObject({ courses_count: 1, name: { pt: expect.any(String), en: expect.any(String), es: expect.any(String) } })
    const sleep = await get('/videos/courses/?pillar=sono', tokens.pedro)
    expect(sleep.json.results).toHaveLength(1)
    expect(sleep.json.results[0]).toMatchObject({
      id: ids.sleep,
      pillar: 'sono',
      product: { id: ids.sleepProduct, price_cents: 19_700, currency: 'BRL' },
      lessons_count: 3,
      access: null,
      poster_url: expect.stringMatching(/^http:\/\/provider\.test\/media\/lessons\/[a-z0-9-]+\.jpg$/),
      progress: { completed_lessons: 0, total_lessons: 3, percent: 0, started: false, next_lesson_id: ids.preview, next_position_seconds: 0 },
    })
    expect((await get('/videos/courses/?pillar=nada', tokens.pedro)).status).toBe(400)
    expect((await get(`/videos/courses/${ids.free}/`, tokens.pedro)).json).toMatchObject({ product: null, access: 'free' })
    expect((await get('/videos/courses/99999/', tokens.pedro)).status).toBe(404)
  })

  it("locks a paid course's lessons but its free preview, and gives a locked lesson no media", async () => {
    const list = await get(`/videos/lessons/?course=${ids.sleep}`, tokens.pedro)
    expect(list.json.map((lesson: { number: number; free: boolean; locked: boolean }) => [lesson.number, lesson.free, lesson.locked])).toEqual([
      [1, true, false],
      [2, false, true],
      [3, false, true],
    ])
    expect((await get('/videos/lessons/', tokens.pedro)).status).toBe(400)
    const locked = await get(`/videos/lessons/${ids.second}/`, tokens.pedro)
    expect(locked.json).toMatchObject({ locked: true, video: null, captions: [], transcript: [], lock: { reason: 'purchase', product_id: ids.sleepProduct }, previous_id: ids.preview, next_id: ids.third })
    expect(JSON.stringify(locked.json)).not.toContain('.mp4')
    const preview = await get(`/videos/lessons/${ids.preview}/?lang=es`, tokens.pedro)
    expect(preview.json).toMatchObject({ locked: false, lock: null, previous_id: null, next_id: ids.second, video: { type: 'video/mp4', bytes: expect.any(Number) } })
    expect(preview.json.video.url).toMatch(/^http:\/\/provider\.test\/media\/lessons\/[a-z0-9-]+\.mp4\?expires=\d+&signature=[0-9a-f]{64}$/)
    expect(preview.json.captions.map((caption: { lang: string }) => caption.lang)).toEqual(['pt', 'en', 'es'])
    expect(preview.json.transcript.length).toBeGreaterThan(1)
    const pt = await get(`/videos/lessons/${ids.preview}/`, tokens.pedro)
    expect(pt.json.transcript[0].text).not.toBe(preview.json.transcript[0].text)
    expect((await get(`/videos/lessons/${ids.preview}/?lang=de`, tokens.pedro)).status).toBe(400)
    // The signed address plays; without its signature, or once tampered with, it does not.
    const video = await testApp(database.db, { clock: clock.clock }).request(preview.json.video.url.replace('http://provider.test', ''), { headers: { Range: 'bytes=0-99' } })
    expect(video.status).toBe(206)
    const unsigned = preview.json.video.url.replace('http://provider.test', '').split('?')[0]
    expect((await testApp(database.db).request(unsigned)).status).toBe(403)
  })

  it('opens a paid course to its buyer, a live plan, and the staff', async () => {
    const db = database.db
    expect((await get(`/videos/courses/${ids.sleep}/`, tokens.paula)).json.access).toBe('staff')
    expect((await get(`/videos/courses/${ids.sleep}/`, tokens.admin)).json.access).toBe('staff')
    const plan = (await db.select().from(products).where(eq(products.slug, 'plano-mensal')))[0]!
    const now = new Date(clock.clock())
    await db.insert(subscriptions).values({ userId: ids.pedro, productId: plan.id, method: 'pix', status: 'active', priceCents: plan.priceCents, idempotencyKey: 'course-test-subscription', currentPeriodStart: now, currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000) })
    expect((await get(`/videos/courses/${ids.sleep}/`, tokens.pedro)).json.access).toBe('subscription')
    expect((await get(`/videos/lessons/${ids.second}/`, tokens.pedro)).json.video).not.toBeNull()
    await db.delete(subscriptions).where(eq(subscriptions.userId, ids.pedro))
    const [purchase] = await db.insert(purchases).values({ userId: ids.pedro, status: 'paid', method: 'pix', totalCents: 19_700, idempotencyKey: 'course-test-purchase-1', paidAt: now }).returning()
    await db.insert(purchaseGrants).values({ userId: ids.pedro, productId: ids.sleepProduct, purchaseId: purchase!.id, kind: 'course', availableAt: now })
    try {
      expect((await get(`/videos/courses/${ids.sleep}/`, tokens.pedro)).json.access).toBe('owned')
      expect((await get(`/videos/courses/?mine=true`, tokens.pedro)).json.results.map((course: { id: number }) => course.id)).toEqual([ids.sleep])
      // Another patient still meets the lock.
      expect((await get(`/videos/courses/${ids.sleep}/`, tokens.ana)).json.access).toBeNull()
      await db.update(purchaseGrants).set({ revokedAt: now }).where(eq(purchaseGrants.purchaseId, purchase!.id))
      expect((await get(`/videos/courses/${ids.sleep}/`, tokens.pedro)).json.access).toBeNull()
    } finally {
      await db.delete(purchases).where(eq(purchases.id, purchase!.id))
    }
  })
})

describe('progress', () => {
  it('sums what was played, one report every 3 s at most, and makes a lesson done at 80 %', async () => {
    const lesson = (await get(`/videos/lessons/${ids.freeLesson}/`, tokens.pedro)).json
    const duration: number = lesson.duration_seconds
    let position = 0
    let answer = await report(ids.freeLesson, 5, 5)
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({ position_seconds: 5, watched_seconds: 5, completed: false, completed_at: null })
    const soon = await report(ids.freeLesson, 6, 1)
    expect(soon.status).toBe(429)
    expect(soon.json.code).toBe('throttled')
    expect(soon.headers.get('retry-after')).toBe('3')
    // A report claiming a minute after 5 s is credited twice the time plus 2 s.
    clock.advance(5)
    answer = await report(ids.freeLesson, 10, 60)
    expect(answer.json.watched_seconds).toBe(17)
    position = 10
    while (!answer.json.completed) {
      clock.advance(5)
      position = Math.min(duration, position + 5)
      answer = await report(ids.freeLesson, position, 5)
      expect(answer.status).toBe(200)
    }
    expect(answer.json.watched_seconds).toBeGreaterThanOrEqual(duration * 0.8)
    const course = (await get(`/videos/courses/${ids.free}/`, tokens.pedro)).json
    expect(course.progress).toMatchObject({ completed_lessons: 1, started: true, percent: 33 })
    expect(course.progress.next_lesson_id).not.toBe(ids.freeLesson)
    // Nobody else sees it.
    const anas = (await get(`/videos/lessons/?course=${ids.free}`, tokens.ana)).json
    expect(anas[0].progress).toEqual({ position_seconds: 0, watched_seconds: 0, completed: false, completed_at: null })
  })

  it('refuses reports out of bounds, and a locked lesson', async () => {
    const lesson = (await get(`/videos/lessons/${ids.freeLesson}/`, tokens.pedro)).json
    for (const [position, watched] of [
      [lesson.duration_seconds + 1, 1],
      [-1, 1],
      [1, 61],
      ['x', 1],
      [1, null],
      ['1\u0000', 1],
      ['9'.repeat(400), 1],
    ]) {
      expect((await report(ids.freeLesson, position, watched)).status).toBe(400)
    }
    const locked = await report(ids.second, 1, 1)
    expect(locked.status).toBe(403)
    expect(locked.json.code).toBe('locked')
    expect((await post(`/videos/lessons/${ids.second}/complete/`, tokens.pedro)).status).toBe(403)
    expect((await report(99999, 1, 1)).status).toBe(404)
    expect((await api.call('POST', `/videos/lessons/${ids.freeLesson}/progress/`, { body: { position_seconds: 1, watched_seconds: 1 } })).status).toBe(401)
  })

  it('marks a lesson done on request, once, and continues at the next unfinished one where it stopped', async () => {
    clock.set(Date.parse('2026-11-27T12:00:00Z'))
    const [first, second] = (await get(`/videos/lessons/?course=${ids.free}`, tokens.pedro)).json
    const done = await post(`/videos/lessons/${first.id}/complete/`, tokens.pedro)
    expect(done.json).toMatchObject({ completed: true, completed_at: '2026-11-27T12:00:00.000Z' })
    clock.advance(60)
    expect((await post(`/videos/lessons/${first.id}/complete/`, tokens.pedro)).json.completed_at).toBe('2026-11-27T12:00:00.000Z')
    expect((await report(second.id, 7.5, 7.5)).json.position_seconds).toBe(7.5)
    const course = (await get(`/videos/courses/${ids.free}/`, tokens.pedro)).json
    expect(course.progress).toMatchObject({ completed_lessons: 1, next_lesson_id: second.id, next_position_seconds: 7.5 })
  })

  it('every role keeps its own progress: a professional and an admin (staff) report and complete even a paid lesson; a patient without it is refused', async () => {
    clock.set(Date.parse('2026-11-27T12:02:00Z'))
    for (const token of [tokens.paula, tokens.admin]) {
      expect((await report(ids.second, 4, 4, token)).json).toMatchObject({ position_seconds: 4, completed: false })
      expect((await post(`/videos/lessons/${ids.second}/complete/`, token)).json).toMatchObject({ completed: true })
    }
    expect((await report(ids.second, 4, 4, tokens.ana)).status).toBe(403)
    expect((await post(`/videos/lessons/${ids.second}/complete/`, tokens.ana)).status).toBe(403)
    // Each caller's own: the patient's lesson list still shows nothing of the staff's.
    const pedros = (await get(`/videos/lessons/?course=${ids.sleep}`, tokens.pedro)).json
    expect(pedros.find((lesson: { id: number }) => lesson.id === ids.second).progress.completed).toBe(false)
    expect((await get(`/videos/courses/${ids.sleep}/`, tokens.paula)).json.progress.completed_lessons).toBe(1)
  })
})
