import { http, HttpResponse } from 'msw'
import { providerMock, providerUrl } from './provider.ts'

/**
 * The admin console's users and audit log as the provider answers them (decision 0059), for the
 * route tests: a user's detail (Rafael, an accredited nutritionist, by default), an audit entry, a
 * DRF page; and handlers that record what the app sent.
 */

export function adminUserAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 3,
    username: 'nutricionista',
    email: 'nutricionista@innera.local',
    first_name: 'Rafael',
    last_name: 'Costa',
    groups: ['profissional'],
    photo: null,
    is_active: true,
    email_verified: true,
    date_joined: '2025-03-18T12:00:00.000Z',
    last_login: '2026-11-20T13:30:00.000Z',
    professional: {
      accredited: true,
      profession: 'Nutricionista',
      registration_number: 'CRN-3 12345',
      pillars: ['alimento', 'sono'],
      languages: ['pt', 'en'],
      price_cents: 15_000,
      currency: 'BRL',
      consultation_minutes: 50,
      time_zone: 'America/Sao_Paulo',
    },
    counts: { future_appointments_as_professional: 3, future_appointments_as_patient: 0 },
    ...overrides,
  }
}

export function auditEntryAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 12,
    at: '2026-11-27T15:04:05.000Z',
    actor: { id: 1, role: 'admin', name: 'Alice Admin', email: 'admin@innera.local' },
    action: 'user.groups',
    target_type: 'user',
    target_id: '4',
    subject: { id: 4, name: 'Pedro Santos' },
    before: { groups: ['paciente'] },
    after: { groups: ['profissional', 'paciente'] },
    reason: null,
    ...overrides,
  }
}

export const page = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results })

export type Sent = { method: string; path: string; query: Record<string, string>; body: unknown }

const CSV = '\ufeffid,at,actor_id\n12,2026-11-27T15:04:05.000Z,1\n'

/** The provider's admin users and audit endpoints, each answer replaceable; what the app sent, in order. */
export function adminHandlers({
  detail = () => HttpResponse.json(adminUserAnswer()),
  patch = () => HttpResponse.json(adminUserAnswer()),
  accredit = () => HttpResponse.json(adminUserAnswer()),
  revoke = () => HttpResponse.json({ ...adminUserAnswer({ professional: { ...adminUserAnswer().professional, accredited: false } }), cancelled_appointments: 3, released_held_times: 0 }),
  audit = () => HttpResponse.json(page([auditEntryAnswer()])),
  exported = () => new HttpResponse(CSV, { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="audit-2026-11-27.csv"', 'Cache-Control': 'private, no-store' } }),
}: Partial<Record<'detail' | 'patch' | 'accredit' | 'revoke' | 'audit' | 'exported', () => Response>> = {}): Sent[] {
  const sent: Sent[] = []
  const record = async (request: Request) => {
    const url = new URL(request.url)
    sent.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: request.method === 'GET' ? undefined : await request.json() })
  }
  providerMock.use(
    http.get(providerUrl('/admin/users/:id/'), async ({ request }) => (await record(request), detail())),
    http.patch(providerUrl('/users/:id/'), async ({ request }) => (await record(request), patch())),
    http.put(providerUrl('/admin/users/:id/accreditation/'), async ({ request }) => (await record(request), accredit())),
    http.delete(providerUrl('/admin/users/:id/accreditation/'), async ({ request }) => (await record(request), revoke())),
    http.get(providerUrl('/admin/audit/'), async ({ request }) => (await record(request), audit())),
    http.get(providerUrl('/admin/audit/export/'), async ({ request }) => (await record(request), exported())),
  )
  return sent
}
