import { asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { SYSTEM_ACTOR, type AuditEntry } from '#server/audit/entries.ts'
import { auditCsvStream } from '#server/audit/export.ts'
import { recordAudit } from '#server/audit/repository.ts'
import type { Database, DatabaseHandle } from '#server/db/client.ts'
import { auditLog } from '#server/db/schema.ts'
import { silentLogger } from '#server/log.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, freeConsultations, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

/**
 * The audit log for admins (issue 26, decision 0059): every admin change and every staff read of a
 * patient's health data is an entry; GET /admin/audit/ pages them newest first with filters, and
 * the export streams the same as CSV. Nobody edits an entry, through the API or the database.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const time = fakeClock(NOW)
const sp = (date: string, clock: string) => new Date(`${date}T${clock}:00-03:00`).toISOString()
const WED = '2026-03-11'

const ID = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5 } as const
type Person = keyof typeof ID
const EMAILS: Record<Person, string> = {
  admin: 'admin@innera.local',
  paula: 'profissional@innera.local',
  rafael: 'nutricionista@innera.local',
  pedro: 'paciente@innera.local',
  mariana: 'paciente2@innera.local',
}

let database: DatabaseHandle
let db: Database
let app: ProviderApp
let api: ReturnType<typeof client>
const tokens = {} as Record<Person, string>
let questions: { code: string }[] = []

beforeAll(async () => {
  database = await createMemoryDatabase()
  db = database.db
  app = testApp(db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(86_400), REFRESH_TOKEN_LIFETIME: String(86_400) } })
  api = client(app)
  for (const person of Object.keys(ID) as Person[]) tokens[person] = (await api.login(EMAILS[person])).access
  questions = (await api.get('/questionnaire/')).json.pillars.flatMap((pillar: { questions: { code: string }[] }) => pillar.questions)
})
afterAll(() => database.close())
beforeEach(async () => {
  time.set(NOW)
  await resetDatabase(db)
})

const as = (who?: Person) => (who ? { token: tokens[who] } : {})
const list = (query = '', who: Person = 'admin') => api.get(`/admin/audit/${query}`, as(who))
const entries = () => db.select().from(auditLog).orderBy(asc(auditLog.id))
const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({ actorId: ID.admin, actorRole: 'admin', action: 'user.update', targetType: 'user', targetId: ID.pedro, subjectUserId: ID.pedro, at: NOW, ...overrides })

describe('the permission matrix of the audit endpoints', () => {
  const calls = [
    ['GET /admin/audit/', (who?: Person) => api.get('/admin/audit/', as(who))],
    ['GET /admin/audit/export/', (who?: Person) => api.get('/admin/audit/export/', as(who))],
  ] as const

  it('anonymous: 401', async () => {
    for (const [name, call] of calls) expect((await call()).status, name).toBe(401)
  })
  it('a patient: 403', async () => {
    for (const [name, call] of calls) expect((await call('pedro')).status, name).toBe(403)
  })
  it('a professional: 403', async () => {
    for (const [name, call] of calls) expect((await call('paula')).status, name).toBe(403)
  })
  it('an admin: 200', async () => {
    for (const [name, call] of calls) expect((await call('admin')).status, name).toBe(200)
  })
})

describe('GET /admin/audit/', () => {
  it('records each admin change and answers it newest first: who, what, when, whose, before and after, why', async () => {
    await api.patch(`/users/${ID.mariana}/`, { groups: ['paciente', 'profissional'] }, as('admin'))
    time.set(NOW + 60_000)
    await api.call('PUT', `/admin/users/${ID.pedro}/accreditation/`, { body: { profession: 'Psicólogo', registration_number: 'CRP 06/1', pillars: ['estresse'], languages: ['pt'], price_cents: 12_000 }, ...as('admin') })
    time.set(NOW + 120_000)
    await api.call('DELETE', `/admin/users/${ID.pedro}/accreditation/`, { body: { reason: 'Registro vencido.' }, ...as('admin') })
    await recordAudit(db, { ...SYSTEM_ACTOR, action: 'retention.run', targetType: 'audit_log', targetId: null, at: NOW + 180_000 })

    const page = await list()
    expect(page.status).toBe(200)
    expect(page.headers.get('cache-control')).toBe('private, no-store')
    expect(page.json.count).toBe(4)
    expect(page.json.results).toEqual([
      { id: 4, at: new Date(NOW + 180_000).toISOString(), actor: null, action: 'retention.run', target_type: 'audit_log', target_id: null, subject: null, before: null, after: null, reason: null },
      {
        id: 3,
        at: new Date(NOW + 120_000).toISOString(),
        actor: { id: ID.admin, role: 'admin', name: 'Alice Admin', email: EMAILS.admin },
        action: 'professional.revoke',
        target_type: 'user',
        target_id: String(ID.pedro),
        subject: { id: ID.pedro, name: 'Pedro Santos' },
        before: { accredited: true },
        after: { accredited: false, cancelled_appointments: 0 },
        reason: 'Registro vencido.',
      },
      expect.objectContaining({ id: 2, action: 'professional.accredit', after: expect.objectContaining({ profession: 'Psicólogo', price_cents: 12_000 }) }),
      expect.objectContaining({ id: 1, action: 'user.groups', subject: { id: ID.mariana, name: 'Mariana Alves' }, before: { groups: ['paciente'] }, after: { groups: ['profissional', 'paciente'] } }),
    ])
  })

  it('filters by actor (id or e-mail), subject, action or area, target type and São Paulo days; pages like DRF', async () => {
    await recordAudit(
      db,
      entry({ at: Date.parse('2026-03-10T02:00:00Z') }), // 9 March, 23:00 in São Paulo
      entry({ at: Date.parse('2026-03-10T04:00:00Z'), action: 'user.groups', subjectUserId: ID.mariana, targetId: ID.mariana }), // 10 March, 01:00
      entry({ actorId: ID.paula, actorRole: 'profissional', action: 'health.view', targetType: 'program', targetId: 9 }),
    )
    const ids = async (query: string) => (await list(query)).json.results.map((result: { id: number }) => result.id)
    expect(await ids('')).toEqual([3, 2, 1])
    expect(await ids(`?actor=${ID.paula}`)).toEqual([3])
    expect(await ids('?actor=PROFISSIONAL@innera.local')).toEqual([3])
    expect(await ids('?actor=nobody@innera.local')).toEqual([])
    expect(await ids(`?subject=${ID.mariana}`)).toEqual([2])
    expect(await ids(`?subject=${EMAILS.pedro}`)).toEqual([3, 1])
    expect(await ids('?action=user.groups')).toEqual([2])
    expect(await ids('?action=user')).toEqual([2, 1])
    expect(await ids('?target_type=program')).toEqual([3])
    expect(await ids('?from=2026-03-10')).toEqual([3, 2])
    expect(await ids('?to=2026-03-09')).toEqual([1])
    expect(await ids('?from=2026-03-09&to=2026-03-09&actor=1')).toEqual([1])
    expect(await ids('?action=&actor=&from=')).toEqual([3, 2, 1])
    const paged = await list('?page_size=2&page=2')
    expect(paged.json).toMatchObject({ count: 3, next: null, previous: expect.stringContaining('page_size=2'), results: [{ id: 1 }] })
  })

  it('answers 400 for a malformed filter', async () => {
    expect((await list('?actor=someone')).json).toEqual({ actor: ['Enter a user id or an e-mail address.'] })
    expect((await list('?actor=99999999999')).json).toEqual({ actor: ['Ensure this value is less than or equal to 2147483647.'] })
    expect((await list('?subject=0')).json).toEqual({ subject: ['Ensure this value is greater than or equal to 1.'] })
    expect((await list('?action=User.Groups')).json).toEqual({ action: ['Enter an action such as "user.groups", or an area such as "user".'] })
    expect((await list(`?action=${'a'.repeat(65)}`)).json).toEqual({ action: ['Ensure this field has no more than 64 characters.'] })
    expect((await list('?target_type=user%20x')).json).toEqual({ target_type: ['Enter a target type such as "user".'] })
    expect((await list('?from=2026-02-30')).json).toEqual({ from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] })
    expect((await list('?to=1999-12-31')).json).toEqual({ to: ['Ensure this value is greater than or equal to 2000-01-01.'] })
    expect(await list('?from=2026-03-10&to=2026-03-09')).toMatchObject({ status: 400, json: { to: ['Ensure this date is not before "from".'] } })
    expect((await list('?page=9')).status).toBe(404)
  })

  it('nobody edits an entry: the API has no way to, and the database refuses UPDATE and DELETE', async () => {
    await recordAudit(db, entry({}))
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect((await api.call(method, '/admin/audit/', { body: {}, ...as('admin') })).status, method).toBe(405)
    const refusal = async (statement: PromiseLike<unknown>) => {
      try {
        await statement
        return 'allowed'
      } catch (error) {
        return String((error as { cause?: Error }).cause?.message ?? (error as Error).message)
      }
    }
    expect(await refusal(db.update(auditLog).set({ reason: 'rewritten' }).where(eq(auditLog.id, 1)))).toMatch(/append-only: UPDATE refused/)
    expect(await refusal(db.delete(auditLog).where(eq(auditLog.id, 1)))).toMatch(/append-only: DELETE refused/)
    expect(await entries()).toMatchObject([{ id: 1, reason: null }])
  })
})

describe("staff reads of a patient's health data", () => {
  const answers = () => Object.fromEntries(questions.map((question) => [question.code, 2]))
  const views = async () => (await entries()).filter((row) => row.action === 'health.view').map((row) => [row.actorId, row.targetType, row.targetId, row.subjectUserId])

  it('an assessment result read by a professional it is shared with, or by an admin, is kept; the patient reading it is not', async () => {
    const result = (await api.post('/questionnaire/submit/', { version: '2025.1', answers: answers() }, as('pedro'))).json
    await api.post('/questionnaire/share/', { questionnaire: result.id, professionals: [ID.paula] }, as('pedro'))
    expect((await api.get(`/questionnaire/${result.id}/`, as('pedro'))).status).toBe(200)
    expect(await views()).toEqual([])
    expect((await api.get(`/questionnaire/${result.id}/`, as('paula'))).status).toBe(200)
    expect((await api.get(`/questionnaire/${result.id}/`, as('admin'))).status).toBe(200)
    // Not shared with Rafael: a 404, and nothing was read.
    expect((await api.get(`/questionnaire/${result.id}/`, as('rafael'))).status).toBe(404)
    expect((await api.get('/questionnaire/shared-with-me/', as('paula'))).json.count).toBe(1)
    expect(await views()).toEqual([
      [ID.paula, 'questionnaire_result', String(result.id), ID.pedro],
      [ID.admin, 'questionnaire_result', String(result.id), ID.pedro],
      [ID.paula, 'questionnaire_result', String(result.id), ID.pedro],
    ])
    expect((await entries()).at(-1)).toMatchObject({ actorRole: 'profissional', action: 'health.view', at: new Date(NOW) })
  })

  it("a patient's program read by their professional or an admin is kept", async () => {
    const program = (await api.post('/program/', { focus_pillars: ['sono'] }, as('pedro'))).json
    expect((await api.get(`/users/patients/${ID.pedro}/program/`, as('paula'))).status).toBe(200)
    expect((await api.get(`/users/patients/${ID.pedro}/program/`, as('admin'))).status).toBe(200)
    expect((await api.get('/program/', as('pedro'))).status).toBe(200)
    expect(await views()).toEqual([
      [ID.paula, 'program', String(program.id), ID.pedro],
      [ID.admin, 'program', String(program.id), ID.pedro],
    ])
  })

  it("an appointment's private notes read by its professional or an admin are kept, once per request; none when there are none", async () => {
    await freeConsultations(db)
    const booked = (await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(WED, '08:00') }, as('pedro'))).json
    expect((await api.get(`/appointments/${booked.id}/`, as('paula'))).status).toBe(200)
    expect(await views()).toEqual([])
    await api.patch(`/appointments/${booked.id}/status/`, { private_notes: 'Insônia há 3 meses.' }, as('paula'))
    await api.get(`/appointments/${booked.id}/`, as('paula'))
    await api.get(`/appointments/${booked.id}/`, as('pedro'))
    await api.get('/appointments/', as('admin'))
    await api.get(`/appointments/dashboard/?start=${WED}`, as('paula'))
    expect(await views()).toEqual([
      [ID.paula, 'appointment_notes', String(booked.id), ID.pedro],
      [ID.admin, 'appointment_notes', String(booked.id), ID.pedro],
      [ID.paula, 'appointment_notes', String(booked.id), ID.pedro],
    ])
  })
})

describe('GET /admin/audit/export/', () => {
  const download = (query = '') => api.get(`/admin/audit/export/${query}`, as('admin'))

  it('streams the filtered log as CSV for a spreadsheet: a BOM, a header, newest first, formulas defused; the export itself is kept', async () => {
    await recordAudit(
      db,
      entry({ reason: '=HYPERLINK("http://evil.example","clique")', before: { first_name: 'Pedro' }, after: { first_name: 'Pedro Paulo' } }),
      entry({ at: NOW + 1000, action: 'professional.revoke', reason: '@SUM(1+1)' }),
      entry({ at: NOW + 2000, action: 'professional.revoke', reason: '-2+3' }),
      entry({ at: NOW + 3000, action: 'professional.revoke', reason: '+1', subjectUserId: ID.mariana }),
      entry({ at: NOW + 4000, action: 'professional.revoke', reason: "=cmd|' /C calc'!A0" }),
    )
    const response = await download(`?subject=${ID.pedro}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="audit-2026-03-10.csv"')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    // The bytes as sent (a text decoder would drop the BOM): EF BB BF first.
    const raw = new Uint8Array(await (await app.request(`${PUBLIC_URL}/admin/audit/export/?subject=${ID.pedro}`, { headers: { authorization: `Bearer ${tokens.admin}` } })).arrayBuffer())
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = response.text.trimEnd().split('\n')
    expect(lines[0]).toBe('id,at,actor_id,actor_role,actor_name,actor_email,action,target_type,target_id,subject_id,subject_name,reason,before,after')
    expect(lines.slice(1)).toEqual([
      `5,${new Date(NOW + 4000).toISOString()},1,admin,Alice Admin,admin@innera.local,professional.revoke,user,4,4,Pedro Santos,'=cmd|' /C calc'!A0,,`,
      `3,${new Date(NOW + 2000).toISOString()},1,admin,Alice Admin,admin@innera.local,professional.revoke,user,4,4,Pedro Santos,'-2+3,,`,
      `2,${new Date(NOW + 1000).toISOString()},1,admin,Alice Admin,admin@innera.local,professional.revoke,user,4,4,Pedro Santos,'@SUM(1+1),,`,
      `1,${new Date(NOW).toISOString()},1,admin,Alice Admin,admin@innera.local,user.update,user,4,4,Pedro Santos,"'=HYPERLINK(""http://evil.example"",""clique"")","{""first_name"":""Pedro""}","{""first_name"":""Pedro Paulo""}"`,
    ])
    expect((await entries()).at(-1)).toMatchObject({ actorId: ID.admin, action: 'audit.export', targetType: 'audit_log', targetId: null, after: { filters: { subject: String(ID.pedro) } } })
    expect((await api.get('/admin/audit/export/?from=2026-13-01', as('admin'))).status).toBe(400)
  })

  it('reads the log in keyset batches: every entry once, ties on the same instant included, past a batch of 500', async () => {
    await recordAudit(db, ...Array.from({ length: 1203 }, (_, index) => entry({ at: NOW - Math.floor(index / 3) * 1000, targetId: index })))
    const lines = (await download()).text.trimEnd().split('\n')
    // The export's own entry is the newest: the file says who made it.
    expect(lines).toHaveLength(1 + 1203 + 1)
    expect(lines[1]).toContain(',audit.export,audit_log,')
    const ids = lines.slice(2).map((line) => Number(line.split(',')[0]))
    expect(new Set(ids).size).toBe(1203)

    // Smaller batches, each entry at the very same instant: the cursor's id breaks the tie.
    await resetDatabase(db)
    await recordAudit(db, ...Array.from({ length: 5 }, () => entry({})))
    const text = await new Response(auditCsvStream(db, {}, silentLogger, 2)).text()
    expect(text.trimEnd().split('\n').slice(1).map((line) => Number(line.split(',')[0]))).toEqual([5, 4, 3, 2, 1])
  })
})

await describeOnPostgres('PostgreSQL: the export reads every entry once, instants to the microsecond', (open) => {
  it('keyset batches through two pools: the cursor keeps the instant as PostgreSQL wrote it', async () => {
    const { first, second, dispose } = await open()
    try {
      // Written by the database's clock (microseconds), several in one statement (the same instant), others apart.
      for (let round = 0; round < 3; round += 1) {
        await first.db.execute(sql`insert into audit_log (actor_id, actor_role, action, target_type, target_id) select 1, 'admin', 'user.update', 'user', g::text from generate_series(1, 4) g`)
      }
      await expect(first.db.execute(sql`update audit_log set reason = 'x'`)).rejects.toThrow()
      const text = await new Response(auditCsvStream(second.db, {}, silentLogger, 3)).text()
      const ids = text.trimEnd().split('\n').slice(1).map((line) => Number(line.split(',')[0]))
      expect(ids).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    } finally {
      await dispose()
    }
  })
})
