import { parse } from 'csv-parse/sync'
import { and, asc, count, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import yauzl from 'yauzl'
import { hasUsablePassword } from '#server/auth/passwords.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import {
  accountDeletions,
  appointments,
  auditLog,
  authSessions,
  consentRecords,
  habitEntries,
  habits,
  outbox,
  programs,
  purchases,
  questionnaireResults,
  questionnaireShares,
  retentionRuns,
  stripeWebhookEvents,
  users,
} from '#server/db/schema.ts'
import type { LogEntry } from '#server/log.ts'
import { requestDeletion } from '#server/privacy/deletion.ts'
import { exportStream } from '#server/privacy/export.ts'
import type { ExportFile } from '#server/privacy/export-files.ts'
import { retentionTick, unfinishedDeletions } from '#server/privacy/retention-job.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'
import { insertMessage, openConversation } from '#server/messages/repository.ts'

const DAY = 24 * 3600_000
const YEAR = 365 * DAY
// Real time: the consent record's trigger compares with the database's own clock.
const NOW = Date.now()
const LONG_TOKENS = { ACCESS_TOKEN_LIFETIME: '31536000', REFRESH_TOKEN_LIFETIME: '31536000' }

let database: DatabaseHandle
let db: Database
const clock = fakeClock(NOW)
const logged: LogEntry[] = []
let app: ReturnType<typeof testApp>
let api: ReturnType<typeof client>

const idOf = async (email: string) => (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id

beforeAll(async () => {
  database = await createMemoryDatabase()
  db = database.db
  app = testApp(db, { clock: clock.clock, env: LONG_TOKENS, log: (entry) => logged.push(entry) })
  api = client(app)
})
afterAll(() => database.close())
beforeEach(async () => {
  clock.set(NOW)
  logged.length = 0
  await resetDatabase(db)
  // The demo accounts' signup consents (seed.ts) cleared: these tests start from an account with none.
  await db.execute(sql`truncate ${consentRecords}`)
})

const tokenOf = async (email: string) => (await api.login(email)).access

async function insertResult(userId: number, submittedAt = new Date(NOW - 10 * DAY)) {
  const [row] = await db
    .insert(questionnaireResults)
    .values({ userId, version: '2025.1', submittedAt, answers: { sono_1: 3, estresse_1: 1 }, scores: { sono: 75, estresse: 25 }, focusPillars: ['estresse'] })
    .returning()
  return row!
}

function appointmentValues(patientId: number, professionalId: number, start: number, over: Partial<typeof appointments.$inferInsert> = {}) {
  return {
    patientId,
    professionalId,
    startTime: new Date(start),
    endTime: new Date(start + 50 * 60_000),
    blockedUntil: new Date(start + 60 * 60_000),
    status: 'scheduled' as const,
    meetingLink: 'https://meet.test/room',
    notes: 'Dor nas costas',
    privateNotes: 'Observação clínica',
    ...over,
  }
}

describe('the consent record', () => {
  it('answers each document current state and the history, records a change, and refuses withdrawing the terms', async () => {
    const token = await tokenOf('paciente@innera.local')
    const empty = await api.get('/users/me/consents/', { token })
    expect(empty.status).toBe(200)
    expect(empty.headers.get('cache-control')).toBe('private, no-store')
    expect(empty.json).toMatchObject({ current: { terms: null, privacy: null, cookies: null, marketing: null }, history: { count: 0, results: [] } })

    const granted = await api.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: true }, { token })
    expect(granted.status).toBe(201)
    expect(granted.json).toMatchObject({ document: 'marketing', version: '1.0', granted: true, source: 'settings', categories: null })
    clock.advance(60)
    const cookies = await api.post('/users/me/consents/', { document: 'cookies', version: '1.0', granted: true, categories: { analytics: true }, source: 'cookie-banner' }, { token })
    expect(cookies.json).toMatchObject({ source: 'cookie-banner', categories: { preferences: false, analytics: true, marketing: false } })
    clock.advance(60)
    expect((await api.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: false }, { token })).status).toBe(201)

    const withdrawTerms = await api.post('/users/me/consents/', { document: 'terms', version: '1.0', granted: false }, { token })
    expect(withdrawTerms.status).toBe(409)
    expect(withdrawTerms.json.code).toBe('withdraw_requires_deletion')
    expect((await api.post('/users/me/consents/', { document: 'terms', version: 'v1', granted: true }, { token })).json).toEqual({ version: ['Enter a document version such as "1.0".'] })
    expect((await api.post('/users/me/consents/', { document: 'ebook', version: '1.0', granted: true }, { token })).status).toBe(400)
    expect((await api.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: true, source: 'signup' }, { token })).status).toBe(400)
    expect((await api.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: true, categories: { analytics: true } }, { token })).json).toEqual({ categories: ['Only the cookie policy has categories.'] })

    const state = (await api.get('/users/me/consents/', { token })).json
    expect(state.current).toMatchObject({ marketing: { granted: false }, cookies: { granted: true }, terms: null })
    expect(state.history.count).toBe(3)
    expect(state.history.results.map((row: { document: string; granted: boolean }) => [row.document, row.granted])).toEqual([
      ['marketing', false],
      ['cookies', true],
      ['marketing', true],
    ])
    expect((await api.get('/users/me/consents/')).status).toBe(401)
  })

  it('takes only a published version of a document (400 otherwise), and a grant of one never published is not current', async () => {
    const token = await tokenOf('paciente@innera.local')
    const unknown = await api.post('/users/me/consents/', { document: 'terms', version: '99.9', granted: true }, { token })
    expect(unknown.status).toBe(400)
    expect(unknown.json).toEqual({ version: ['"99.9" is not a published version of this document.'] })
    expect((await api.post('/users/me/consents/', { document: 'cookies', version: '2.0', granted: true, categories: { analytics: true } }, { token })).status).toBe(400)
    expect((await api.get('/users/me/consents/', { token })).json).toMatchObject({ current: { terms: null, cookies: null }, history: { count: 0 } })

    expect((await api.post('/users/me/consents/', { document: 'terms', version: '1.0', granted: true }, { token })).status).toBe(201)
    expect((await api.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: true }, { token })).status).toBe(201)
    // Records written before the check (as the report's): a grant to a text never published is
    // no consent; a withdrawal is one whatever version it names.
    const userId = await idOf('paciente@innera.local')
    await db.insert(consentRecords).values([
      { userId, document: 'terms', version: '99.9', granted: true, source: 'settings', recordedAt: new Date(NOW + 60_000) },
      { userId, document: 'marketing', version: '99.9', granted: false, source: 'settings', recordedAt: new Date(NOW + 60_000) },
    ])
    const state = (await api.get('/users/me/consents/', { token })).json
    expect(state.current).toMatchObject({ terms: { version: '1.0', granted: true }, marketing: { version: '99.9', granted: false } })
    // The history is the record: it keeps them all.
    expect(state.history.count).toBe(4)
  })

  it('is throttled per user: a flood of records is refused (429 with Retry-After), another user is not held up', async () => {
    const throttled = testApp(db, { clock: clock.clock, env: { ...LONG_TOKENS, THROTTLE_DISABLED: '', THROTTLE_CONSENT_PER_USER: '2/h' } })
    const throttledApi = client(throttled)
    const patient = (await throttledApi.login('paciente@innera.local')).access
    const record = (token: string) => throttledApi.post('/users/me/consents/', { document: 'marketing', version: '1.0', granted: true }, { token })
    for (let index = 0; index < 2; index += 1) expect((await record(patient)).status).toBe(201)
    const refused = await record(patient)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect((await record((await throttledApi.login('profissional@innera.local')).access)).status).toBe(201)
    // Nothing recorded for the refused one.
    expect((await db.select({ total: count() }).from(consentRecords).where(eq(consentRecords.userId, await idOf('paciente@innera.local'))))[0]!.total).toBe(2)
  })

  it('is append-only in the database: a record is never changed, and removed only past its retention', async () => {
    const userId = await idOf('paciente@innera.local')
    const refusal = (query: Promise<unknown>) => query.then(() => 'done', (error: Error & { cause?: Error }) => error.cause?.message ?? error.message)
    const [fresh] = await db.insert(consentRecords).values({ userId, document: 'marketing', version: '1.0', granted: true, source: 'settings' }).returning()
    expect(await refusal(db.update(consentRecords).set({ granted: false }).where(eq(consentRecords.id, fresh!.id)))).toBe('consent_records is append-only: UPDATE refused')
    expect(await refusal(db.delete(consentRecords).where(eq(consentRecords.id, fresh!.id)))).toBe('consent_records is append-only: DELETE refused')
    const [oldTerms] = await db.insert(consentRecords).values({ userId, document: 'terms', version: '1.0', granted: true, source: 'signup', recordedAt: new Date(NOW - 3 * YEAR) }).returning()
    expect(await refusal(db.delete(consentRecords).where(eq(consentRecords.id, oldTerms!.id)))).toBe('consent_records is append-only: DELETE refused')
    const [oldMarketing] = await db.insert(consentRecords).values({ userId, document: 'marketing', version: '1.0', granted: false, source: 'settings', recordedAt: new Date(NOW - 3 * YEAR) }).returning()
    expect(await refusal(db.delete(consentRecords).where(eq(consentRecords.id, oldMarketing!.id)))).toBe('done')
  })

  it('records the terms and the privacy policy accepted at registration', async () => {
    const registered = await api.post('/users/register/', { email: 'nova@innera.test', password: 'Girassol-azul-no-telhado-7', name: 'Nova Pessoa', accept_terms: true })
    expect(registered.status).toBe(201)
    const userId = await idOf('nova@innera.test')
    const rows = await db.select().from(consentRecords).where(eq(consentRecords.userId, userId)).orderBy(asc(consentRecords.document))
    expect(rows.map((row) => [row.document, row.version, row.granted, row.source])).toEqual([
      ['privacy', '1.0', true, 'signup'],
      ['terms', '1.0', true, 'signup'],
    ])
  })
})

describe('sharing', () => {
  it('lists every professional who can see my results, and revokes one in one place', async () => {
    const pedro = await idOf('paciente@innera.local')
    const paula = await idOf('profissional@innera.local')
    const nutri = await idOf('nutricionista@innera.local')
    const token = await tokenOf('paciente@innera.local')
    const result = await insertResult(pedro)
    expect((await api.post('/questionnaire/share/', { questionnaire: result.id, professionals: [paula, nutri] }, { token })).status).toBe(200)

    const listed = await api.get('/users/me/shares/', { token })
    expect(listed.status).toBe(200)
    expect(listed.headers.get('cache-control')).toBe('private, no-store')
    const byId = Object.fromEntries(listed.json.map((row: { professional: { id: number } }) => [row.professional.id, row]))
    // Paula: the result shared, and the care link of the seed (she follows his program).
    expect(byId[paula]).toMatchObject({ professional: { id: paula, first_name: expect.any(String), profession: expect.any(String) }, results: [{ id: result.id }], care_link_since: expect.any(String) })
    expect(byId[nutri]).toMatchObject({ results: [{ id: result.id }], care_link_since: null })

    const paulaToken = await tokenOf('profissional@innera.local')
    expect((await api.get(`/questionnaire/${result.id}/`, { token: paulaToken })).status).toBe(200)
    const revoked = await api.call('DELETE', `/users/me/shares/${paula}/`, { token })
    expect(revoked.status).toBe(204)
    expect((await api.get(`/questionnaire/${result.id}/`, { token: paulaToken })).status).toBe(404)
    expect((await api.get(`/users/patients/?patient=${pedro}`, { token: paulaToken })).status).toBe(404)
    expect((await api.get('/users/me/shares/', { token })).json.map((row: { professional: { id: number } }) => row.professional.id)).toEqual([nutri])
    // Nothing left to revoke, or nobody: 404.
    expect((await api.call('DELETE', `/users/me/shares/${paula}/`, { token })).status).toBe(404)
    expect((await api.call('DELETE', '/users/me/shares/0/', { token })).status).toBe(400)
  })
})

const ATTACHED_PNG = { name: 'pressão.png', contentType: 'image/png' as const, bytes: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), size: 16, width: 1, height: 1 }
const ATTACHED_PDF = { name: 'exame.pdf', contentType: 'application/pdf' as const, bytes: Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1'), size: 15, width: null, height: null }

/** The export's ZIP read whole, its entries by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))))
  const entries = new Map<string, Buffer>()
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error)
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('error', reject)
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks))
          zip.readEntry()
        })
      })
    })
    zip.on('end', resolve)
    zip.on('error', reject)
    zip.readEntry()
  })
  return entries
}

const csvRows = (bytes: Buffer) => parse(bytes, { bom: true, columns: true }) as Record<string, string>[]

/** 10,000 habit entries (10 habits of 1,000 days) and 500 appointments (as patient) for one user. */
async function seedLargeHistory(userId: number, professionalId: number) {
  const habitRows = await db
    .insert(habits)
    .values(Array.from({ length: 10 }, (_, index) => ({ userId, pillarSlug: 'sono', name: index === 0 ? '=cmd|calc' : `Hábito ${index}`, frequency: { kind: 'daily' as const }, createdOn: '2020-01-01' })))
    .returning({ id: habits.id })
  for (const habit of habitRows) {
    const entries = Array.from({ length: 1000 }, (_, day) => ({ habitId: habit.id, date: new Date(Date.UTC(2021, 0, 1) + day * DAY).toISOString().slice(0, 10), status: 'done' as const, amount: day % 7 }))
    await db.insert(habitEntries).values(entries)
  }
  const start = Date.UTC(2022, 0, 3, 12)
  for (let batch = 0; batch < 5; batch += 1) {
    await db.insert(appointments).values(Array.from({ length: 100 }, (_, index) => appointmentValues(userId, professionalId, start + (batch * 100 + index) * 2 * 3600_000, { status: 'completed' })))
  }
}

describe('the export', () => {
  it('streams one ZIP that opens, with every file, CSVs that parse, a large history whole', async () => {
    const pedro = await idOf('paciente@innera.local')
    const paula = await idOf('profissional@innera.local')
    await seedLargeHistory(pedro, paula)
    await insertResult(pedro)
    await db.insert(consentRecords).values({ userId: pedro, document: 'terms', version: '1.0', granted: true, source: 'signup' })
    const { conversation } = await openConversation(db, pedro, paula)
    await insertMessage(db, { conversation, senderId: paula, side: 'professional', body: 'Como foi a semana?\nConte tudo.', now: new Date(Date.UTC(2025, 2, 1)) })
    const { message: withFiles } = await insertMessage(db, { conversation, senderId: pedro, side: 'patient', body: '=1+1 bem', now: new Date(Date.UTC(2025, 2, 2)), attachments: [ATTACHED_PNG, ATTACHED_PDF] })
    const token = await tokenOf('paciente@innera.local')

    const response = await app.request(`${PUBLIC_URL}/users/me/export/?lang=en`, { headers: { authorization: `Bearer ${token}` } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="innera-dados-\d{4}-\d{2}-\d{2}\.zip"$/)
    const files = await unzip(Buffer.from(await response.arrayBuffer()))
    expect([...files.keys()]).toEqual([
      'LEIA-ME.txt',
      'profile.json',
      'consents.csv',
      'assessments.json',
      'assessment_answers.csv',
      'program.json',
      'appointments.csv',
      'habits.csv',
      'habit_entries.csv',
      'purchases.csv',
      'subscriptions.csv',
      'course_progress.csv',
      'shares.csv',
      'messages.csv',
      // The files sent in the conversation, as they are stored.
      `anexos/${withFiles.id}-1-pressão.png`,
      `anexos/${withFiles.id}-2-exame.pdf`,
    ])
    expect(files.get(`anexos/${withFiles.id}-1-pressão.png`)).toEqual(ATTACHED_PNG.bytes)
    expect(files.get(`anexos/${withFiles.id}-2-exame.pdf`)).toEqual(ATTACHED_PDF.bytes)
    expect(files.get('LEIA-ME.txt')!.toString()).toMatch(/^Your data at Innera/)
    expect(files.get('LEIA-ME.txt')!.toString()).toContain('- anexos/: the files (photos and PDFs) sent in your conversations')
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({ user: { id: pedro, email: 'paciente@innera.local', first_name: 'Pedro' } })
    expect(JSON.parse(files.get('assessments.json')!.toString())).toMatchObject([{ scores: { sono: 75 }, focus_pillars: ['estresse'] }])
    expect(JSON.parse(files.get('program.json')!.toString())).toEqual([])
    expect(csvRows(files.get('consents.csv')!)).toMatchObject([{ document: 'terms', version: '1.0', granted: 'true', source: 'signup' }])
    expect(csvRows(files.get('assessment_answers.csv')!)).toHaveLength(2)
    const entries = csvRows(files.get('habit_entries.csv')!)
    expect(entries).toHaveLength(10_000)
    expect(entries[0]).toMatchObject({ date: '2021-01-01', status: 'done', amount: '0' })
    const visits = csvRows(files.get('appointments.csv')!)
    expect(visits).toHaveLength(500)
    expect(visits[0]).toMatchObject({ my_role: 'patient', my_notes: 'Dor nas costas', private_notes: '', status: 'completed' })
    // A formula typed as a habit's name reaches the spreadsheet as text.
    expect(csvRows(files.get('habits.csv')!)[0]!.name).toBe("'=cmd|calc")
    expect(files.get('habits.csv')!.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    expect(csvRows(files.get('shares.csv')!)).toMatchObject([{ kind: 'care_link', professional_id: String(paula) }])
    // Both sides of the conversation, line breaks kept, a formula as text.
    expect(csvRows(files.get('messages.csv')!)).toMatchObject([
      { conversation_id: String(conversation.id), with: 'Paula Ribeiro', from: 'them', text: 'Como foi a semana?\nConte tudo.', deleted_at: '' },
      { from: 'me', text: "'=1+1 bem", attachments: `anexos/${withFiles.id}-1-pressão.png\nanexos/${withFiles.id}-2-exame.pdf` },
    ])

    expect((await api.get('/users/me/export/?lang=fr', { token })).status).toBe(400)
    expect((await api.get('/users/me/export/')).status).toBe(401)
  })

  it('reads in batches of 500 rows at most, each row once (bounded memory: bench/data-export.ts reports the peak)', async () => {
    const pedro = await idOf('paciente@innera.local')
    await seedLargeHistory(pedro, await idOf('profissional@innera.local'))
    const batches: { file: ExportFile; rows: number }[] = []
    const rowsRead = () => batches.reduce((sum, batch) => sum + batch.rows, 0)
    const stream = exportStream(db, pedro, { language: 'pt', now: NOW, photoBase: PUBLIC_URL, batchSize: 500, onBatch: (file, rows) => batches.push({ file, rows }) })
    const chunks: Buffer[] = []
    // How far the reading runs ahead of a reader that pauses depends on the ZIP's compression and
    // the runtime's stream buffers (Node 20 and 24 differ), so it is not asserted here.
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    expect(Math.max(...batches.map((batch) => batch.rows))).toBeLessThanOrEqual(500)
    expect(batches.filter((batch) => batch.file === 'habit_entries.csv')).toHaveLength(20)
    // Every row once: the entries, the habits, the appointments, and the care link of the seed.
    expect(rowsRead()).toBe(10_000 + 10 + 500 + 1)
    expect(csvRows((await unzip(Buffer.concat(chunks))).get('habit_entries.csv')!)).toHaveLength(10_000)
  })

  it('a fault midway stops the download (never a ZIP that opens as if whole) and is logged', async () => {
    const pedro = await idOf('paciente@innera.local')
    await seedLargeHistory(pedro, await idOf('profissional@innera.local'))
    const lines: LogEntry[] = []
    const stream = exportStream(db, pedro, { language: 'pt', now: NOW, photoBase: PUBLIC_URL, log: (entry) => lines.push(entry) })
    const chunks: Buffer[] = []
    let broken = false
    const outcome = await (async () => {
      try {
        for await (const chunk of stream) {
          chunks.push(chunk as Buffer)
          if (!broken) {
            // The table goes away between two batches, as a failing database would.
            broken = true
            await db.execute(sql`alter table habit_entries rename to habit_entries_gone`)
          }
        }
        return 'ended'
      } catch {
        return 'failed'
      } finally {
        await db.execute(sql`alter table if exists habit_entries_gone rename to habit_entries`)
      }
    })()
    expect(outcome).toBe('failed')
    expect(lines).toEqual([expect.objectContaining({ level: 'error', msg: 'data export failed', user_id: pedro })])
    await expect(unzip(Buffer.concat(chunks))).rejects.toThrow()
  })

  it('is throttled per user', async () => {
    const throttled = testApp(db, { clock: clock.clock, env: { ...LONG_TOKENS, THROTTLE_DISABLED: '', THROTTLE_EXPORT_PER_USER: '2/h' } })
    const token = (await client(throttled).login('paciente@innera.local')).access
    const get = () => throttled.request(`${PUBLIC_URL}/users/me/export/`, { headers: { authorization: `Bearer ${token}` } })
    for (let index = 0; index < 2; index += 1) {
      const answer = await get()
      expect(answer.status).toBe(200)
      await answer.arrayBuffer()
    }
    const refused = await get()
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})

describe('deleting the account', () => {
  async function patientWithHistory() {
    const pedro = await idOf('paciente@innera.local')
    const paula = await idOf('profissional@innera.local')
    const result = await insertResult(pedro)
    await db.insert(questionnaireShares).values({ resultId: result.id, professionalId: paula })
    await db.insert(programs).values({ userId: pedro, resultId: result.id, source: 'questionnaire', startsOn: '2026-01-05', weeks: 8, focusPillars: ['estresse'], pillarsOrder: ['estresse'] })
    const [habit] = await db.insert(habits).values({ userId: pedro, pillarSlug: 'sono', name: 'Dormir cedo', frequency: { kind: 'daily' }, createdOn: '2026-01-01' }).returning()
    await db.insert(habitEntries).values({ habitId: habit!.id, date: '2026-01-02', status: 'done' })
    const [soon] = await db.insert(appointments).values(appointmentValues(pedro, paula, NOW + 3 * DAY)).returning()
    const [past] = await db.insert(appointments).values(appointmentValues(pedro, paula, NOW - 30 * DAY, { status: 'completed' })).returning()
    const [purchase] = await db
      .insert(purchases)
      .values({ userId: pedro, status: 'paid', method: 'pix', totalCents: 19700, idempotencyKey: 'privacy-test-purchase-1', paidAt: new Date(NOW - 40 * DAY), pixData: '000201-code' })
      .returning()
    await db.insert(consentRecords).values({ userId: pedro, document: 'marketing', version: '1.0', granted: true, source: 'settings' })
    return { pedro, paula, result, soon: soon!, past: past!, purchase: purchase! }
  }

  it('says first what goes now and what the law keeps, until when', async () => {
    const { soon } = await patientWithHistory()
    const token = await tokenOf('paciente@innera.local')
    const plan = await api.get('/users/me/deletion/', { token })
    expect(plan.status).toBe(200)
    expect(plan.headers.get('cache-control')).toBe('private, no-store')
    const year = new Date(NOW).getUTCFullYear()
    expect(plan.json).toMatchObject({
      requires_password: true,
      removed_now: expect.arrayContaining(['profile', 'assessments', 'habits', 'program', 'course_progress']),
      cancelled_now: { appointments: 1, live_subscriptions: 0, upcoming: [{ id: soon.id, role: 'patient', refund: 'full', status: 'scheduled' }] },
      kept: [
        { what: 'payment_records', basis: 'tax_law', until: `${year + 5}-12-31` },
        { what: 'consent_records', until: expect.stringMatching(new RegExp(`^${year + 5}-`)) },
        { what: 'marketing_records', until: expect.stringMatching(new RegExp(`^${year + 2}-`)) },
        { what: 'technical_logs', until: expect.stringMatching(new RegExp(`^${year + 1}-`)) },
        { what: 'anonymised_records', until: null },
      ],
    })
  })

  it('asks for the password and a confirmation, then closes the account for good: no sign-in, the data gone or anonymised', async () => {
    const { pedro, paula, soon, past, purchase } = await patientWithHistory()
    const { access, refresh } = await api.login('paciente@innera.local')
    await db.update(users).set({ googleSubject: 'google-sub-pedro', phone: '11 99999-0000', bio: 'Sobre mim' }).where(eq(users.id, pedro))

    expect((await api.post('/users/me/deletion/', { password: 'innera-demo-2025' }, { token: access })).json).toEqual({ confirm: ['Confirm that the account is to be deleted: send "confirm": true.'] })
    expect((await api.post('/users/me/deletion/', { confirm: true }, { token: access })).json).toEqual({ password: ['This field is required.'] })
    expect((await api.post('/users/me/deletion/', { confirm: true, password: 'wrong' }, { token: access })).json).toEqual({ password: ['Wrong password.'] })
    expect(await db.select().from(accountDeletions)).toHaveLength(0)

    const deleted = await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token: access })
    expect(deleted.status).toBe(200)
    expect(deleted.json).toEqual({ detail: 'Your account has been deleted.' })

    // Signed out everywhere, and never in again.
    expect((await api.get('/users/me/', { token: access })).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', { refresh })).status).toBe(401)
    expect((await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: 'innera-demo-2025' })).status).toBe(401)
    expect((await api.post('/authentication/custom-login/', { email: `deleted-${pedro}@invalid`, password: 'innera-demo-2025' })).status).toBe(401)
    const [row] = await db.select().from(users).where(eq(users.id, pedro))
    expect(row).toMatchObject({ email: `deleted-${pedro}@invalid`, firstName: '', lastName: '', phone: '', bio: '', birthDate: null, photoName: null, googleSubject: null, isActive: false })
    expect(hasUsablePassword(row!.password)).toBe(false)
    expect(await db.select().from(authSessions).where(eq(authSessions.userId, pedro))).toHaveLength(0)

    // Gone: health data, habits, program, shares.
    expect(await db.select().from(questionnaireResults).where(eq(questionnaireResults.userId, pedro))).toHaveLength(0)
    expect(await db.select().from(questionnaireShares)).toHaveLength(0)
    expect(await db.select().from(programs).where(eq(programs.userId, pedro))).toHaveLength(0)
    expect(await db.select().from(habits).where(eq(habits.userId, pedro))).toHaveLength(0)
    expect(await db.select().from(habitEntries)).toHaveLength(0)
    // The future appointment cancelled as the patient's own cancellation (more than 24 h ahead: in full); the past one kept without its notes.
    const [cancelled] = await db.select().from(appointments).where(eq(appointments.id, soon.id))
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: 'patient', refund: 'full', notes: '', privateNotes: '', cancellationReason: '' })
    const [kept] = await db.select().from(appointments).where(eq(appointments.id, past.id))
    expect(kept).toMatchObject({ status: 'completed', notes: '', privateNotes: '', professionalId: paula })
    // The professional is told of the cancellation; nothing is left addressed to the closed account.
    const mail = await db.select().from(outbox)
    expect(mail.some((message) => message.to === 'profissional@innera.local')).toBe(true)
    expect(mail.some((message) => message.to === 'paciente@innera.local')).toBe(false)
    // Payment records kept, without the payment codes; the consent record kept, the marketing opt-in withdrawn.
    expect((await db.select().from(purchases).where(eq(purchases.id, purchase.id)))[0]).toMatchObject({ userId: pedro, status: 'paid', totalCents: 19700, pixData: null })
    const consents = await db.select().from(consentRecords).where(eq(consentRecords.userId, pedro)).orderBy(desc(consentRecords.id))
    expect(consents[0]).toMatchObject({ document: 'marketing', granted: false, source: 'deletion' })
    // Who asked and when, and that it finished, in the audit log.
    const audit = await db.select().from(auditLog).where(eq(auditLog.subjectUserId, pedro)).orderBy(asc(auditLog.id))
    expect(audit.map((entry) => [entry.action, entry.actorRole, entry.actorId])).toEqual([
      ['account.delete_request', 'paciente', pedro],
      ['account.delete_finish', 'system', null],
    ])
    expect((await db.select().from(accountDeletions))[0]).toMatchObject({ userId: pedro, reason: 'request', finishedAt: expect.any(Date) })
  })

  it('a deletion interrupted after the account closed is finished by the next run, and never signs in meanwhile', async () => {
    const { pedro } = await patientWithHistory()
    const { access } = await api.login('paciente@innera.local')
    // The process dies right after the first transaction: the account is closed, the rest not done.
    expect(await requestDeletion(app.services, { userId: pedro, reason: 'request', actor: { actorId: pedro, actorRole: 'paciente' }, now: clock.clock() })).toBe(true)
    expect((await api.get('/users/me/', { token: access })).status).toBe(401)
    expect((await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: 'innera-demo-2025' })).status).toBe(401)
    expect(await db.select().from(habits).where(eq(habits.userId, pedro))).toHaveLength(1)

    // While the lease holds, the job leaves it to the process that took it.
    expect((await retentionTick(app.services)).deletions).toEqual({ finished: 0, failed: 0 })
    expect(await unfinishedDeletions(db)).toEqual([pedro])
    clock.advance(6 * 60)
    expect((await retentionTick(app.services)).deletions).toEqual({ finished: 1, failed: 0 })
    expect(await unfinishedDeletions(db)).toEqual([])
    expect(await db.select().from(habits).where(eq(habits.userId, pedro))).toHaveLength(0)
    expect((await db.select().from(users).where(eq(users.id, pedro)))[0]!.email).toBe(`deleted-${pedro}@invalid`)
  })

  it('a step that fails leaves the account closed and the deletion pending, finished once the fault is gone', async () => {
    const { pedro } = await patientWithHistory()
    const { access } = await api.login('paciente@innera.local')
    // A fault in the middle of the steps: the habits cannot be deleted.
    await db.execute(sql`create function privacy_test_fault() returns trigger language plpgsql as $$ begin raise exception 'disk on fire'; end $$`)
    await db.execute(sql`create trigger privacy_test_fault before delete on habits for each row execute function privacy_test_fault()`)
    try {
      const answer = await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token: access })
      expect(answer.json).toEqual({ detail: 'Your account has been deleted.' })
      expect((await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: 'innera-demo-2025' })).status).toBe(401)
      expect((await db.select().from(accountDeletions))[0]).toMatchObject({ finishedAt: null, lastError: expect.stringContaining('disk on fire') })
      expect(logged.some((entry) => entry.msg === 'account deletion step failed; the retention job tries again')).toBe(true)
    } finally {
      await db.execute(sql`drop trigger privacy_test_fault on habits`)
      await db.execute(sql`drop function privacy_test_fault()`)
    }
    clock.advance(6 * 60)
    expect((await retentionTick(app.services)).deletions).toEqual({ finished: 1, failed: 0 })
    expect(await db.select().from(habits).where(eq(habits.userId, pedro))).toHaveLength(0)
  })

  it('a professional: their future appointments cancelled in full for the patients, no longer bookable', async () => {
    const paula = await idOf('profissional@innera.local')
    const mariana = await idOf('paciente2@innera.local')
    const [late] = await db.insert(appointments).values(appointmentValues(mariana, paula, NOW + 2 * 3600_000)).returning()
    const token = await tokenOf('profissional@innera.local')
    expect((await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token })).status).toBe(200)
    expect((await db.select().from(appointments).where(eq(appointments.id, late!.id)))[0]).toMatchObject({ status: 'cancelled', cancelledBy: 'professional', refund: 'full', privateNotes: '', notes: 'Dor nas costas' })
    const directory = await api.get('/appointments/professionals/', { token: await tokenOf('paciente2@innera.local') })
    expect(directory.json.map((row: { id: number }) => row.id)).not.toContain(paula)
  })

  it('the only active admin is refused (409 last_admin) until another account is an admin', async () => {
    const token = await tokenOf('admin@innera.local')
    const refused = await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token })
    expect(refused.status).toBe(409)
    expect(refused.json.code).toBe('last_admin')
    expect((await api.get('/users/me/', { token })).status).toBe(200)
    const mariana = await idOf('paciente2@innera.local')
    expect((await api.patch(`/users/${mariana}/`, { groups: ['admin'] }, { token })).status).toBe(200)
    expect((await api.post('/users/me/deletion/', { confirm: true, password: 'innera-demo-2025' }, { token })).status).toBe(200)
  })
})

describe('the retention job', () => {
  it('runs once a day: inactive accounts closed, old technical logs and withdrawn marketing deleted, one log line', async () => {
    const active = await idOf('paciente2@innera.local')
    const [dormant] = await db
      .insert(users)
      .values({ email: 'dormant@innera.test', username: 'dormant', password: 'x', firstName: 'Dora', lastName: 'Mente', dateJoined: new Date(NOW - 6 * YEAR), lastLogin: new Date(NOW - 5 * YEAR - 30 * DAY) })
      .returning()
    const [recent] = await db.insert(users).values({ email: 'recent@innera.test', username: 'recent', password: 'x', firstName: 'Rê', dateJoined: new Date(NOW - 6 * YEAR), lastLogin: new Date(NOW - 4 * YEAR) }).returning()
    await db.insert(authSessions).values([
      { id: 'old-session', userId: active, createdAt: new Date(NOW - 400 * DAY), expiresAt: new Date(NOW - 399 * DAY) },
      { id: 'recent-session', userId: active, createdAt: new Date(NOW - 10 * DAY), expiresAt: new Date(NOW - 9 * DAY) },
    ])
    await db.insert(outbox).values([
      { to: 'a@innera.test', subject: 'old', textBody: 'x', sentAt: new Date(NOW - 400 * DAY) },
      { to: 'a@innera.test', subject: 'recent', textBody: 'x', sentAt: new Date(NOW - 30 * DAY) },
      { to: 'a@innera.test', subject: 'waiting', textBody: 'x' },
    ])
    await db.insert(stripeWebhookEvents).values([
      { eventId: 'evt_old', type: 'x', receivedAt: new Date(NOW - 400 * DAY) },
      { eventId: 'evt_new', type: 'x', receivedAt: new Date(NOW - 1 * DAY) },
    ])
    await db.insert(consentRecords).values([
      { userId: active, document: 'marketing', version: '1.0', granted: true, source: 'settings', recordedAt: new Date(NOW - 4 * YEAR) },
      { userId: active, document: 'marketing', version: '1.0', granted: false, source: 'settings', recordedAt: new Date(NOW - 3 * YEAR) },
      { userId: recent!.id, document: 'marketing', version: '1.0', granted: true, source: 'settings', recordedAt: new Date(NOW - 4 * YEAR) },
      { userId: recent!.id, document: 'marketing', version: '1.0', granted: false, source: 'settings', recordedAt: new Date(NOW - 1 * YEAR) },
    ])

    const report = await retentionTick(app.services)
    expect(report.run).toMatchObject({ counts: { inactive_accounts: 1, auth_sessions: 1, outbox: 1, stripe_events: 1, marketing_records: 2 } })
    expect((await db.select().from(users).where(eq(users.id, dormant!.id)))[0]).toMatchObject({ email: `deleted-${dormant!.id}@invalid`, isActive: false, firstName: '' })
    expect((await db.select().from(users).where(eq(users.id, recent!.id)))[0]).toMatchObject({ email: 'recent@innera.test', isActive: true })
    const sessionIds = (await db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, active))).map((row) => row.id)
    expect(sessionIds).toContain('recent-session')
    expect(sessionIds).not.toContain('old-session')
    expect((await db.select({ subject: outbox.subject }).from(outbox).orderBy(asc(outbox.id))).map((row) => row.subject)).toEqual(['recent', 'waiting'])
    expect(await db.select().from(consentRecords).where(and(eq(consentRecords.userId, active), eq(consentRecords.document, 'marketing')))).toHaveLength(0)
    expect(await db.select().from(consentRecords).where(eq(consentRecords.userId, recent!.id))).toHaveLength(2)
    expect(logged.filter((entry) => entry.msg === 'retention run')).toEqual([expect.objectContaining({ level: 'info', inactive_accounts: 1, outbox: 1 })])
    expect((await db.select().from(auditLog).where(eq(auditLog.subjectUserId, dormant!.id))).map((entry) => [entry.action, entry.actorRole])).toEqual([
      ['account.delete_request', 'system'],
      ['account.delete_finish', 'system'],
    ])

    // Again later the same day: nothing runs, nothing is logged. The job counts days in São Paulo
    // (UTC-3 all year) and the clock starts at the real time, so the step stays before its midnight
    // (an hour at most: from 23:00 there, an hour later would be the next day's run).
    const untilMidnightMs = DAY - ((clock.clock() - 3 * 3600_000) % DAY)
    clock.advance(Math.min(3600, Math.floor((untilMidnightMs - 1) / 2000)))
    expect((await retentionTick(app.services)).run).toBeNull()
    expect(logged.filter((entry) => entry.msg === 'retention run')).toHaveLength(1)
    expect(await db.select().from(retentionRuns)).toHaveLength(1)
  })
})

await describeOnPostgres('PostgreSQL: the retention job from two provider processes', (open) => {
  it('runs exactly once a day, whichever process asks first', async () => {
    const { first, second, dispose } = await open()
    try {
      const lines: LogEntry[] = []
      const log = (entry: LogEntry) => lines.push(entry)
      const workers = [testApp(first.db, { log }), testApp(second.db, { log })]
      await first.db.insert(users).values({ email: 'dormant-pg@innera.test', username: 'dormant-pg', password: 'x', dateJoined: new Date(Date.now() - 6 * YEAR) })
      const reports = await Promise.all([...workers, ...workers].map((worker) => retentionTick(worker.services)))
      expect(reports.filter((report) => report.run !== null)).toHaveLength(1)
      expect(lines.filter((entry) => entry.msg === 'retention run')).toHaveLength(1)
      expect(Number((await first.db.select({ n: count() }).from(retentionRuns))[0]!.n)).toBe(1)
      expect((await first.db.select().from(users).where(eq(users.username, 'dormant-pg')))).toHaveLength(0)
      expect((await first.db.select().from(accountDeletions))).toHaveLength(1)
    } finally {
      await dispose()
    }
  })
})
