import { http, HttpResponse } from 'msw'
import { providerMock, providerUrl } from './provider.ts'

/**
 * The admin console's purchases as the provider answers them (decision 0061), for the route tests:
 * a paid PIX course within its 7 days by default, any field replaced; a DRF page of them; handlers
 * that record what the app asked for.
 */

export function adminPurchaseAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 42,
    created_at: '2026-11-25T13:00:00.000Z',
    paid_at: '2026-11-25T13:01:00.000Z',
    status: 'paid',
    method: 'pix',
    total_cents: 19_700,
    refunded_cents: 0,
    currency: 'BRL',
    buyer: { id: 4, name: 'Pedro Santos', email: 'paciente@innera.local' },
    items: [{ product_id: 9, kind: 'course', title: { pt: 'Curso Sono reparador', en: 'Restful sleep course', es: 'Curso Sueño reparador' }, quantity: 1, price_cents: 19_700 }],
    ...overrides,
  }
}

export function adminPurchaseDetailAnswer(overrides: Record<string, unknown> = {}) {
  return {
    ...adminPurchaseAnswer(),
    updated_at: '2026-11-25T13:01:00.000Z',
    failure: null,
    appointment_id: null,
    subscription_id: null,
    events: [
      { from_status: null, to_status: 'pending', at: '2026-11-25T13:00:00.000Z', source: 'create', stripe_event_id: null },
      { from_status: 'pending', to_status: 'paid', at: '2026-11-25T13:01:00.000Z', source: 'webhook', stripe_event_id: 'evt_paid_1' },
    ],
    webhook_deliveries: [{ id: 'evt_paid_1', type: 'payment_intent.succeeded', received_at: '2026-11-25T13:01:00.000Z', changed_status: true, deliveries: { attempts: 1, delivered_at: '2026-11-25T13:01:00.000Z', failed_at: null, last_error: null } }],
    refunds: [],
    refund_quote: { refund_cents: 19_700, reason: 'refunds.reason.withdrawal', withdrawal_ends_at: '2026-12-03T03:00:00.000Z', deadline: { method: 'pix', key: 'refunds.deadline.pix', billing_cycles: null, business_days: 3, date: '2026-12-03' }, items: [] },
    refund_refusal: null,
    ...overrides,
  }
}

/** The same purchase once an admin refunded it. */
export const refundedAnswer = () =>
  adminPurchaseDetailAnswer({
    status: 'refunded',
    refunded_cents: 19_700,
    refund_quote: null,
    refund_refusal: { code: 'already_refunded', withdrawal_ends_at: null },
    refunds: [
      {
        id: 3,
        amount_cents: 19_700,
        method: 'pix',
        status: 'succeeded',
        reason: 'cancel',
        note: 'Pediu por telefone',
        deadline: { method: 'pix', key: 'refunds.deadline.pix', billing_cycles: null, business_days: 3, date: '2026-12-03' },
        created_at: '2026-11-30T12:00:00.000Z',
        by: { role: 'admin', user: { id: 1, name: 'Alice Admin' } },
      },
    ],
  })

export const purchasePage = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results })

/** What the app asked the provider for: each request's path, query and body. */
export type Sent = { method: string; path: string; query: Record<string, string>; body: unknown }

/**
 * The admin purchase endpoints: the list and a purchase answer as given (or as `answers` says),
 * the refund answers `refund()` (the refunded purchase by default), the export `csv`.
 */
export function adminPurchaseHandlers({
  list = () => HttpResponse.json(purchasePage([adminPurchaseAnswer()])),
  detail = () => HttpResponse.json(adminPurchaseDetailAnswer()),
  refund = () => HttpResponse.json(refundedAnswer()),
  exported = () =>
    new HttpResponse('\ufeffid,status\r\n42,paid\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="compras-2026-11-30.csv"' } }),
}: { list?: () => Response; detail?: () => Response; refund?: () => Response; exported?: () => Response } = {}): Sent[] {
  const sent: Sent[] = []
  const record = async (request: Request) => {
    const url = new URL(request.url)
    sent.push({ method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: request.method === 'GET' ? undefined : await request.json() })
  }
  providerMock.use(
    http.get(providerUrl('/admin/purchases/'), async ({ request }) => (await record(request), list())),
    http.get(providerUrl('/admin/purchases/export/'), async ({ request }) => (await record(request), exported())),
    http.get(providerUrl('/admin/purchases/:id/'), async ({ request }) => (await record(request), detail())),
    http.post(providerUrl('/admin/purchases/:id/refund/'), async ({ request }) => (await record(request), refund())),
  )
  return sent
}
