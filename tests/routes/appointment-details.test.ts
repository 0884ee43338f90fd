import { http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type BookingReply, type PickerView } from '#app/forms/appointment-forms.ts'
import { action as detailsAction, loader as detailsLoader } from '#app/routes/consultas.$id/route.tsx'
import { loader as consultationLoader } from '#app/routes/consultas.$id_.consulta.tsx'
import { action as rescheduleAction, loader as rescheduleLoader } from '#app/routes/consultas.$id_.remarcar.tsx'
import { loader as listLoader } from '#app/routes/consultas._index.tsx'
import { NOW, appointment, directoryAndAvailability, freeTimes, inLisbon, payment } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoProfessional, signedIn } from '#tests/mocks/session.ts'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => {
  vi.useRealTimers()
})

const page = (results: unknown[], { next = null, previous = null }: { next?: string | null; previous?: string | null } = {}) => ({ count: results.length, next, previous, results })

/** GET /appointments/{id}/ answers this appointment. */
function serves(answer: Record<string, unknown>) {
  providerMock.use(http.get(providerUrl('/appointments/:id/'), () => HttpResponse.json(answer)))
}

describe('my appointments', () => {
  test('upcoming and past, each with the time in the patient’s zone, the professional and the status', async () => {
    const asked: string[] = []
    providerMock.use(
      http.get(providerUrl('/appointments/'), ({ request }) => {
        const url = new URL(request.url)
        asked.push(url.search)
        return url.searchParams.get('when') === 'upcoming'
          ? HttpResponse.json(page([appointment(), appointment({ id: 32, status: 'confirmed', start_time: '2026-12-08T00:00:00.000Z', end_time: '2026-12-08T00:50:00.000Z' })]))
          : HttpResponse.json(page([appointment({ id: 20, status: 'no_show', start_time: '2026-11-10T12:00:00.000Z', end_time: '2026-11-10T12:50:00.000Z' })], { previous: 'http://provider.test/appointments/?when=past', next: 'http://provider.test/appointments/?when=past&page=3' }))
      }),
    )
    const result = await run(listLoader, getRequest('http://app.test/consultas?page=2', await signedIn(inLisbon)))
    expect(asked.sort()).toEqual(['?when=past&page=2&page_size=20', '?when=upcoming'])
    const data = result.data as { upcoming: { items: unknown[] }; past: { items: unknown[]; page: number; previous: boolean; next: boolean }; zone: string; canBook: boolean }
    expect(data.upcoming.items).toEqual([
      { id: 31, status: 'scheduled', when: 'qua., 2 de dez. de 2026, 12:00', withWhom: 'Ana Lima', profession: 'Nutricionista' },
      { id: 32, status: 'confirmed', when: 'ter., 8 de dez. de 2026, 00:00', withWhom: 'Ana Lima', profession: 'Nutricionista' },
    ])
    expect(data.past).toMatchObject({ page: 2, previous: true, next: true, items: [{ id: 20, status: 'no_show' }] })
    expect(data.zone).toBe('Horário da Europa Ocidental (Lisbon, GMT+0)')
    expect(data.canBook).toBe(true)
  })

  test('a junk ?page= is the first page; one past the end shows the last page of the past ones, not an error page', async () => {
    const asked: string[] = []
    providerMock.use(
      http.get(providerUrl('/appointments/'), ({ request }) => {
        const query = new URL(request.url).searchParams
        if (query.get('when') === 'upcoming') return HttpResponse.json(page([]))
        asked.push(query.get('page') ?? '1')
        const at = query.get('page') === 'last' ? 3 : Number(query.get('page') ?? 1)
        if (at > 3) return HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 })
        return HttpResponse.json({ count: 45, next: at < 3 ? 'http://provider.test/appointments/?when=past&page=9' : null, previous: at > 1 ? 'http://provider.test/appointments/?when=past' : null, results: [appointment({ id: at })] })
      }),
    )
    const load = async (search: string) => run(listLoader, getRequest(`http://app.test/consultas${search}`, await signedIn()))
    for (const junk of ['?page=x', '?page=-3', '?page=0', '?page=1e99']) expect(((await load(junk)).data as { past: { page: number } }).past.page, junk).toBe(1)
    expect(asked).toEqual(['1', '1', '1', '1'])
    const past = await load('?page=7')
    expect(past.status).toBe(200)
    expect(past.data).toMatchObject({ past: { page: 3, previous: true, next: false, count: 45, items: [{ id: 3 }] } })
  })

  test('nothing yet: the empty state (the page links to the directory)', async () => {
    providerMock.use(http.get(providerUrl('/appointments/'), () => HttpResponse.json(page([]))))
    const result = await run(listLoader, getRequest('http://app.test/consultas', await signedIn()))
    expect(result.data).toMatchObject({ upcoming: { items: [] }, past: { items: [], page: 1 }, zone: null, canBook: true })
  })

  test('a professional reads whom they see', async () => {
    providerMock.use(http.get(providerUrl('/appointments/'), () => HttpResponse.json(page([appointment()]))))
    const result = await run(listLoader, getRequest('http://app.test/consultas', await signedIn(demoProfessional)))
    expect((result.data as { upcoming: { items: { withWhom: string }[] } }).upcoming.items[0]?.withWhom).toBe('Pedro Santos')
  })
})

describe('an appointment', () => {
  const url = 'http://app.test/consultas/31'
  const details = async (query = '', cookie?: string) => run(detailsLoader, new Request(`${url}${query}`, { headers: { Cookie: cookie ?? (await signedIn()) } }), { id: '31' })

  test('who, when (in the patient’s zone and the professional’s), length, status, notes, price and payment', async () => {
    serves(appointment({ price_cents: 18_000, payment: payment() }))
    const result = await details('', await signedIn(inLisbon))
    const data = result.data as { appointment: Record<string, unknown>; cancel: unknown }
    expect(data.appointment).toMatchObject({
      id: 31,
      status: 'scheduled',
      whenLong: 'quarta-feira, 2 de dezembro de 2026 às 12:00',
      ends: '12:50',
      minutes: 50,
      zone: 'Horário da Europa Ocidental (Lisbon, GMT+0)',
      professionalTime: { when: 'quarta-feira, 2 de dezembro de 2026 às 09:00', zone: 'Horário Padrão de Brasília (Sao Paulo, GMT-3)' },
      professional: { name: 'Ana Lima', profession: 'Nutricionista', registration: 'CRN-3 12345' },
      notes: 'Quero dormir melhor.',
      price: 'R$\u00a0180,00',
      line: 'Paga com PIX.',
      purchaseId: 90,
      payAt: null,
      canCancel: true,
      canReschedule: true,
      hasConsultation: true,
      // The patient writes to the professional from here (issue 44).
      messageWith: 7,
    })
    expect(data.cancel).toBeNull()
  })

  test('each of the two is linked to a conversation with the other; an admin to none', async () => {
    serves(appointment())
    const withWhom = async (cookie: string) => ((await details('', cookie)).data as { appointment: { messageWith: number | null } }).appointment.messageWith
    expect(await withWhom(await signedIn(demoProfessional))).toBe(4)
    expect(await withWhom(await signedIn(demoAdmin))).toBeNull()
  })

  test('a free consultation has no price or payment; the provider’s 403 and 404 are the app’s pages', async () => {
    serves(appointment())
    expect((await details()).data).toMatchObject({ appointment: { price: null, line: null, payAt: null } })
    providerMock.use(http.get(providerUrl('/appointments/:id/'), () => HttpResponse.json({ detail: 'You do not have permission to perform this action.' }, { status: 403 })))
    expect((await details()).status).toBe(403)
    providerMock.use(http.get(providerUrl('/appointments/:id/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    expect((await details()).status).toBe(404)
  })

  test('cancelling 24 hours ahead or more: the confirmation says the refund is full', async () => {
    serves(appointment({ start_time: '2026-12-01T12:00:00.000Z', end_time: '2026-12-01T12:50:00.000Z' })) // exactly 24 h from now
    directoryAndAvailability()
    const data = (await details('?cancelar=1')).data as { cancel: { terms: string[] } }
    expect(data.cancel).toEqual({ terms: ['Faltam 24 horas ou mais para a consulta: se cancelar agora, você recebe o reembolso integral.'] })
  })

  test('cancelling less than 24 hours ahead: the confirmation gives the terms’ sentence', async () => {
    serves(appointment({ start_time: '2026-12-01T11:59:00.000Z', end_time: '2026-12-01T12:49:00.000Z' }))
    directoryAndAvailability()
    const data = (await details('?cancelar=1')).data as { cancel: { terms: string[] } }
    expect(data.cancel.terms).toEqual(['Faltam menos de 24 horas para a consulta.', 'Cancelamentos com menos de 24 horas de antecedência e ausências não garantem reembolso.'])
    const english = (await details('?cancelar=1&lng=en')).data as { cancel: { terms: string[] } }
    expect(english.cancel.terms[1]).toBe("Cancellations with less than 24 hours' notice and missed consultations are not guaranteed a refund.")
  })

  test('the professional cancelling late still refunds in full; a past or cancelled appointment offers no cancellation', async () => {
    serves(appointment({ start_time: '2026-11-30T14:00:00.000Z', end_time: '2026-11-30T14:50:00.000Z' }))
    directoryAndAvailability()
    const professional = (await details('?cancelar=1', await signedIn(demoProfessional))).data as { cancel: { terms: string[] }; appointment: { canReschedule: boolean } }
    expect(professional.cancel).toEqual({ terms: ['O paciente recebe o reembolso integral.'] })
    expect(professional.appointment.canReschedule).toBe(false)
    serves(appointment({ status: 'cancelled', refund: 'none', cancelled_by: 'patient' }))
    const cancelled = (await details('?cancelar=1')).data as { cancel: unknown; appointment: { canCancel: boolean; hasConsultation: boolean; refund: string } }
    expect(cancelled.cancel).toBeNull()
    expect(cancelled.appointment).toMatchObject({ canCancel: false, hasConsultation: false, refund: 'none' })
  })

  test('a paid consultation: the confirmation says what the provider quotes (the amount and by when, a credit back, or nothing)', async () => {
    const quote = (overrides: Record<string, unknown>) => ({ refund_cents: 18_000, reason: 'consultation_notice', credit_returned: false, deadline: { method: 'pix', billing_cycles: null, business_days: 3, date: '2026-12-03' }, ...overrides })
    serves(appointment({ price_cents: 18_000, payment: payment(), cancellation: quote({}) }))
    expect(((await details('?cancelar=1')).data as { cancel: { terms: string[] } }).cancel.terms).toEqual([
      'Se cancelar agora, você recebe de volta R$\u00a0180,00.',
      'O reembolso por PIX chega em até 3 dias úteis: até 3 de dezembro de 2026.',
    ])
    serves(appointment({ price_cents: 18_000, payment: payment({ method: 'card' }), cancellation: quote({ deadline: { method: 'card', billing_cycles: 2, business_days: null, date: null } }) }))
    expect(((await details('?cancelar=1')).data as { cancel: { terms: string[] } }).cancel.terms[1]).toBe('O estorno aparece na fatura do cartão em até 2 ciclos de faturamento.')
    serves(appointment({ price_cents: 18_000, payment: payment({ kind: 'credit', purchase_id: null, method: null, status: null }), cancellation: quote({ refund_cents: 0, credit_returned: true, deadline: null }) }))
    const credit = (await details('?cancelar=1')).data as { cancel: { terms: string[] }; appointment: { line: string } }
    expect(credit.cancel.terms).toEqual(['Se cancelar agora, o crédito volta para o seu pacote.'])
    expect(credit.appointment.line).toBe('Paga com um crédito de pacote.')
    serves(appointment({ price_cents: 18_000, payment: payment(), cancellation: quote({ refund_cents: 0, reason: 'consultation_late', deadline: null }) }))
    expect(((await details('?cancelar=1')).data as { cancel: { terms: string[] } }).cancel.terms[0]).toBe('Faltam menos de 24 horas para a consulta.')
  })

  test('a time held for its payment: until when, where to pay (PIX: the purchase; card: the payment page); it may be let go, nothing else', async () => {
    const held = (extra: Record<string, unknown> = {}) =>
      appointment({ status: 'awaiting_payment', price_cents: 18_000, payment: payment({ status: 'pending', hold_expires_at: '2026-11-30T12:31:00.000Z', ...extra }) })
    serves(held())
    const pix = (await details('?cancelar=1')).data as { appointment: Record<string, unknown>; cancel: { terms: string[] } }
    expect(pix.appointment).toMatchObject({ line: 'Aguardando o pagamento: o horário fica reservado até 09:31.', payAt: '/compras/90', canCancel: true, canReschedule: false, hasConsultation: false, held: true })
    expect(pix.cancel.terms).toEqual(['O pagamento ainda não foi feito: se cancelar, o horário é liberado e nada é cobrado.'])
    serves(held({ method: 'card', checkout_url: 'http://stripe.test/c/pay/cs_2' }))
    expect(((await details()).data as { appointment: { payAt: string } }).appointment.payAt).toBe('http://stripe.test/c/pay/cs_2')
    // Let go: the toast says nothing was charged.
    providerMock.use(http.post(providerUrl('/appointments/:id/cancel/'), () => HttpResponse.json(appointment({ status: 'cancelled', price_cents: 18_000, payment: payment({ status: 'cancelled' }) }))))
    const released = await run(detailsAction, formRequest(url, { confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect(await toastOf(released.headers)).toMatchObject({ message: { key: 'appointments:cancel.doneReleased' } })
  })

  test('confirming cancels with the reason and says the outcome in a toast', async () => {
    let body: unknown
    providerMock.use(
      http.post(providerUrl('/appointments/:id/cancel/'), async ({ request }) => {
        body = await request.json()
        return HttpResponse.json(appointment({ status: 'cancelled', refund: 'none', cancelled_by: 'patient' }))
      }),
    )
    // Not from the step (an old page, a hand-made post): back to the step, nothing cancelled (decision 0079).
    const unconfirmed = await run(detailsAction, formRequest(url, { reason: 'Imprevisto' }, { Cookie: await signedIn() }), { id: '31' })
    expect(unconfirmed.status).toBe(303)
    expect(unconfirmed.location).toBe('/consultas/31?cancelar=1')
    expect(body).toBeUndefined()
    const result = await run(detailsAction, formRequest(`${url}?cancelar=1`, { reason: ' Imprevisto no trabalho ', confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect(body).toEqual({ reason: 'Imprevisto no trabalho' })
    expect(result.location).toBe('/consultas/31')
    expect(await toastOf(result.headers)).toMatchObject({ type: 'success', message: { key: 'appointments:cancel.doneNone' } })

    providerMock.use(http.post(providerUrl('/appointments/:id/cancel/'), () => HttpResponse.json(appointment({ status: 'cancelled', refund: 'full' }))))
    const full = await run(detailsAction, formRequest(url, { confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect(await toastOf(full.headers)).toMatchObject({ message: { key: 'appointments:cancel.doneFull' } })
  })

  test('a refused or failed cancellation keeps the reason and says why', async () => {
    providerMock.use(http.post(providerUrl('/appointments/:id/cancel/'), () => HttpResponse.json({ detail: 'This appointment is already cancelled.' }, { status: 400 })))
    const refused = await run(detailsAction, formRequest(url, { reason: 'Viagem', confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    type Reply = { result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }
    expect(refused.status).toBe(400)
    expect((refused.data as Reply).result.error?.['']).toEqual(['Esta consulta não pode mais ser cancelada.'])
    expect((refused.data as Reply).result.initialValue).toEqual({ reason: 'Viagem', confirmado: 'sim' })
    providerMock.use(http.post(providerUrl('/appointments/:id/cancel/'), () => HttpResponse.error()))
    const failed = await run(detailsAction, formRequest(url, { reason: 'Viagem', confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect((failed.data as Reply).result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.'])
    const tooLong = await run(detailsAction, formRequest(url, { reason: 'x'.repeat(501), confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect((tooLong.data as Reply).result.error).toEqual({ reason: ['appointments:validation.reasonTooLong'] })
    // Issue 22: cancelling is throttled per user; the wait is said, with Retry-After.
    providerMock.use(http.post(providerUrl('/appointments/:id/cancel/'), () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '600' } })))
    const throttled = await run(detailsAction, formRequest(url, { reason: 'Viagem', confirmado: 'sim' }, { Cookie: await signedIn() }), { id: '31' })
    expect(throttled.status).toBe(429)
    expect(throttled.headers.get('Retry-After')).toBe('600')
    expect((throttled.data as Reply).result.error?.['']).toEqual(['Muitas tentativas. Tente novamente em 10 minutos.'])
    expect((throttled.data as Reply).result.initialValue).toEqual({ reason: 'Viagem', confirmado: 'sim' })
  })
})

describe('the professional runs the consultation', () => {
  const url = 'http://app.test/consultas/31'
  const details = async (cookie: string) => (await run(detailsLoader, getRequest(url, cookie), { id: '31' })).data as { manage: Record<string, unknown> | null }
  type Reply = { intent: string; result: { error?: Record<string, string[]>; initialValue?: Record<string, unknown> } }
  function patches(answer: () => Response = () => HttpResponse.json(appointment({ status: 'confirmed' }))) {
    const bodies: unknown[] = []
    providerMock.use(
      http.patch(providerUrl('/appointments/:id/status/'), async ({ request }) => {
        bodies.push(await request.json())
        return answer()
      }),
    )
    return bodies
  }

  test('confirm before the start, complete or no-show after it, the notes at any time; never for the patient', async () => {
    directoryAndAvailability()
    serves(appointment({ private_notes: 'Rever exames.', shared_notes: 'Diário do sono.' }))
    expect((await details(await signedIn(demoProfessional))).manage).toEqual({ canConfirm: true, canClose: false, privateNotes: 'Rever exames.', sharedNotes: 'Diário do sono.' })
    // The provider does not send a patient the private notes; the page offers them nothing to manage.
    serves(appointment({ shared_notes: 'Diário do sono.' }))
    expect((await details(await signedIn())).manage).toBeNull()
    serves(appointment({ status: 'confirmed', start_time: '2026-11-30T11:30:00.000Z', end_time: '2026-11-30T12:20:00.000Z', private_notes: '' }))
    expect((await details(await signedIn(demoProfessional))).manage).toMatchObject({ canConfirm: false, canClose: true })
    serves(appointment({ status: 'cancelled', private_notes: '' }))
    expect((await details(await signedIn(demoProfessional))).manage).toMatchObject({ canConfirm: false, canClose: false })
  })

  test('a status button sends that status and says so; a refusal is said in the user’s language', async () => {
    const bodies = patches()
    const done = await run(detailsAction, formRequest(url, { intent: 'status', status: 'confirmed' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect(bodies).toEqual([{ status: 'confirmed' }])
    expect(done.location).toBe('/consultas/31')
    expect(await toastOf(done.headers)).toMatchObject({ type: 'success', message: { key: 'appointments:manage.saved_confirmed' } })

    patches(() => HttpResponse.json({ status: ['An appointment can be confirmed only before it starts.'] }, { status: 400 }))
    const refused = await run(detailsAction, formRequest(url, { intent: 'status', status: 'confirmed' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect(refused.status).toBe(400)
    expect((refused.data as Reply).result.error?.['']).toEqual([
      'A consulta já começou: não dá mais para confirmá-la. Marque se ela aconteceu ou se o paciente faltou.',
    ])
    const bad = await run(detailsAction, formRequest(url, { intent: 'status', status: 'cancelled' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect((bad.data as Reply).result.error).toEqual({ status: ['appointments:manage.statusInvalid'] })
  })

  test('the notes are saved together; too long or a failing provider keeps what was typed', async () => {
    const bodies = patches()
    const done = await run(detailsAction, formRequest(url, { intent: 'notes', private_notes: ' Rever exames. ', shared_notes: 'Caminhar 20 minutos.' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect(bodies).toEqual([{ private_notes: 'Rever exames.', shared_notes: 'Caminhar 20 minutos.' }])
    expect(await toastOf(done.headers)).toMatchObject({ message: { key: 'appointments:manage.notesSaved' } })

    const tooLong = await run(detailsAction, formRequest(url, { intent: 'notes', private_notes: 'x'.repeat(5001), shared_notes: 'ok' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect((tooLong.data as Reply).result.error).toEqual({ private_notes: ['appointments:validation.consultationNotesTooLong'] })
    patches(() => HttpResponse.error())
    const failed = await run(detailsAction, formRequest(url, { intent: 'notes', private_notes: 'Rever exames.', shared_notes: 'Caminhar.' }, { Cookie: await signedIn(demoProfessional) }), { id: '31' })
    expect((failed.data as Reply).result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.'])
    expect((failed.data as Reply).result.initialValue).toMatchObject({ private_notes: 'Rever exames.', shared_notes: 'Caminhar.' })
  })
})

describe('rescheduling', () => {
  const url = 'http://app.test/consultas/31/remarcar'
  const own = '2026-12-02T12:00:00.000Z'

  test('the picker of the same professional, the appointment’s own time on offer, the notes filled in', async () => {
    serves(appointment())
    const asked = directoryAndAvailability() // the provider's free times leave out the appointment's own
    const result = await run(rescheduleLoader, getRequest(`${url}?data=2026-12-02`, await signedIn()), { id: '31' })
    const data = result.data as { picker: PickerView; current: { notes: string; when: string }; changeable: boolean }
    expect(asked.availability[0]?.get('professional_id')).toBe('7')
    expect(data.changeable).toBe(true)
    expect(data.current).toMatchObject({ notes: 'Quero dormir melhor.', when: 'quarta-feira, 2 de dezembro de 2026 às 09:00' })
    expect(data.picker.weeks[0]?.dates.map((day) => day.date)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03'])
    expect(data.picker.selected?.times).toEqual([{ value: own, label: '09:00', current: true }])
  })

  test('its own time passes the review; confirming moves it (PATCH) and says so', async () => {
    serves(appointment())
    directoryAndAvailability()
    const review = await run(rescheduleAction, formRequest(url, { intent: 'review', start_time: own, notes: 'Quero dormir melhor.' }, { Cookie: await signedIn() }), { id: '31' })
    expect((review.data as BookingReply).step).toBe('review')

    let patched: unknown
    providerMock.use(
      http.patch(providerUrl('/appointments/:id/update/'), async ({ request }) => {
        patched = await request.json()
        return HttpResponse.json(appointment({ start_time: freeTimes[3]!.start, end_time: freeTimes[3]!.end }))
      }),
    )
    const key = (review.data as Extract<BookingReply, { step: 'review' }>).review.key
    const result = await run(rescheduleAction, formRequest(url, { intent: 'confirm', start_time: freeTimes[3]!.start, notes: 'Agora à tarde', idempotency_key: key }, { Cookie: await signedIn() }), { id: '31' })
    expect(patched).toEqual({ start_time: '2026-12-03T12:00:00.000Z', notes: 'Agora à tarde', idempotency_key: key })
    expect(result.location).toBe('/consultas/31')
    expect(await toastOf(result.headers)).toMatchObject({ message: { key: 'appointments:reschedule.done' } })
  })

  test('a time taken meanwhile: the nearest offered, the notes kept; a started appointment cannot be moved', async () => {
    // Confirming reads the appointment (whose professional's calendar is asked about the time).
    serves(appointment())
    providerMock.use(
      http.patch(providerUrl('/appointments/:id/update/'), () => HttpResponse.json({ detail: 'This time is no longer available.', code: 'slot_taken', nearest: [freeTimes[0]!.start] }, { status: 409 })),
    )
    const taken = await run(rescheduleAction, formRequest(url, { intent: 'confirm', start_time: freeTimes[1]!.start, notes: 'Manter' }, { Cookie: await signedIn() }), { id: '31' })
    const reply = taken.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.taken?.map((choice) => choice.value)).toEqual([freeTimes[0]!.start])
    expect(reply.result.initialValue).toMatchObject({ notes: 'Manter' })

    serves(appointment({ start_time: '2026-11-30T11:30:00.000Z', end_time: '2026-11-30T12:20:00.000Z' }))
    const started = await run(rescheduleLoader, getRequest(url, await signedIn()), { id: '31' })
    expect((started.data as { changeable: boolean }).changeable).toBe(false)
  })

  test('issue 22: a reschedule without an answer may have been saved: said so, the key kept; sent again, it is the same reschedule', async () => {
    serves(appointment())
    const KEY = 'Zq3k_-9vX2mP0aBcDeFgHiJk'
    const bodies: unknown[] = []
    let answer = () => HttpResponse.error() as Response
    providerMock.use(
      http.patch(providerUrl('/appointments/:id/update/'), async ({ request }) => {
        bodies.push(await request.json())
        return answer()
      }),
    )
    const fields = { intent: 'confirm', start_time: freeTimes[3]!.start, notes: 'Agora à tarde', idempotency_key: KEY }
    const failed = await run(rescheduleAction, formRequest(url, fields, { Cookie: await signedIn() }), { id: '31' })
    const reply = failed.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual([
      'Erro de conexão. Verifique sua internet e configurações.',
      'Sua remarcação pode ter sido feita mesmo assim. Continue e confirme de novo: se ela já foi feita, nada muda duas vezes.',
    ])
    expect(reply.result.initialValue).toMatchObject({ start_time: freeTimes[3]!.start, notes: 'Agora à tarde', idempotency_key: KEY })
    answer = () => HttpResponse.json(appointment({ start_time: freeTimes[3]!.start, end_time: freeTimes[3]!.end }))
    const again = await run(rescheduleAction, formRequest(url, fields, { Cookie: await signedIn() }), { id: '31' })
    expect(again.location).toBe('/consultas/31')
    expect(bodies).toEqual([expect.objectContaining({ idempotency_key: KEY }), expect.objectContaining({ idempotency_key: KEY })])
  })

  test('issue 22: a throttled reschedule says how long to wait (Retry-After), the time and notes kept', async () => {
    serves(appointment())
    providerMock.use(
      http.patch(providerUrl('/appointments/:id/update/'), () => HttpResponse.json({ detail: 'Request was throttled. Expected available in 40 seconds.' }, { status: 429, headers: { 'Retry-After': '40' } })),
    )
    const result = await run(rescheduleAction, formRequest(url, { intent: 'confirm', start_time: freeTimes[3]!.start, notes: 'Agora à tarde' }, { Cookie: await signedIn() }), { id: '31' })
    expect(result.status).toBe(429)
    expect(result.headers.get('Retry-After')).toBe('40')
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual(['Muitas tentativas. Tente novamente em 40 segundos.'])
    expect(reply.result.initialValue).toMatchObject({ notes: 'Agora à tarde' })
  })

  test('professionals do not reschedule here', async () => {
    const result = await run(rescheduleLoader, getRequest(url, await signedIn(demoProfessional)), { id: '31' })
    expect(result.status).toBe(403)
  })
})

describe('the consultation page', () => {
  const url = 'http://app.test/consultas/31/consulta'
  const consultation = (overrides: Record<string, unknown> = {}) => ({
    appointment_id: 31,
    status: 'confirmed',
    opens_at: '2026-12-02T11:50:00.000Z',
    closes_at: '2026-12-02T12:50:00.000Z',
    is_open: false,
    meeting_link: null,
    shared_notes: 'Beba água ao longo do dia.',
    ...overrides,
  })
  const open = async (answer: Record<string, unknown>, appointmentOverrides: Record<string, unknown> = {}) => {
    serves(appointment({ status: 'confirmed', ...appointmentOverrides }))
    providerMock.use(http.get(providerUrl('/appointments/:id/consultation/'), () => HttpResponse.json(answer)))
    return (await run(consultationLoader, getRequest(url, await signedIn()), { id: '31' })).data as Record<string, unknown>
  }

  test('before the window: when it opens, no link; the professional’s notes', async () => {
    vi.setSystemTime(new Date('2026-12-02T11:49:00.000Z'))
    const data = await open(consultation())
    expect(data).toMatchObject({ state: 'before', link: null, opensAt: 'quarta-feira, 2 de dezembro de 2026 às 08:50', opensAtTime: '08:50', opensInMs: 60_000, sharedNotes: 'Beba água ao longo do dia.' })
  })

  test('from ten minutes before the start to the end: the meeting link', async () => {
    vi.setSystemTime(new Date('2026-12-02T11:50:00.000Z'))
    const data = await open(consultation({ is_open: true, meeting_link: 'https://meet.innera.local/r/abc' }))
    expect(data).toMatchObject({ state: 'open', link: 'https://meet.innera.local/r/abc', opensInMs: null })
  })

  test('a link that is not a web address is never shown', async () => {
    vi.setSystemTime(new Date('2026-12-02T12:10:00.000Z'))
    const data = await open(consultation({ is_open: true, meeting_link: 'javascript:alert(1)' }))
    expect(data).toMatchObject({ state: 'open', link: null })
  })

  test('after the end, and when cancelled', async () => {
    vi.setSystemTime(new Date('2026-12-02T12:50:00.000Z'))
    expect(await open(consultation())).toMatchObject({ state: 'ended', link: null })
    vi.setSystemTime(new Date('2026-12-02T12:00:00.000Z'))
    expect(await open(consultation({ status: 'cancelled' }), { status: 'cancelled' })).toMatchObject({ state: 'cancelled', link: null })
  })
})
