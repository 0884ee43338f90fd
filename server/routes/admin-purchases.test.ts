import { and, asc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { auditLog, fakeStripeObjects, outbox, products, purchaseGrants, purchaseRefunds, purchases, users } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchaseNoticesTick } from '#server/purchases/notices.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, PUBLIC_URL } from '#server/testing/harness.ts'
import { EXPORT_BATCH } from '#server/routes/admin-purchases.ts'

/** The admin console's purchases (issue 26, decision 0061): list, history, refund under the terms, CSV. */

// Tuesday 2026-03-10, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)
const DAY = 24 * 3600

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
const EMAILS = { patient: 'paciente@innera.local', patient2: 'paciente2@innera.local', professional: 'profissional@innera.local', admin: 'admin@innera.local' } as const
type Who = keyof typeof EMAILS
const tokens = {} as Record<Who, string>

async function signIn() {
  for (const who of Object.keys(EMAILS) as Who[]) tokens[who] = (await api.login(EMAILS[who])).access
}

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  stripe = setup.stripe
  api = client(app)
  await signIn()
})

/** Moves the clock on and signs everyone in again (an access token lasts 5 minutes). */
async function later(seconds: number) {
  setup.time.advance(seconds)
  await signIn()
}

let keys = 0
const newKey = () => `admin-test-key-${String(++keys).padStart(8, '0')}`

async function productId(slug: string): Promise<number> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.slug, slug))
  return row!.id
}

async function buy(slugs: string[], method: 'pix' | 'card', who: Who = 'patient') {
  const items = await Promise.all(slugs.map(async (slug) => ({ product_id: await productId(slug), quantity: 1 })))
  const answer = await api.post(
    '/purchases/create/',
    { items, method, idempotency_key: newKey(), ...(method === 'card' && { success_url: 'http://app.test/compras/{PURCHASE_ID}', cancel_url: 'http://app.test/carrinho' }) },
    { token: tokens[who] },
  )
  expect(answer.status).toBe(201)
  return answer.json.id as number
}

const stored = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!

async function event(type: string, objectId: string): Promise<Stripe.Event> {
  const rows = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
    .orderBy(asc(fakeStripeObjects.createdAt), asc(fakeStripeObjects.id))
  expect(rows).toHaveLength(1)
  return rows[0]!.data as unknown as Stripe.Event
}

function deliver(stripeEvent: Stripe.Event) {
  const payload = JSON.stringify(stripeEvent)
  const secret = app.services.config.stripe.webhookSecret!
  return api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, secret, Math.floor(setup.time.clock() / 1000)) } })
}

/** A PIX purchase paid at the fake Stripe, its payment_intent.succeeded delivered to the webhook. */
async function paidPix(slugs: string[], who: Who = 'patient') {
  const id = await buy(slugs, 'pix', who)
  const purchase = await stored(id)
  const settled = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${purchase.stripePaymentIntentId}`, {
    method: 'POST',
    body: new URLSearchParams({ decision: 'succeed' }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  expect(settled.status).toBe(303)
  await app.services.background.idle()
  expect((await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))).json.outcome).toBe('applied')
  return stored(id)
}

const audits = () => db.select().from(auditLog).orderBy(asc(auditLog.id))
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }

describe('who may call the admin purchases endpoints', () => {
  it('anonymous 401, patients and professionals 403, admins 200: on every endpoint', async () => {
    const id = await buy(['diario-do-sono'], 'pix')
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/purchases/'],
      ['GET', `/admin/purchases/${id}/`],
      ['GET', '/admin/purchases/export/'],
      ['POST', `/admin/purchases/${id}/refund/`, { reason: 'Pedido do cliente' }],
    ]
    for (const [method, path, body] of calls) {
      expect((await api.call(method, path, { body })).status, `${method} ${path} anonymous`).toBe(401)
      for (const who of ['patient', 'professional'] as const) {
        const answer = await api.call(method, path, { body, token: tokens[who] })
        expect(answer.status, `${method} ${path} ${who}`).toBe(403)
        expect(answer.json).toEqual(FORBIDDEN)
      }
    }
    for (const [method, path] of calls.slice(0, 3)) expect((await api.call(method, path, { token: tokens.admin })).status, `${method} ${path} admin`).toBe(200)
    // The refund of an unpaid purchase is refused for what it is, not for who asks.
    expect((await api.post(`/admin/purchases/${id}/refund/`, { reason: 'Pedido do cliente' }, { token: tokens.admin })).json).toMatchObject({ code: 'not_paid' })
    expect(await audits()).toEqual([])
  })
})

describe('GET /admin/purchases/', () => {
  it("lists every buyer's purchases newest first, with the buyer and the items; private, no-store", async () => {
    const first = await buy(['diario-do-sono'], 'pix')
    setup.time.advance(60)
    const second = await buy(['curso-sono-reparador', 'pacote-4-consultas'], 'card', 'patient2')
    const answer = await api.get('/admin/purchases/', { token: tokens.admin })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    expect(answer.json).toMatchObject({ count: 2, next: null, previous: null })
    expect(answer.json.results.map((row: { id: number }) => row.id)).toEqual([second, first])
    expect(answer.json.results[0]).toEqual({
      id: second,
      created_at: new Date(NOW + 60_000).toISOString(),
      paid_at: null,
      status: 'pending',
      method: 'card',
      total_cents: expect.any(Number),
      refunded_cents: 0,
      currency: 'BRL',
      buyer: { id: 5, name: expect.any(String), email: 'paciente2@innera.local' },
      items: [
        { product_id: await productId('curso-sono-reparador'), kind: 'course', title: { pt: expect.any(String), en: expect.any(String), es: expect.any(String) }, quantity: 1, price_cents: expect.any(Number), consultation: null },
        { product_id: await productId('pacote-4-consultas'), kind: 'consultation_package', title: expect.any(Object), quantity: 1, price_cents: expect.any(Number), consultation: null },
      ],
    })
  })

  it('filters by status, method, São Paulo dates (both days included) and a search in the buyer or the number', async () => {
    const pix = await paidPix(['diario-do-sono'])
    await later(DAY)
    const card = await buy(['curso-sono-reparador'], 'card', 'patient2')
    const ids = async (query: string) => (await api.get(`/admin/purchases/${query}`, { token: tokens.admin })).json.results.map((row: { id: number }) => row.id)
    expect(await ids('?status=paid')).toEqual([pix.id])
    expect(await ids('?status=pending&method=card')).toEqual([card])
    expect(await ids('?method=pix')).toEqual([pix.id])
    expect(await ids('?status=&method=')).toEqual([card, pix.id])
    // 2026-03-10 12:00 and 2026-03-11 12:00 in São Paulo.
    expect(await ids('?from=2026-03-11')).toEqual([card])
    expect(await ids('?to=2026-03-10')).toEqual([pix.id])
    expect(await ids('?from=2026-03-10&to=2026-03-10')).toEqual([pix.id])
    expect(await ids('?from=2026-03-12')).toEqual([])
    expect(await ids('?search=PACIENTE2@innera')).toEqual([card])
    expect(await ids(`?search=%23${pix.id}`)).toEqual([pix.id])
    expect(await ids(`?search=${card}`)).toEqual([card])
    const [mariana] = await db.select().from(users).where(eq(users.email, EMAILS.patient2))
    expect(await ids(`?search=${encodeURIComponent(`${mariana!.firstName} ${mariana!.lastName}`)}`)).toEqual([card])
    expect(await ids('?search=100%25_')).toEqual([])
  })

  it('refuses an unknown status or method, a malformed or reversed date, a search too long: 400, DRF-style', async () => {
    const bad = async (query: string) => {
      const answer = await api.get(`/admin/purchases/${query}`, { token: tokens.admin })
      expect(answer.status, query).toBe(400)
      return answer.json
    }
    expect(await bad('?status=lost')).toEqual({ status: ['"lost" is not a valid choice.'] })
    expect(await bad('?method=boleto')).toEqual({ method: ['"boleto" is not a valid choice.'] })
    expect(await bad('?from=2026-02-30')).toEqual({ from: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'] })
    expect(await bad('?to=1999-12-31')).toEqual({ to: ['Ensure this value is greater than or equal to 2000-01-01.'] })
    expect(await bad('?from=2026-03-10&to=2026-03-09')).toEqual({ to: ['The end date must not be before the start date.'] })
    expect(await bad(`?search=${'x'.repeat(255)}`)).toEqual({ search: ['Ensure this field has no more than 254 characters.'] })
    // Bounded pages, as every list.
    expect((await api.get('/admin/purchases/?page=2', { token: tokens.admin })).status).toBe(404)
  })
})

describe('GET /admin/purchases/{id}/', () => {
  it('a purchase with its events, the Stripe events that touched it, and what the terms would refund now', async () => {
    const purchase = await paidPix(['curso-sono-reparador'])
    const answer = await api.get(`/admin/purchases/${purchase.id}/`, { token: tokens.admin })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    const paidEvent = await event('payment_intent.succeeded', purchase.stripePaymentIntentId!)
    expect(answer.json).toMatchObject({
      id: purchase.id,
      status: 'paid',
      buyer: { id: 4, email: EMAILS.patient },
      appointment_id: null,
      subscription_id: null,
      events: [
        { from_status: null, to_status: 'pending', source: 'create', stripe_event_id: null },
        { from_status: 'pending', to_status: 'paid', source: 'webhook', stripe_event_id: paidEvent.id },
      ],
      refunds: [],
      refund_quote: { refund_cents: purchase.totalCents, reason: 'refunds.reason.withdrawal', withdrawal_ends_at: '2026-03-18T03:00:00.000Z', deadline: { method: 'pix', business_days: 3 } },
      refund_refusal: null,
    })
    const delivery = answer.json.webhook_deliveries.find((item: { id: string }) => item.id === paidEvent.id)
    expect(delivery).toMatchObject({ type: 'payment_intent.succeeded', received_at: new Date(NOW).toISOString(), changed_status: true })
    // The fake's other events about the PaymentIntent are there too, as never received by the webhook.
    expect(answer.json.webhook_deliveries.some((item: { changed_status: boolean; received_at: string | null }) => !item.changed_status && item.received_at === null)).toBe(true)
    expect((await api.get('/admin/purchases/999999/', { token: tokens.admin })).status).toBe(404)
  })

  it('says why nothing can be refunded: past the 7 days, or not paid', async () => {
    const course = await paidPix(['curso-sono-reparador'])
    const pending = await buy(['diario-do-sono'], 'pix')
    await later(8 * DAY)
    expect((await api.get(`/admin/purchases/${course.id}/`, { token: tokens.admin })).json).toMatchObject({
      refund_quote: null,
      refund_refusal: { code: 'nothing_to_refund', withdrawal_ends_at: '2026-03-18T03:00:00.000Z' },
    })
    expect((await api.get(`/admin/purchases/${pending}/`, { token: tokens.admin })).json).toMatchObject({ refund_quote: null, refund_refusal: { code: 'not_paid' } })
  })
})

describe('POST /admin/purchases/{id}/refund/', () => {
  it('refunds what the terms give, at Stripe, the access ending; the reason audited; the buyer told by e-mail', async () => {
    const purchase = await paidPix(['curso-sono-reparador'])
    await later(3 * DAY)
    const answer = await api.post(`/admin/purchases/${purchase.id}/refund/`, { reason: '  Pediu por telefone  ' }, { token: tokens.admin })
    expect(answer.status).toBe(200)
    expect(answer.json).toMatchObject({
      status: 'refunded',
      refunded_cents: purchase.totalCents,
      refund_quote: null,
      refund_refusal: { code: 'already_refunded' },
      refunds: [
        {
          amount_cents: purchase.totalCents,
          method: 'pix',
          status: 'succeeded',
          reason: 'cancel',
          note: 'Pediu por telefone',
          deadline: { method: 'pix', business_days: 3, date: '2026-03-18' },
          by: { role: 'admin', user: { id: 1, name: expect.any(String) } },
        },
      ],
    })
    expect(answer.json.events.at(-1)).toMatchObject({ from_status: 'paid', to_status: 'refunded', source: 'cancel' })
    expect((await stripe.refunds.list({ payment_intent: purchase.stripePaymentIntentId! })).data.map((refund) => refund.amount)).toEqual([purchase.totalCents])
    expect((await db.select().from(purchaseGrants).where(eq(purchaseGrants.purchaseId, purchase.id)))[0]!.revokedAt).not.toBeNull()
    const [refund] = await db.select().from(purchaseRefunds)
    expect(await audits()).toMatchObject([
      {
        actorId: 1,
        actorRole: 'admin',
        action: 'purchase.refund',
        targetType: 'purchase',
        targetId: String(purchase.id),
        subjectUserId: 4,
        before: { status: 'paid', refunded_cents: 0 },
        after: { status: 'refunded', refunded_cents: purchase.totalCents, refund_id: refund!.id },
        reason: 'Pediu por telefone',
      },
    ])
    expect((await audits())[0]!.at.getTime()).toBe(NOW + 3 * DAY * 1000)
    // The refund's e-mail, as for the buyer's own cancellation (decision 0054), saying who cancelled; never the admin's reason.
    await purchaseNoticesTick(app.services)
    const mail = await db.select().from(outbox).where(eq(outbox.to, EMAILS.patient))
    const refundMail = mail.find((message) => message.subject === `Reembolso de R$\u00a0${(purchase.totalCents / 100).toFixed(2).replace('.', ',')} da compra nº ${purchase.id}`)
    expect(refundMail?.textBody).toContain('do cancelamento feito pela equipe da Innera.')
    expect(refundMail?.textBody).not.toContain('Pediu por telefone')
  })

  it('the same refund asked again answers the purchase as it is; another reason is a 409; nothing is refunded twice', async () => {
    const purchase = await paidPix(['diario-do-sono'])
    const first = await api.post(`/admin/purchases/${purchase.id}/refund/`, { reason: 'Duplicada' }, { token: tokens.admin })
    const again = await api.post(`/admin/purchases/${purchase.id}/refund/`, { reason: 'Duplicada' }, { token: tokens.admin })
    expect(again.status).toBe(200)
    expect(again.json).toEqual(first.json)
    const other = await api.post(`/admin/purchases/${purchase.id}/refund/`, { reason: 'Outro motivo' }, { token: tokens.admin })
    expect(other).toMatchObject({ status: 409, json: { detail: 'This purchase has already been refunded.', code: 'already_refunded' } })
    expect(await db.select().from(purchaseRefunds)).toHaveLength(1)
    expect((await stripe.refunds.list({ payment_intent: purchase.stripePaymentIntentId! })).data).toHaveLength(1)
    expect(await audits()).toHaveLength(1)
  })

  it('never beyond the terms: past the 7 days a course gives nothing back (409), a package its unused credits', async () => {
    const course = await paidPix(['curso-sono-reparador'])
    const pack = await paidPix(['pacote-4-consultas'])
    await later(8 * DAY)
    const refused = await api.post(`/admin/purchases/${course.id}/refund/`, { reason: 'Pediu depois do prazo' }, { token: tokens.admin })
    expect(refused).toMatchObject({ status: 409, json: { code: 'nothing_to_refund' } })
    expect((await stored(course.id)).status).toBe('paid')
    const refunded = await api.post(`/admin/purchases/${pack.id}/refund/`, { reason: 'Desistiu do pacote' }, { token: tokens.admin })
    expect(refunded.json).toMatchObject({ status: 'refunded', refunded_cents: pack.totalCents, refunds: [{ by: { role: 'admin' }, note: 'Desistiu do pacote' }] })
    expect((await audits()).map((entry) => entry.targetId)).toEqual([String(pack.id)])
  })

  it('wants a reason of 1 to 500 characters; an unknown purchase is a 404', async () => {
    const purchase = await paidPix(['diario-do-sono'])
    const post = (body: unknown, id = purchase.id) => api.post(`/admin/purchases/${id}/refund/`, body, { token: tokens.admin })
    expect(await post({})).toMatchObject({ status: 400, json: { reason: ['This field is required.'] } })
    expect(await post({ reason: '   ' })).toMatchObject({ status: 400, json: { reason: ['This field may not be blank.'] } })
    expect(await post({ reason: 'x'.repeat(501) })).toMatchObject({ status: 400, json: { reason: ['Ensure this field has no more than 500 characters.'] } })
    expect((await post({ reason: 'ok' }, 999999)).status).toBe(404)
    expect((await stored(purchase.id)).status).toBe('paid')
    expect(await audits()).toEqual([])
  })
})

describe('GET /admin/purchases/export/', () => {
  it('streams the filtered list as CSV: a BOM, a header row, formulas made text, a dated attachment, no-store', async () => {
    const pix = await paidPix(['diario-do-sono'])
    await buy(['curso-sono-reparador'], 'card', 'patient2')
    await db.update(users).set({ firstName: '=HYPERLINK("http://evil")', lastName: '+1' }).where(eq(users.email, EMAILS.patient))
    const answer = await app.request(`${PUBLIC_URL}/admin/purchases/export/?status=paid`, { headers: { authorization: `Bearer ${tokens.admin}` } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="compras-2026-03-10.csv"')
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    const bytes = new Uint8Array(await answer.arrayBuffer())
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
    expect(text.startsWith('\ufeffid,created_at,paid_at,status,method,total_cents,refunded_cents,currency,buyer_id,buyer_name,buyer_email,items\r\n')).toBe(true)
    const lines = text.slice(1).trimEnd().split('\r\n')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe(
      `${pix.id},${pix.createdAt.toISOString()},${pix.paidAt!.toISOString()},paid,pix,${pix.totalCents},0,BRL,4,"'=HYPERLINK(""http://evil"") +1",paciente@innera.local,Diário do sono (PDF) × 1`,
    )
    expect((await api.get('/admin/purchases/export/?method=boleto', { token: tokens.admin })).status).toBe(400)
  })

  it('reads any number of purchases in keyset batches, each once, newest first, ties by number', async () => {
    const total = EXPORT_BATCH * 2 + 7
    // Many purchases made at the same instant: the batches' seams fall inside a tie.
    await db.execute(sql`insert into purchases (user_id, status, method, total_cents, idempotency_key, created_at, updated_at)
      select 4, 'pending', 'pix', 1000 + n, 'bulk-key-' || lpad(n::text, 8, '0'), ${new Date(NOW - 3600_000).toISOString()}::timestamptz + ((n / 300) || ' seconds')::interval, now()
      from generate_series(1, ${total}) as n`)
    const answer = await api.get('/admin/purchases/export/', { token: tokens.admin })
    // (text() drops the BOM.)
    const rows = answer.text.trimEnd().split('\r\n').slice(1)
    expect(rows).toHaveLength(total)
    const ids = rows.map((line) => Number(line.split(',')[0]))
    expect(new Set(ids).size).toBe(total)
    const stored = await db.select({ id: purchases.id }).from(purchases).orderBy(sql`created_at desc, id desc`)
    expect(ids).toEqual(stored.map((row) => row.id))
  })
})

describe('an admin and a paid consultation (decision 0051)', () => {
  // Paula sees patients on Wednesdays from 08:00.
  const wednesday = (time: string) => new Date(`2026-03-11T${time}:00-03:00`).toISOString()
  const book = async (start: string) => {
    const paula = (await api.get('/users/me/', { token: tokens.professional })).json.id
    const answer = await api.post('/appointments/create/', { professional_id: paula, start_time: start, idempotency_key: newKey(), payment: 'pix' }, { token: tokens.patient })
    expect(answer.status).toBe(201)
    return { appointment: answer.json.id as number, purchase: answer.json.payment.purchase_id as number }
  }

  it('a held time let go by an admin is audited; a paid one is refunded by cancelling it, audited, and the refund named as theirs', async () => {
    const held = await book(wednesday('08:00'))
    expect((await api.get(`/admin/purchases/${held.purchase}/`, { token: tokens.admin })).json).toMatchObject({ appointment_id: held.appointment, refund_refusal: { code: 'not_paid' } })
    expect((await api.post(`/appointments/${held.appointment}/cancel/`, { reason: 'Pedido por telefone' }, { token: tokens.admin })).json.status).toBe('cancelled')
    expect(await audits()).toMatchObject([
      { actorId: 1, action: 'appointment.cancel', targetType: 'appointment', targetId: String(held.appointment), subjectUserId: 4, before: { status: 'awaiting_payment' }, after: { status: 'cancelled' }, reason: 'Pedido por telefone' },
    ])

    const paid = await book(wednesday('09:40'))
    const purchase = await stored(paid.purchase)
    await app.request(`${PUBLIC_URL}/fake-stripe/pix/${purchase.stripePaymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    await app.services.background.idle()
    await deliver(await event('payment_intent.succeeded', purchase.stripePaymentIntentId!))
    expect((await api.get(`/admin/purchases/${paid.purchase}/`, { token: tokens.admin })).json).toMatchObject({ status: 'paid', appointment_id: paid.appointment, refund_quote: null, refund_refusal: { code: 'cancel_the_consultation' } })
    expect((await api.post(`/admin/purchases/${paid.purchase}/refund/`, { reason: 'Reembolso' }, { token: tokens.admin })).json).toMatchObject({ code: 'cancel_the_consultation' })
    expect((await api.post(`/appointments/${paid.appointment}/cancel/`, { reason: 'Profissional doente' }, { token: tokens.admin })).json).toMatchObject({ status: 'cancelled', refund: 'full' })
    expect((await api.get(`/admin/purchases/${paid.purchase}/`, { token: tokens.admin })).json).toMatchObject({
      status: 'refunded',
      refunds: [{ amount_cents: purchase.totalCents, status: 'succeeded', note: 'Profissional doente', by: { role: 'admin', user: { id: 1 } } }],
    })
    expect((await audits()).at(-1)).toMatchObject({ action: 'appointment.cancel', targetId: String(paid.appointment), before: { status: 'scheduled' }, after: { status: 'cancelled', refund: 'full' }, reason: 'Profissional doente' })
  })
})
