import { and, eq, like, sql } from 'drizzle-orm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import type { Database } from '#server/db/client.ts'
import { fakeStripeObjects, outbox, purchaseItems, purchases, users } from '#server/db/schema.ts'
import { reminderTick } from '#server/jobs.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { purchaseNoticesTick } from '#server/purchases/notices.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, PUBLIC_URL } from '#server/testing/harness.ts'

/**
 * Decision 0077 (the finding: "Consulta com Inês Marques, 07/12/2026, 13:50" for a consultation at
 * 10:50 in São Paulo): a consultation's line on its purchase is composed when it is read, in the
 * reader's time zone. Inês works from Lisbon; Mariana books from São Paulo; the admin reads the
 * console from Lisbon. Lisbon moves to summer time on 2026-03-29 (01:00 UTC); São Paulo does not.
 */

// Friday 2026-03-20, 12:00 in São Paulo.
const NOW = Date.parse('2026-03-20T15:00:00Z')
const setup = withFakeStripe(NOW)
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
// Before Lisbon's change: 10:50 in São Paulo is 13:50 in Lisbon (GMT+0). After it: 13:50 in Lisbon (GMT+1) is 09:50 in São Paulo.
const BEFORE = sp('2026-03-27', '10:50')
const AFTER = sp('2026-03-30', '09:50')
const SP_ZONE = 'Horário Padrão de Brasília, Sao Paulo, GMT-3'

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let ines: number
const tokens = { patient: '', admin: '', professional: '' }
let keys = 0

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  api = client(app)
  tokens.patient = (await api.login('paciente2@innera.local')).access
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.professional = (await api.login('psicologa@innera.local')).access
  ines = (await api.get('/users/me/', { token: tokens.professional })).json.id
})

// After the fixture's reset of the database before each test: the admin reads the console from Lisbon.
beforeEach(async () => {
  await db.update(users).set({ timeZone: 'Europe/Lisbon' }).where(eq(users.email, 'admin@innera.local'))
})

const book = (start: string) =>
  api.post('/appointments/create/', { professional_id: ines, start_time: start, idempotency_key: `times-key-${String(++keys).padStart(8, '0')}`, payment: 'pix' }, { token: tokens.patient })
const purchaseRow = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!
const lineOf = async (path: string, token: string) => (await api.get(path, { token })).json.items[0]

async function payPix(purchaseId: number) {
  const paymentIntentId = (await purchaseRow(purchaseId)).stripePaymentIntentId!
  const response = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  await app.services.background.idle()
  expect(response.status).toBe(303)
  const [row] = await db
    .select({ data: fakeStripeObjects.data })
    .from(fakeStripeObjects)
    .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = 'payment_intent.succeeded'`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${paymentIntentId}`))
  const payload = JSON.stringify(row!.data)
  const secret = app.services.config.stripe.webhookSecret!
  const delivered = await api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader(payload, secret, Math.floor(setup.time.clock() / 1000)) } })
  expect(delivered.json.outcome).toBe('applied')
  expect((await purchaseRow(purchaseId)).status).toBe('paid')
}

/** Mariana books Inês at `start`, paying by PIX: the appointment and its purchase. */
async function hold(start: string) {
  const booked = await book(start)
  expect(booked.status).toBe(201)
  return { id: booked.json.id as number, purchaseId: booked.json.payment.purchase_id as number }
}

describe('a consultation’s line, in each reader’s time zone', () => {
  it('reads 10:50 for the patient in São Paulo, with her zone named, and 13:50 for the admin in Lisbon', async () => {
    const held = await hold(BEFORE)
    const patientLine = await lineOf(`/purchases/${held.purchaseId}/`, tokens.patient)
    expect(patientLine).toMatchObject({
      product_type: 'consultation',
      name: { pt: `Consulta com Inês Marques, 27 de março de 2026, 10:50 (${SP_ZONE})`, es: 'Consulta con Inês Marques, 27 de marzo de 2026, 10:50 (hora estándar de Brasilia, Sao Paulo, GMT-3)' },
      consultation: { appointment_id: held.id, starts_at: BEFORE, professional_id: ines, time_zone: 'Europe/Lisbon' },
    })
    expect(patientLine.name.en).toMatch(/^Consultation with Inês Marques, March 27, 2026, 10:50\sAM \(Brasilia Standard Time, Sao Paulo, GMT-3\)$/)
    // The list says the same.
    const list = await api.get('/purchases/', { token: tokens.patient })
    expect(list.json.results.find((row: { id: number }) => row.id === held.purchaseId).items[0].name.pt).toBe(patientLine.name.pt)

    // The admin in Lisbon: Inês's own clock, nothing to name; the purchase's page, the admin's list and detail, and the export.
    expect((await lineOf(`/purchases/${held.purchaseId}/`, tokens.admin)).name.pt).toBe('Consulta com Inês Marques, 27 de março de 2026, 13:50')
    const detail = await api.get(`/admin/purchases/${held.purchaseId}/`, { token: tokens.admin })
    expect(detail.json.items[0]).toMatchObject({ kind: 'consultation', title: { pt: 'Consulta com Inês Marques, 27 de março de 2026, 13:50' }, consultation: { starts_at: BEFORE, time_zone: 'Europe/Lisbon' } })
    const listed = await api.get(`/admin/purchases/?search=${held.purchaseId}`, { token: tokens.admin })
    expect(listed.json.results[0].items[0].title.pt).toBe('Consulta com Inês Marques, 27 de março de 2026, 13:50')
    const exported = await api.get('/admin/purchases/export/?tz=Europe/Lisbon', { token: tokens.admin })
    expect(exported.text).toContain('Consulta com Inês Marques, 27 de março de 2026, 13:50 × 1')
    // The professional has no access to the patient's purchase (her appointment's page shows her own clock).
    expect((await api.get(`/purchases/${held.purchaseId}/`, { token: tokens.professional })).status).toBe(404)
  })

  it('stores the booking’s line in the patient’s zone (Stripe’s page shows it), and an old line stored in the professional’s zone reads right', async () => {
    const held = await hold(BEFORE)
    const [stored] = await db.select({ name: purchaseItems.name }).from(purchaseItems).where(eq(purchaseItems.purchaseId, held.purchaseId))
    expect(stored!.name.pt).toBe(`Consulta com Inês Marques, 27 de março de 2026, 10:50 (${SP_ZONE})`)
    // A line written before decision 0077, in Inês's zone: read, it is composed again.
    await db.update(purchaseItems).set({ name: { pt: 'Consulta com Inês Marques, 27/03/2026, 13:50', en: 'Consultation with Inês Marques, 3/27/26, 1:50 PM', es: 'Consulta con Inês Marques, 27/3/26, 13:50' } }).where(eq(purchaseItems.purchaseId, held.purchaseId))
    expect((await lineOf(`/purchases/${held.purchaseId}/`, tokens.patient)).name.pt).toBe(`Consulta com Inês Marques, 27 de março de 2026, 10:50 (${SP_ZONE})`)
  })

  it('the receipt says the line and the payment’s time in the buyer’s zone; each consultation e-mail is in its recipient’s', async () => {
    const held = await hold(BEFORE)
    await payPix(held.purchaseId)
    await purchaseNoticesTick(app.services)
    const [receipt] = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.to, 'paciente2@innera.local'), like(outbox.subject, `Recibo da sua compra nº ${held.purchaseId} %`)))
    expect(receipt!.textBody).toContain(`por PIX em 20 de março de 2026, 12:00 (${SP_ZONE}), por: Consulta com Inês Marques, 27 de março de 2026, 10:50 (${SP_ZONE}).`)
    await reminderTick(app.services)
    const subjects = async (to: string) => (await db.select({ subject: outbox.subject, text: outbox.textBody }).from(outbox).where(and(eq(outbox.to, to), like(outbox.subject, '%agendada%'))))
    const [mariana] = await subjects('paciente2@innera.local')
    const [professional] = await subjects('psicologa@innera.local')
    expect(mariana!.subject).toBe('Consulta Innera com Inês agendada para 27/03 às 10:50')
    expect(mariana!.text).toContain('sexta-feira, 27 de março de 2026 às 10:50 (Horário Padrão de Brasília)')
    expect(professional!.subject).toBe('Consulta Innera com Mariana agendada para 27/03 às 13:50')
    expect(professional!.text).toContain('sexta-feira, 27 de março de 2026 às 13:50 (Horário Padrão da Europa Ocidental)')
  })

  it('after Lisbon’s change to summer time, one Lisbon hour is another São Paulo hour', async () => {
    const { purchaseId } = await hold(AFTER)
    expect((await lineOf(`/purchases/${purchaseId}/`, tokens.patient)).name.pt).toBe(`Consulta com Inês Marques, 30 de março de 2026, 09:50 (${SP_ZONE})`)
    expect((await lineOf(`/purchases/${purchaseId}/`, tokens.admin)).name.pt).toBe('Consulta com Inês Marques, 30 de março de 2026, 13:50')
  })

  it('follows the appointment when it moves; a line whose appointment is gone says what was stored', async () => {
    const held = await hold(BEFORE)
    await payPix(held.purchaseId)
    const moved = await api.patch(`/appointments/${held.id}/update/`, { start_time: sp('2026-03-27', '11:40') }, { token: tokens.patient })
    expect(moved.status).toBe(200)
    expect((await lineOf(`/purchases/${held.purchaseId}/`, tokens.patient)).name.pt).toBe(`Consulta com Inês Marques, 27 de março de 2026, 11:40 (${SP_ZONE})`)
    expect((await lineOf(`/purchases/${held.purchaseId}/`, tokens.admin)).name.pt).toBe('Consulta com Inês Marques, 27 de março de 2026, 14:40')

    const other = await book(sp('2026-03-26', '10:50'))
    expect(other.json.code ?? other.status).toBe(201)
    expect((await api.call('DELETE', `/appointments/${other.json.id}/delete/`, { token: tokens.admin })).status).toBe(204)
    const line = await lineOf(`/purchases/${other.json.payment.purchase_id}/`, tokens.admin)
    expect(line).toMatchObject({ consultation: null, name: { pt: `Consulta com Inês Marques, 26 de março de 2026, 10:50 (${SP_ZONE})` } })
  })
})
