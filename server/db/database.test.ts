import { count, desc, eq } from 'drizzle-orm'
import { recordAudit } from '#server/audit/repository.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, createFreshMemoryDatabase, createPostgresDatabase, testApp } from '#server/testing/harness.ts'
import { findMigrationsDir, type Database, type DatabaseHandle } from '#server/db/client.ts'
import { auditLog, consentRecords, courses, groups, lessons, liveClasses, pillars, products, professionalPatients, professionalProfiles, userGroups, users } from '#server/db/schema.ts'
import { seedDatabase } from '#server/seed/seed.ts'

async function tableCounts(db: Database) {
  const countOf = async (table: typeof users | typeof groups | typeof pillars | typeof userGroups | typeof professionalPatients | typeof professionalProfiles | typeof products | typeof courses | typeof lessons | typeof liveClasses) =>
    Number((await db.select({ n: count() }).from(table))[0]!.n)
  return {
    users: await countOf(users),
    groups: await countOf(groups),
    pillars: await countOf(pillars),
    memberships: await countOf(userGroups),
    careLinks: await countOf(professionalPatients),
    profiles: await countOf(professionalProfiles),
    products: await countOf(products),
    courses: await countOf(courses),
    lessons: await countOf(lessons),
    liveClasses: await countOf(liveClasses),
  }
}

/** The same checks against every database the provider supports. */
function databaseSuite(open: () => Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }>) {
  let handle: DatabaseHandle
  let dispose: () => Promise<void>
  beforeAll(async () => {
    ;({ handle, dispose } = await open())
  })
  afterAll(() => dispose())

  it('seeds once: running the seed again creates nothing and resets nothing', async () => {
    const before = await tableCounts(handle.db)
    expect(before).toEqual({ users: 7, groups: 3, pillars: 6, memberships: 7, careLinks: 3, profiles: 4, products: 16, courses: 4, lessons: 12, liveClasses: 12 })
    await client(testApp(handle.db)).patch('/users/4/', { first_name: 'Renamed' }, {
      token: (await client(testApp(handle.db)).login('admin@innera.local')).access,
    })
    expect(await seedDatabase(handle.db)).toEqual({ groups: 0, pillars: 0, users: 0, careLinks: 0, profiles: 0, questions: 0, products: 0, courses: 0, lessons: 0, liveClasses: 0 })
    expect(await seedDatabase(handle.db)).toEqual({ groups: 0, pillars: 0, users: 0, careLinks: 0, profiles: 0, questions: 0, products: 0, courses: 0, lessons: 0, liveClasses: 0 })
    expect(await tableCounts(handle.db)).toEqual(before)
    const { access } = await client(testApp(handle.db)).login('paciente@innera.local')
    expect((await client(testApp(handle.db)).get('/users/me/', { token: access })).json.first_name).toBe('Renamed')
    // Each demo account accepted the terms and the privacy policy once, as registration records them (issue 42).
    const consents = (await client(testApp(handle.db)).get('/users/me/consents/', { token: access })).json
    expect(consents.current).toMatchObject({ terms: { version: '1.0', granted: true, source: 'signup' }, privacy: { version: '1.0', granted: true, source: 'signup' } })
    expect(await handle.db.select({ n: count() }).from(consentRecords)).toEqual([{ n: 14 }])
  })

  it('keeps the audit log append-only: an entry is written, never changed nor removed', async () => {
    await recordAudit(handle.db, { actorId: 1, actorRole: 'admin', action: 'user.groups', targetType: 'user', targetId: 4, before: { groups: ['paciente'] }, after: { groups: ['profissional'] }, at: Date.now() })
    const [entry] = await handle.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1)
    expect(entry).toMatchObject({ action: 'user.groups', targetId: '4', after: { groups: ['profissional'] } })
    const refusal = (query: Promise<unknown>) => query.then(() => 'done', (error: Error & { cause?: Error }) => error.cause?.message ?? error.message)
    expect(await refusal(handle.db.update(auditLog).set({ reason: 'rewritten' }).where(eq(auditLog.id, entry!.id)))).toBe('audit_log is append-only: UPDATE refused')
    expect(await refusal(handle.db.delete(auditLog).where(eq(auditLog.id, entry!.id)))).toBe('audit_log is append-only: DELETE refused')
    expect((await handle.db.select().from(auditLog).where(eq(auditLog.id, entry!.id)))[0]?.reason).toBeNull()
  })

  it('re-applies migrations as a no-op', async () => {
    await handle.migrate(findMigrationsDir())
    expect((await tableCounts(handle.db)).users).toBe(7)
  })

  it('runs the main flows: register, login, photo bytes, search, concurrent sign-ups', async () => {
    const api = client(testApp(handle.db))
    const registered = await api.post('/users/register/', { email: 'flow@example.com', password: 'caminhada-ao-sol-7', name: 'Flow Test' })
    expect(registered.status).toBe(201)
    const { access } = await api.login('FLOW@example.com', 'caminhada-ao-sol-7')

    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255])
    const form = new FormData()
    form.set('photo', new File([png], 'p.png'))
    const updated = await api.patch('/users/profile/update/', form, { token: access })
    const photo = await testApp(handle.db).request(updated.json.photo)
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(png)

    const admin = (await api.login('admin@innera.local')).access
    expect((await api.get('/users/?search=FLOW', { token: admin })).json.count).toBe(1)

    // Two registrations of one e-mail at once, in two processes: both answer alike, exactly one
    // account is made, and its owner hears of the other attempt.
    const racing = await Promise.all(
      [api, client(testApp(handle.db))].map((process) => process.post('/users/register/', { email: 'race@example.com', password: 'caminhada-ao-sol-7', name: 'Race' })),
    )
    expect(racing.map((response) => response.status)).toEqual([201, 201])
    expect((await api.get('/users/?search=race%40example.com', { token: admin })).json.count).toBe(1)
    expect((await api.mailTo('race@example.com')).map((mail) => mail.subject).sort()).toEqual([
      'Confirme seu e-mail na Innera',
      'Tentativa de cadastro com o seu e-mail na Innera',
    ])
  })

  it('revokes sessions and uses reset links up once, across processes', async () => {
    const [first, second] = [client(testApp(handle.db)), client(testApp(handle.db))]
    const session = await first.login('paciente2@innera.local')
    expect((await second.post('/authentication/token/blacklist/', { refresh: session.refresh })).status).toBe(200)
    expect((await first.get('/users/me/', { token: session.access })).status).toBe(401)

    const live = await first.login('paciente2@innera.local')
    await first.post('/users/password-reset/', { email: 'paciente2@innera.local' })
    const [mail] = await first.mailTo('paciente2@innera.local')
    const [uid, token] = /\/auth\/reset\/(\S+)\/(\S+)/.exec(mail!.text)!.slice(1)
    const uses = await Promise.all(
      [first, second].map((process, index) => process.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: `nova-senha-forte-${index}` })),
    )
    expect(uses.map((use) => use.status).sort()).toEqual([200, 400])
    expect((await second.get('/users/me/', { token: live.access })).status).toBe(401)
    expect((await second.post('/authentication/token/refresh/', { refresh: live.refresh })).status).toBe(401)
  })
}

describe('PGlite (embedded)', () => {
  databaseSuite(async () => {
    // From scratch, not from the shared test snapshot: migrations and seed are what is tested here.
    const handle = await createFreshMemoryDatabase()
    return { handle, dispose: () => handle.close() }
  })
})

const postgres = await createPostgresDatabase()
if ('unavailable' in postgres) {
  console.warn(`[provider] PostgreSQL tests skipped: ${postgres.unavailable}. Set TEST_DATABASE_URL to run them.`)
  describe.skip(`PostgreSQL (skipped: ${postgres.unavailable})`, () => {
    it('needs TEST_DATABASE_URL', () => undefined)
  })
} else {
  describe('PostgreSQL (DATABASE_URL)', () => {
    databaseSuite(async () => ({ handle: postgres.handle, dispose: postgres.drop }))
  })
}
