import { http, HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { loader as layoutLoader } from '#app/routes/admin.tsx'
import { loader as adminDetailLoader } from '#app/routes/admin.purchases.$id.tsx'
import { loader as adminListLoader } from '#app/routes/admin.purchases._index.tsx'
import { loader as purchaseLoader } from '#app/routes/compras.$id.tsx'
import { loader as purchasesLoader } from '#app/routes/compras._index.tsx'
import { adminPurchaseHandlers } from '#tests/mocks/admin-purchases.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { getRequest, run } from '#tests/mocks/route.ts'
import { demoAdmin, demoPatient, signedIn } from '#tests/mocks/session.ts'

/**
 * Decision 0077: a page's times are its viewer's, in the zone of their profile. A patient and an
 * admin who live in Lisbon (GMT+0 in November and December) against the same provider answers a
 * São Paulo viewer reads 3 hours earlier.
 */

const LISBON = 'Europe/Lisbon'
const request = async (url: string, user: typeof demoPatient) => getRequest(url, await signedIn(user, { checked: true }))
const inLisbon = <User extends typeof demoPatient>(user: User): User => ({ ...user, time_zone: LISBON })

/** A paid consultation's purchase as the provider answers its buyer (its line already in the caller's zone). */
const consultationPurchase = (overrides: Record<string, unknown> = {}) => ({
  id: 7,
  status: 'paid',
  method: 'pix',
  total_cents: 20_000,
  refunded_cents: 0,
  currency: 'BRL',
  items: [
    {
      product_id: null,
      product_type: 'consultation',
      name: { pt: 'Consulta com Inês Marques, 7 de dezembro de 2026, 13:50', en: 'Consultation with Inês Marques, December 7, 2026, 1:50 PM', es: 'Consulta con Inês Marques, 7 de diciembre de 2026, 13:50' },
      quantity: 1,
      unit_cents: 20_000,
      line_cents: 20_000,
      consultation: { appointment_id: 3, starts_at: '2026-12-07T13:50:00.000Z', professional_id: 6, time_zone: LISBON },
    },
  ],
  created_at: '2026-11-26T15:00:00.000Z',
  updated_at: '2026-11-26T15:01:00.000Z',
  paid_at: '2026-11-26T15:01:00.000Z',
  checkout_url: null,
  checkout_expires_at: null,
  pix: null,
  failure: null,
  transitions: [],
  refunds: [],
  // Paid on 26 November: the 7 days end at midnight in São Paulo starting 4 December.
  refund_quote: { refund_cents: 20_000, reason: 'refunds.reason.withdrawal', withdrawal_ends_at: '2026-12-04T03:00:00.000Z', deadline: { method: 'pix', billing_cycles: null, business_days: 3, date: '2026-12-01' } },
  can_cancel: false,
  can_renew_pix: false,
  appointment_id: 3,
  ...overrides,
})

type PurchasePage = { purchase: { createdLabel: string; paidLabel: string | null; items: { name: string }[]; refund: { withdrawalEnds: string | null; deadline: { dateLabel: string } } | null; pix: { expiresLabel: string } | null } }

describe('the purchase page, for a buyer in Lisbon', () => {
  test('its times in Lisbon, the withdrawal’s end as the instant it ends there, named; the line as the provider composed it for her', async () => {
    providerMock.use(http.get(providerUrl('/purchases/7/'), () => HttpResponse.json(consultationPurchase())))
    const lisbon = (await run(purchaseLoader, await request('http://app.test/compras/7', inLisbon(demoPatient)), { id: '7' })).data as PurchasePage
    expect(lisbon.purchase).toMatchObject({
      createdLabel: '26 de novembro de 2026, 15:00',
      paidLabel: '26 de novembro de 2026, 15:01',
      items: [{ name: 'Consulta com Inês Marques, 7 de dezembro de 2026, 13:50' }],
      refund: { withdrawalEnds: '4 de dezembro de 2026, 03:00 (Horário da Europa Ocidental, Lisbon, GMT+0)', deadline: { dateLabel: '1 de dezembro de 2026' } },
    })
    // The same answer in São Paulo: three hours earlier, and the terms' last day as a date.
    const saoPaulo = (await run(purchaseLoader, await request('http://app.test/compras/7', demoPatient), { id: '7' })).data as PurchasePage
    expect(saoPaulo.purchase).toMatchObject({ createdLabel: '26 de novembro de 2026, 12:00', refund: { withdrawalEnds: '3 de dezembro de 2026' } })
  })

  test('an open PIX code expires at its Lisbon time; Spanish reads naturally', async () => {
    providerMock.use(
      http.get(providerUrl('/purchases/7/'), () =>
        HttpResponse.json(consultationPurchase({ status: 'pending', paid_at: null, refund_quote: null, can_cancel: true, pix: { data: '00020101021226580014br.gov.bcb.pix', expires_at: '2026-11-26T15:30:00.000Z', instructions_url: null } })),
      ),
    )
    const page = (await run(purchaseLoader, await request('http://app.test/compras/7?lng=es', inLisbon(demoPatient)), { id: '7' })).data as PurchasePage
    expect(page.purchase).toMatchObject({ createdLabel: '26 de noviembre de 2026, 15:00', pix: { expiresLabel: '15:30' }, items: [{ name: 'Consulta con Inês Marques, 7 de diciembre de 2026, 13:50' }] })
  })

  test('the list dates each purchase on the day it was made in Lisbon', async () => {
    providerMock.use(
      http.get(providerUrl('/purchases/'), () => HttpResponse.json({ count: 1, next: null, previous: null, results: [consultationPurchase({ created_at: '2026-11-27T01:30:00.000Z' })] })),
    )
    const dates = async (user: typeof demoPatient) => ((await run(purchasesLoader, await request('http://app.test/compras', user))).data as { purchases: { date: string }[] }).purchases.map((row) => row.date)
    // 01:30 UTC on the 27th is the 26th in São Paulo, the 27th in Lisbon.
    expect(await dates(inLisbon(demoPatient))).toEqual(['27 de nov. de 2026'])
    expect(await dates(demoPatient)).toEqual(['26 de nov. de 2026'])
  })
})

describe('the admin console, for an admin in Lisbon', () => {
  const admin = inLisbon(demoAdmin)

  test('every page names the admin’s zone', async () => {
    expect((await run(layoutLoader, await request('http://app.test/admin/purchases', admin))).data).toEqual({ zone: 'Horário da Europa Ocidental (Lisbon, GMT+0)' })
    expect((await run(layoutLoader, await request('http://app.test/admin/purchases', demoAdmin))).data).toEqual({ zone: 'Horário Padrão de Brasília (Sao Paulo, GMT-3)' })
  })

  test('the purchases list: its dates are Lisbon’s days at the provider, its times Lisbon’s, the zone named beside the form', async () => {
    const sent = adminPurchaseHandlers()
    const result = await run(adminListLoader, await request('http://app.test/admin/purchases?from=2026-11-01&to=2026-11-30', admin))
    expect(sent).toMatchObject([{ path: '/admin/purchases/', query: { from: '2026-11-01', to: '2026-11-30', tz: LISBON } }])
    // Made at 13:00 UTC: 13:00 in Lisbon (10:00 in São Paulo).
    expect(result.data).toMatchObject({ zone: 'Horário da Europa Ocidental (Lisbon, GMT+0)', purchases: [{ id: 42, created: '25/11/2026, 13:00' }] })
  })

  test('a purchase’s page: its history in Lisbon’s time, the withdrawal’s end as it ends there', async () => {
    adminPurchaseHandlers()
    const result = await run(adminDetailLoader, await request('http://app.test/admin/purchases/42', admin), { id: '42' })
    expect(result.data).toMatchObject({
      purchase: {
        created: '25/11/2026, 13:00',
        paid: '25/11/2026, 13:01',
        events: [{ when: '25/11/2026, 13:00' }, { when: '25/11/2026, 13:01' }],
        quote: { withdrawalEnds: '3 de dezembro de 2026, 03:00 (Horário da Europa Ocidental, Lisbon, GMT+0)', deadline: { date: '3 de dezembro de 2026' } },
      },
    })
  })
})
