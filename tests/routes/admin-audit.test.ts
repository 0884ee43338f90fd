import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as layoutLoader } from '#app/routes/admin.tsx'
import { loader } from '#app/routes/admin.audit.tsx'
import { loader as exportLoader } from '#app/routes/admin.audit_.export.ts'
import { adminHandlers, auditEntryAnswer, page } from '#tests/mocks/admin.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, demoProfessional, signedIn } from '#tests/mocks/session.ts'

/** The audit log in the app (issue 26, decision 0059), against msw's provider. */

const cookieOf = (user = demoAdmin) => signedIn(user, { checked: true })
const get = async (url: string, user = demoAdmin) => getRequest(url, await cookieOf(user))

describe('who sees the audit log', () => {
  test('patients and professionals get 403 from the page, its .data and the export; nobody asks the provider', async () => {
    const sent = adminHandlers()
    for (const user of [demoPatient, demoProfessional]) {
      const data = await get('http://app.test/admin/audit.data?action=health.view', user)
      expect((await run(layoutLoader, data)).status).toBe(403)
      expect((await run(loader, data)).status).toBe(403)
      expect((await run(exportLoader, await get('http://app.test/admin/audit/export', user))).status).toBe(403)
    }
    expect(sent).toEqual([])
    const visitor = await run(loader, new Request('http://app.test/admin/audit?action=user'))
    expect(visitor.location).toBe('/auth?mode=login&redirectTo=%2Fadmin%2Faudit%3Faction%3Duser')
  })
})

describe('/admin/audit', () => {
  test('lists the entries with the filters as the provider takes them (dates of the admin’s zone), in the page language and the admin’s time; never cached', async () => {
    const sent = adminHandlers({
      audit: () =>
        HttpResponse.json(
          page([
            auditEntryAnswer(),
            auditEntryAnswer({ id: 11, actor: null, action: 'privacy.retention', target_type: 'retention_run', target_id: null, subject: null, before: null, after: { deleted: 3 } }),
            auditEntryAnswer({ id: 10, action: 'professional.revoke', actor: { id: 9, role: 'admin', name: null, email: null }, before: { accredited: true }, after: { accredited: false, cancelled_appointments: 2 }, reason: 'Registro suspenso.' }),
          ]),
        ),
    })
    const result = await run(loader, await get('http://app.test/admin/audit?lng=en&action=user&actor=%20ADMIN@innera.local%20&subject=4&from=2026-11-01&to=2026-11-30'))
    expect(result.headers.get('Cache-Control')).toBe('private, no-store')
    expect(sent).toEqual([{ method: 'GET', path: '/admin/audit/', query: { action: 'user', actor: 'ADMIN@innera.local', subject: '4', from: '2026-11-01', to: '2026-11-30', tz: 'America/Sao_Paulo', page_size: '50' }, body: undefined }])
    expect(result.data).toMatchObject({
      count: 3,
      exportUrl: '/admin/audit/export?action=user&actor=ADMIN%40innera.local&subject=4&from=2026-11-01&to=2026-11-30',
      entries: [
        {
          id: 12,
          when: '11/27/26, 12:04:05 PM',
          actor: { id: 1, name: 'Alice Admin', email: 'admin@innera.local', role: 'Admin' },
          action: 'Groups changed',
          target: 'User #4',
          subject: { id: 4, name: 'Pedro Santos' },
          changes: [{ field: 'groups', before: 'paciente', after: 'profissional, paciente' }],
          reason: null,
        },
        // Another feature's entry still shows, by its own name; the system has no person.
        { id: 11, actor: null, action: 'privacy.retention', target: 'retention_run', subject: null, changes: [{ field: 'deleted', before: null, after: '3' }] },
        { id: 10, actor: { name: 'User 9 (removed)' }, action: 'Accreditation revoked', changes: [{ field: 'accredited', before: 'true', after: 'false' }, { field: 'cancelled_appointments', before: null, after: '2' }], reason: 'Registro suspenso.' },
      ],
    })
  })

  test('ignores filters it cannot read, drops a reversed range or a person that is neither id nor e-mail and says so; a page past the end shows the last', async () => {
    const asked: Record<string, string>[] = []
    providerMock.use(
      http.get(providerUrl('/admin/audit/'), ({ request }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams)
        asked.push(query)
        return query.page === 'last' ? HttpResponse.json(page([auditEntryAnswer()], 120)) : HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
      }),
    )
    const result = await run(loader, await get('http://app.test/admin/audit?action=user.delete&actor=alice&subject=4&from=2026-11-30&to=2026-11-01&page=9'))
    expect(result.data).toMatchObject({ query: { action: '', actor: '', subject: '4', from: '', to: '', dropped: true, page: 3 }, exportUrl: '/admin/audit/export?subject=4' })
    expect(asked).toEqual([
      { subject: '4', tz: 'America/Sao_Paulo', page: '9', page_size: '50' },
      { subject: '4', tz: 'America/Sao_Paulo', page: 'last', page_size: '50' },
    ])
  })

  test('the provider refusing or away is the error page', async () => {
    adminHandlers({ audit: () => HttpResponse.error() })
    expect((await run(loader, await get('http://app.test/admin/audit'))).status).toBe(503)
    adminHandlers({ audit: () => HttpResponse.json({ detail: 'A server error occurred.' }, { status: 500 }) })
    expect((await run(loader, await get('http://app.test/admin/audit'))).status).toBe(500)
  })
})

describe('/admin/audit/export', () => {
  test("streams the provider's CSV through with the page's filters, as a private download", async () => {
    const sent = adminHandlers()
    const response = (await exportLoader({ request: await get('http://app.test/admin/audit/export?action=health.view&subject=4'), params: {}, context: {} })) as Response
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="audit-2026-11-27.csv"')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    // The body is the provider's stream, handed on as it comes: the BOM's bytes first.
    expect(response.body).toBeInstanceOf(ReadableStream)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    expect(new TextDecoder().decode(bytes)).toBe('id,at,actor_id\n12,2026-11-27T15:04:05.000Z,1\n')
    expect(sent).toEqual([{ method: 'GET', path: '/admin/audit/export/', query: { action: 'health.view', subject: '4', tz: 'America/Sao_Paulo' }, body: undefined }])
  })

  test('the provider refusing, away, or answering no CSV: back to the page with its filters, told why', async () => {
    adminHandlers({ exported: () => HttpResponse.json({ from: ['Date has wrong format.'] }, { status: 400 }) })
    const refused = await run(exportLoader, await get('http://app.test/admin/audit/export?subject=4&page=2'))
    expect(refused).toMatchObject({ status: 303, location: '/admin/audit?subject=4&page=2' })
    expect(await toastOf(refused)).toMatchObject({ type: 'error', message: { text: 'Requisição inválida' } })
    adminHandlers({ exported: () => HttpResponse.error() })
    const down = await run(exportLoader, await get('http://app.test/admin/audit/export'))
    expect(down.location).toBe('/admin/audit')
    expect((await toastOf(down))?.message).toMatchObject({ text: expect.stringContaining('conexão') })
    adminHandlers({ exported: () => HttpResponse.json({ results: [] }) })
    expect((await run(exportLoader, await get('http://app.test/admin/audit/export'))).location).toBe('/admin/audit')
  })
})
