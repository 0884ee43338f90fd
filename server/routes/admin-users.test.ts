import { and, asc, desc, eq, sql } from 'drizzle-orm'
import type Stripe from 'stripe'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { HOLD_RELEASED_REASON } from '#server/appointments/holds.ts'
import type { Database } from '#server/db/client.ts'
import { appointments, auditLog, authSessions, fakeStripeObjects, professionalProfiles, purchaseRefunds, purchases } from '#server/db/schema.ts'
import { signatureHeader } from '#server/fakes/stripe/webhooks.ts'
import { withFakeStripe } from '#server/testing/stripe.ts'
import { client, PUBLIC_URL } from '#server/testing/harness.ts'
import { ACCREDITATION_REVOKED_REASON } from '#server/professionals/accreditation.ts'

/**
 * The admin console's users (issue 26, decision 0059): the list's state filter, an admin's edits
 * with their audit entries (a deactivation ends the sessions at once), a user's detail, a
 * professional's accreditation (in the directory and bookable) and its revocation (out of it,
 * every future appointment cancelled and refunded, both people told). Every admin endpoint answers
 * 401 to nobody, 403 to a patient and to a professional.
 */

// Tuesday 2026-03-10, 12:00 in São Paulo. Paula (R$ 180,00) sees patients on Wednesdays from 08:00.
const NOW = Date.parse('2026-03-10T15:00:00Z')
const setup = withFakeStripe(NOW)
const sp = (date: string, time: string) => new Date(`${date}T${time}:00-03:00`).toISOString()
const WED = '2026-03-11'

// Seed order: 1 admin, 2 Paula (profissional), 3 Rafael (profissional), 4 Pedro, 5 Mariana.
const ID = { admin: 1, paula: 2, rafael: 3, pedro: 4, mariana: 5 } as const
type Person = keyof typeof ID
const EMAILS: Record<Person, string> = {
  admin: 'admin@innera.local',
  paula: 'profissional@innera.local',
  rafael: 'nutricionista@innera.local',
  pedro: 'paciente@innera.local',
  mariana: 'paciente2@innera.local',
}
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' }

let app: ProviderApp
let db: Database
let api: ReturnType<typeof client>
let stripe: Stripe
const tokens = {} as Record<Person, string>
const refreshTokens = {} as Record<Person, string>

async function signIn() {
  for (const person of Object.keys(ID) as Person[]) {
    const pair = await api.login(EMAILS[person])
    tokens[person] = pair.access
    refreshTokens[person] = pair.refresh
  }
}

beforeAll(async () => {
  app = setup.fake.app
  db = setup.database.db
  stripe = setup.stripe
  api = client(app)
  await signIn()
})

const as = (who?: Person) => (who ? { token: tokens[who] } : {})
const put = (path: string, body: unknown, who?: Person) => api.call('PUT', path, { body, ...as(who) })
const del = (path: string, body: unknown, who?: Person) => api.call('DELETE', path, { body, ...as(who) })
const entries = () => db.select().from(auditLog).orderBy(asc(auditLog.id))

const ACCREDITATION = { profession: 'Nutricionista', registration_number: 'CRN-3 12345', pillars: ['alimento', 'sono'], languages: ['pt', 'en'], price_cents: 0 }

/** Every admin endpoint of this part, as a call by `who` (nobody when undefined). */
const ADMIN_CALLS: [string, (who?: Person) => ReturnType<typeof api.call>][] = [
  ['GET /users/', (who) => api.get('/users/?state=active', as(who))],
  ['GET /users/stats/', (who) => api.get('/users/stats/', as(who))],
  ['PATCH /users/{id}/', (who) => api.patch(`/users/${ID.mariana}/`, { first_name: 'Mariana' }, as(who))],
  ['GET /admin/users/{id}/', (who) => api.get(`/admin/users/${ID.mariana}/`, as(who))],
  ['PUT /admin/users/{id}/accreditation/', (who) => put(`/admin/users/${ID.mariana}/accreditation/`, ACCREDITATION, who)],
  ['DELETE /admin/users/{id}/accreditation/', (who) => del(`/admin/users/${ID.rafael}/accreditation/`, { reason: 'Registro suspenso.' }, who)],
]

describe('the permission matrix of the users endpoints', () => {
  it('anonymous: 401 on every one, nothing changed', async () => {
    for (const [name, call] of ADMIN_CALLS) expect((await call()).status, name).toBe(401)
    expect(await entries()).toEqual([])
  })

  it('a patient: 403 on every one, nothing changed', async () => {
    for (const [name, call] of ADMIN_CALLS) expect(await call('pedro'), name).toMatchObject({ status: 403, json: FORBIDDEN })
    expect(await entries()).toEqual([])
    expect((await db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, ID.rafael)))[0]!.accredited).toBe(true)
  })

  it('a professional: 403 on every one, nothing changed', async () => {
    for (const [name, call] of ADMIN_CALLS) expect(await call('paula'), name).toMatchObject({ status: 403, json: FORBIDDEN })
    expect(await entries()).toEqual([])
  })

  it('an admin: 200 on every one', async () => {
    for (const [name, call] of ADMIN_CALLS) expect((await call('admin')).status, name).toBe(200)
  })
})

describe('GET /users/?state=', () => {
  it('keeps active or inactive accounts; anything else is a 400', async () => {
    await api.patch(`/users/${ID.mariana}/`, { is_active: false }, as('admin'))
    const inactive = await api.get('/users/?state=inactive', as('admin'))
    expect(inactive.json.results.map((user: { id: number }) => user.id)).toEqual([ID.mariana])
    const active = await api.get('/users/?state=active&group=paciente', as('admin'))
    expect(active.json.results.map((user: { id: number }) => user.id)).toEqual([ID.pedro])
    expect((await api.get('/users/?state=', as('admin'))).json.count).toBe(inactive.json.count + (await api.get('/users/?state=active', as('admin'))).json.count)
    expect(await api.get('/users/?state=deleted', as('admin'))).toMatchObject({ status: 400, json: { state: ['"deleted" is not a valid choice.'] } })
  })
})

describe('PATCH /users/{id}/ and the audit log', () => {
  it('records each change with only what changed, by whom and when; a change of nothing records nothing', async () => {
    const response = await api.patch(`/users/${ID.pedro}/`, { first_name: 'Pedro Paulo', last_name: 'Santos', groups: ['paciente', 'profissional'] }, as('admin'))
    expect(response.status).toBe(200)
    const at = new Date(NOW)
    expect(await entries()).toMatchObject([
      { at, actorId: ID.admin, actorRole: 'admin', action: 'user.update', targetType: 'user', targetId: String(ID.pedro), subjectUserId: ID.pedro, before: { first_name: 'Pedro' }, after: { first_name: 'Pedro Paulo' }, reason: null },
      { action: 'user.groups', before: { groups: ['paciente'] }, after: { groups: ['profissional', 'paciente'] } },
    ])
    await api.patch(`/users/${ID.pedro}/`, { first_name: 'Pedro Paulo', groups: ['profissional', 'paciente'], is_active: true }, as('admin'))
    expect(await entries()).toHaveLength(2)
  })

  it('deactivating ends every session of the user at once; reactivating does not bring them back', async () => {
    const before = await api.get('/users/me/', as('mariana'))
    expect(before.status).toBe(200)
    expect((await api.patch(`/users/${ID.mariana}/`, { is_active: false }, as('admin'))).json.is_active).toBe(false)
    // The very next request with her token, and her refresh token, are refused.
    expect((await api.get('/users/me/', as('mariana'))).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', { refresh: refreshTokens.mariana })).status).toBe(401)
    const sessions = await db.select().from(authSessions).where(eq(authSessions.userId, ID.mariana))
    expect(sessions.length).toBeGreaterThan(0)
    expect(sessions.every((session) => session.revokedAt !== null)).toBe(true)
    // Others keep theirs.
    expect((await api.get('/users/me/', as('pedro'))).status).toBe(200)

    expect((await api.patch(`/users/${ID.mariana}/`, { is_active: true }, as('admin'))).json.is_active).toBe(true)
    expect((await api.get('/users/me/', as('mariana'))).status).toBe(401)
    expect((await api.login(EMAILS.mariana)).access).toBeTruthy()
    expect((await entries()).map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['user.deactivate', { is_active: true }, { is_active: false }],
      ['user.reactivate', { is_active: false }, { is_active: true }],
    ])
  })

  it('a refused edit records nothing (the admin cannot lock themself out)', async () => {
    expect((await api.patch(`/users/${ID.admin}/`, { is_active: false }, as('admin'))).status).toBe(400)
    expect((await api.patch(`/users/${ID.pedro}/`, { groups: ['superuser'] }, as('admin'))).status).toBe(400)
    expect(await entries()).toEqual([])
  })
})

describe('GET /admin/users/{id}/', () => {
  it("answers the account, the professional profile (or null) and the upcoming appointments' counts", async () => {
    const booked = await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(WED, '08:00'), payment: 'pix' }, as('pedro'))
    expect(booked.status).toBe(201)
    const paula = await api.get(`/admin/users/${ID.paula}/`, as('admin'))
    expect(paula.headers.get('cache-control')).toBe('private, no-store')
    expect(paula.json).toMatchObject({
      id: ID.paula,
      email: EMAILS.paula,
      groups: ['profissional'],
      is_active: true,
      professional: { accredited: true, profession: expect.any(String), registration_number: expect.any(String), price_cents: 18_000, currency: 'BRL', pillars: expect.any(Array), languages: expect.any(Array) },
      counts: { future_appointments_as_professional: 1, future_appointments_as_patient: 0 },
    })
    expect((await api.get(`/admin/users/${ID.pedro}/`, as('admin'))).json).toMatchObject({ professional: null, counts: { future_appointments_as_professional: 0, future_appointments_as_patient: 1 } })
    expect((await api.get('/admin/users/999/', as('admin'))).status).toBe(404)
    expect((await api.get('/admin/users/0/', as('admin'))).status).toBe(400)
  })
})

describe('PUT /admin/users/{id}/accreditation/', () => {
  const accredit = (id: number, body: unknown) => put(`/admin/users/${id}/accreditation/`, body, 'admin')

  it('checks every field and changes nothing on a refusal', async () => {
    expect((await accredit(ID.pedro, {})).json).toEqual({
      profession: ['This field is required.'],
      registration_number: ['This field is required.'],
      pillars: ['This field is required.'],
      languages: ['This field is required.'],
      price_cents: ['This field is required.'],
    })
    const bad = await accredit(ID.pedro, {
      profession: 'x'.repeat(151),
      registration_number: ' ',
      pillars: ['sono', 'astrologia'],
      languages: [],
      price_cents: 1_000_001,
    })
    expect(bad).toMatchObject({
      status: 400,
      json: {
        profession: ['Ensure this field has no more than 150 characters.'],
        registration_number: ['This field may not be blank.'],
        pillars: ['"astrologia" is not a valid choice.'],
        languages: ['This list may not be empty.'],
        price_cents: ['Ensure this value is less than or equal to 1000000.'],
      },
    })
    const more = await accredit(ID.pedro, { ...ACCREDITATION, registration_number: 'x'.repeat(51), pillars: Array(7).fill('sono'), languages: ['pt', 'de'], price_cents: 10.5 })
    expect(more.json).toEqual({
      registration_number: ['Ensure this field has no more than 50 characters.'],
      pillars: ['Ensure this field has no more than 6 elements.'],
      languages: ['"de" is not a valid choice.'],
      price_cents: ['A valid integer is required.'],
    })
    expect((await accredit(ID.pedro, { ...ACCREDITATION, price_cents: -1 })).json).toEqual({ price_cents: ['Ensure this value is greater than or equal to 0.'] })
    expect((await accredit(999, ACCREDITATION)).status).toBe(404)
    // An admin is never a professional: the role they sign in with would hide every professional page.
    expect(await accredit(ID.admin, ACCREDITATION)).toMatchObject({ status: 409, json: { code: 'is_admin' } })
    expect(await db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, ID.pedro))).toEqual([])
    expect(await entries()).toEqual([])
  })

  it('accredits: the profile made with the weekly availability, the profissional group added, in the directory, bookable; recorded', async () => {
    const response = await accredit(ID.pedro, { ...ACCREDITATION, pillars: ['sono', 'alimento', 'sono'], languages: ['en', 'pt'] })
    expect(response).toMatchObject({
      status: 200,
      json: {
        id: ID.pedro,
        groups: ['profissional', 'paciente'],
        professional: { accredited: true, profession: 'Nutricionista', registration_number: 'CRN-3 12345', pillars: ['alimento', 'sono'], languages: ['pt', 'en'], price_cents: 0, consultation_minutes: 50, time_zone: 'America/Sao_Paulo' },
      },
    })
    const [profile] = await db.select().from(professionalProfiles).where(eq(professionalProfiles.userId, ID.pedro))
    expect(profile!.availability.wednesday).toEqual({ enabled: true, slots: [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }] })

    const directory = await api.get('/appointments/professionals/?pillar=sono', as('mariana'))
    expect(directory.json.map((entry: { id: number }) => entry.id)).toContain(ID.pedro)
    const booked = await api.post('/appointments/create/', { professional_id: ID.pedro, start_time: sp(WED, '08:00') }, as('mariana'))
    expect(booked).toMatchObject({ status: 201, json: { status: 'scheduled', professional: { id: ID.pedro, profession: 'Nutricionista' } } })

    expect(await entries()).toMatchObject([
      {
        actorId: ID.admin,
        action: 'professional.accredit',
        targetType: 'user',
        targetId: String(ID.pedro),
        subjectUserId: ID.pedro,
        before: { accredited: false, groups: ['paciente'] },
        after: { accredited: true, profession: 'Nutricionista', registration_number: 'CRN-3 12345', pillars: ['alimento', 'sono'], languages: ['pt', 'en'], price_cents: 0, groups: ['profissional', 'paciente'] },
      },
    ])
    // The same again changes and records nothing; a new price updates the profile, its schedule kept.
    await accredit(ID.pedro, ACCREDITATION)
    expect(await entries()).toHaveLength(1)
    expect((await accredit(ID.pedro, { ...ACCREDITATION, price_cents: 15_000 })).json.professional.price_cents).toBe(15_000)
    expect((await entries()).at(-1)).toMatchObject({ action: 'professional.accredit', before: { price_cents: 0 }, after: { price_cents: 15_000 } })
  })
})

describe('DELETE /admin/users/{id}/accreditation/', () => {
  const revoke = (id: number, body: unknown) => del(`/admin/users/${id}/accreditation/`, body, 'admin')
  const purchaseRow = async (id: number) => (await db.select().from(purchases).where(eq(purchases.id, id)))[0]!
  const row = async (id: number) => (await db.select().from(appointments).where(eq(appointments.id, id)))[0]!

  async function stripeEvent(type: string, objectId: string): Promise<Stripe.Event> {
    const rows = await db
      .select({ data: fakeStripeObjects.data })
      .from(fakeStripeObjects)
      .where(and(eq(fakeStripeObjects.type, 'event'), sql`${fakeStripeObjects.data}->>'type' = ${type}`, sql`${fakeStripeObjects.data}->'data'->'object'->>'id' = ${objectId}`))
    return rows[0]!.data as unknown as Stripe.Event
  }

  /** The patient's bank pays the PIX code and Stripe's event arrives. */
  async function payPix(purchaseId: number) {
    const paymentIntentId = (await purchaseRow(purchaseId)).stripePaymentIntentId!
    const paid = await app.request(`${PUBLIC_URL}/fake-stripe/pix/${paymentIntentId}`, { method: 'POST', body: new URLSearchParams({ decision: 'succeed' }), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(paid.status).toBe(303)
    const payload = JSON.stringify(await stripeEvent('payment_intent.succeeded', paymentIntentId))
    const signature = signatureHeader(payload, app.services.config.stripe.webhookSecret!, Math.floor(setup.time.clock() / 1000))
    expect((await api.call('POST', '/purchases/webhook/', { rawBody: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } })).json.outcome).toBe('applied')
  }

  it('requires a reason of at most 500 characters', async () => {
    expect(await revoke(ID.paula, {})).toMatchObject({ status: 400, json: { reason: ['This field is required.'] } })
    expect(await revoke(ID.paula, { reason: '  ' })).toMatchObject({ status: 400, json: { reason: ['This field may not be blank.'] } })
    expect(await revoke(ID.paula, { reason: 'x'.repeat(501) })).toMatchObject({ status: 400, json: { reason: ['Ensure this field has no more than 500 characters.'] } })
    expect((await revoke(999, { reason: 'x' })).status).toBe(404)
    expect(await entries()).toEqual([])
  })

  it('takes them out of the directory and cancels each future appointment as theirs: refunded in full, both told; held times let go; once', async () => {
    const paid = await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(WED, '08:00'), payment: 'pix' }, as('pedro'))
    await payPix(paid.json.payment.purchase_id)
    expect(await row(paid.json.id)).toMatchObject({ status: 'scheduled' })
    const held = await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(WED, '09:40'), payment: 'pix' }, as('mariana'))
    expect(held.json.status).toBe('awaiting_payment')
    // Rafael's appointment is not hers: untouched.
    const other = await api.post('/appointments/create/', { professional_id: ID.rafael, start_time: sp(WED, '08:00'), payment: 'pix' }, as('pedro'))
    expect((await api.get(`/admin/users/${ID.paula}/`, as('admin'))).json.counts.future_appointments_as_professional).toBe(2)

    const response = await revoke(ID.paula, { reason: 'Registro profissional suspenso pelo conselho.' })
    expect(response).toMatchObject({
      status: 200,
      json: { id: ID.paula, groups: ['profissional'], professional: { accredited: false }, counts: { future_appointments_as_professional: 0 }, cancelled_appointments: 1, released_held_times: 1 },
    })
    expect((await api.get('/appointments/professionals/', as('pedro'))).json.map((entry: { id: number }) => entry.id)).not.toContain(ID.paula)
    expect((await api.post('/appointments/create/', { professional_id: ID.paula, start_time: sp(WED, '13:00'), payment: 'pix' }, as('pedro'))).status).toBe(400)

    // The paid one: cancelled by the professional, in full, the money back through Stripe.
    expect(await row(paid.json.id)).toMatchObject({ status: 'cancelled', cancelledBy: 'professional', refund: 'full', cancellationReason: ACCREDITATION_REVOKED_REASON })
    expect(await purchaseRow(paid.json.payment.purchase_id)).toMatchObject({ status: 'refunded', refundedCents: 18_000 })
    expect(await db.select().from(purchaseRefunds)).toMatchObject([{ amountCents: 18_000, reason: 'cancel', status: 'succeeded' }])
    const paymentIntent = await stripe.paymentIntents.retrieve((await purchaseRow(paid.json.payment.purchase_id)).stripePaymentIntentId!)
    expect(paymentIntent.status).toBe('succeeded')
    // Both people told, as when she cancels herself.
    for (const email of [EMAILS.pedro, EMAILS.paula]) expect((await api.mailTo(email)).map((mail) => mail.subject).some((subject) => subject.includes('cancelada'))).toBe(true)
    // The held one: its payment cancelled, its time released.
    expect(await row(held.json.id)).toMatchObject({ status: 'cancelled', cancellationReason: HOLD_RELEASED_REASON })
    expect((await purchaseRow(held.json.payment.purchase_id)).status).toBe('cancelled')
    expect((await row(other.json.id)).status).toBe('awaiting_payment')

    expect(await db.select().from(auditLog).orderBy(desc(auditLog.id))).toMatchObject([
      {
        actorId: ID.admin,
        action: 'professional.revoke',
        targetType: 'user',
        targetId: String(ID.paula),
        subjectUserId: ID.paula,
        before: { accredited: true },
        after: { accredited: false, cancelled_appointments: 1, held_times_released: 1 },
        reason: 'Registro profissional suspenso pelo conselho.',
      },
    ])

    // Again: 200, nothing more.
    expect(await revoke(ID.paula, { reason: 'De novo.' })).toMatchObject({ status: 200, json: { professional: { accredited: false }, cancelled_appointments: 0, released_held_times: 0 } })
    expect(await entries()).toHaveLength(1)
    expect(await db.select().from(purchaseRefunds)).toHaveLength(1)
    // A user who never was a professional: nothing to revoke.
    expect(await revoke(ID.mariana, { reason: 'Nada.' })).toMatchObject({ status: 200, json: { professional: null, cancelled_appointments: 0 } })
    expect(await entries()).toHaveLength(1)
  })

  it('accredited again, they are back in the directory', async () => {
    await revoke(ID.rafael, { reason: 'Pausa.' })
    expect((await api.get('/appointments/professionals/', as('pedro'))).json.map((entry: { id: number }) => entry.id)).not.toContain(ID.rafael)
    expect((await put(`/admin/users/${ID.rafael}/accreditation/`, ACCREDITATION, 'admin')).json.professional.accredited).toBe(true)
    expect((await api.get('/appointments/professionals/', as('pedro'))).json.map((entry: { id: number }) => entry.id)).toContain(ID.rafael)
  })
})
