import { delay, http, HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type BookingReply, type PickerView } from '#app/forms/appointment-forms.ts'
import { action as bookAction, loader as bookLoader } from '#app/routes/consultas.agendar.$professionalId.tsx'
import { loader as directoryLoader } from '#app/routes/consultas.profissionais.tsx'
import { getToast } from '#app/utils/toast.server.ts'
import { NOW, ana, appointment, directoryAndAvailability, freeTimes, inLisbon } from '#tests/mocks/appointments.ts'
import { providerMock, providerUrl } from '#tests/mocks/provider.ts'
import { formRequest, getRequest, run, toastOf } from '#tests/mocks/route.ts'
import { demoAdmin, demoProfessional, signedIn } from '#tests/mocks/session.ts'

beforeEach(() => {
  // Only the clock: msw and the fetch timeouts keep real timers.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
})
afterEach(() => {
  vi.useRealTimers()
})

type Professional = { name: string; price: string; nextFree: string | null; zoneLabel: string | null; pillars: { name: string }[]; languages: string[]; photo: string | null; registration: string }
const BOOK_URL = 'http://app.test/consultas/agendar/7'
const bookPage = async (url = BOOK_URL, cookie?: string) =>
  run(bookLoader, new Request(url, { headers: { Cookie: cookie ?? (await signedIn()) } }), { professionalId: url.split('/').at(-1)!.split('?')[0]! })
const post = async (fields: Record<string, string>, cookie?: string, url = BOOK_URL) =>
  run(bookAction, formRequest(url, fields, { Cookie: cookie ?? (await signedIn()) }), { professionalId: '7' })

/** Records the POSTs to /appointments/create/ and answers with `answer`. */
function createAnswers(answer: () => Response | Promise<Response> = () => HttpResponse.json(appointment({ id: 55, start_time: chosen, end_time: '2026-12-01T13:50:00.000Z' }), { status: 201 })) {
  const received: unknown[] = []
  providerMock.use(
    http.post(providerUrl('/appointments/create/'), async ({ request }) => {
      received.push(await request.json())
      return answer()
    }),
  )
  return received
}

const notes = 'Tenho insônia há meses.\nGostaria de ajuda com a alimentação à noite.'
const chosen = '2026-12-01T13:00:00.000Z'
const MAY_HAVE_GONE_THROUGH = 'Seu agendamento pode ter sido feito mesmo assim. Continue e confirme de novo: se ele já foi feito, você vai direto para ele, sem agendar duas vezes.'
/** A key as the review step makes them (decision 0034). */
const KEY = 'Zq3k_-9vX2mP0aBcDeFgHiJk'
describe('the directory', () => {
  test('each professional with profession, registration, pillars, languages, length, price in BRL and the next free time in the patient’s zone', async () => {
    const asked = directoryAndAvailability()
    const result = await run(directoryLoader, getRequest('http://app.test/consultas/profissionais', await signedIn()))
    const data = result.data as { professionals: Professional[]; canBook: boolean; pillar: string | null; pillars: { slug: string }[] }
    expect(asked.directory[0]?.get('pillar')).toBeNull()
    expect(data.canBook).toBe(true)
    expect(data.pillars.map((pillar) => pillar.slug)).toEqual(['estresse', 'exercicio', 'alimento', 'sono', 'relacionamentos', 'substancias'])
    const [first, second] = data.professionals
    expect(first).toMatchObject({
      name: 'Ana Lima',
      photo: '/media/photos/ana.jpg',
      registration: 'CRN-3 12345',
      price: 'R$\u00a0180,00',
      nextFree: 'ter., 1 de dez. de 2026, 09:00',
      zoneLabel: null,
      languages: ['Português', 'Inglês'],
    })
    expect(first?.pillars.map((pillar) => pillar.name)).toEqual(['Alimentação', 'Sono'])
    expect(second).toMatchObject({ name: 'Bruno Costa', photo: null, nextFree: null })
  })

  test('filters by pillar with ?pilar=; an unknown pillar shows everyone', async () => {
    const asked = directoryAndAvailability()
    const cookie = await signedIn()
    const filtered = await run(directoryLoader, getRequest('http://app.test/consultas/profissionais?pilar=sono', cookie))
    expect(asked.directory[0]?.get('pillar')).toBe('sono')
    expect((filtered.data as { pillar: string }).pillar).toBe('sono')
    await run(directoryLoader, getRequest('http://app.test/consultas/profissionais?pilar=astrologia', cookie))
    expect(asked.directory[1]?.get('pillar')).toBeNull()
  })

  test('a patient in Lisbon reads the next free time in Lisbon, with the zone named; a professional sees no booking link', async () => {
    directoryAndAvailability()
    const lisbon = await run(directoryLoader, getRequest('http://app.test/consultas/profissionais?lng=en', await signedIn(inLisbon)))
    expect((lisbon.data as { professionals: Professional[] }).professionals[0]).toMatchObject({
      nextFree: 'Tue, Dec 1, 2026, 12:00 PM',
      price: 'R$180.00',
      zoneLabel: 'Western European Time (Lisbon, GMT+0)',
    })
    const professional = await run(directoryLoader, getRequest('http://app.test/consultas/profissionais', await signedIn(demoProfessional)))
    expect((professional.data as { canBook: boolean }).canBook).toBe(false)
  })
})

describe('the booking page', () => {
  test('dates with free times are links in the patient’s zone, by week; the first is chosen and its times listed', async () => {
    const asked = directoryAndAvailability()
    const result = await bookPage()
    const { picker, professional } = result.data as { picker: PickerView; professional: Professional }
    expect(professional.name).toBe('Ana Lima')
    // The window read: from now for 60 days.
    expect(asked.availability[0]?.get('professional_id')).toBe('7')
    expect(asked.availability[0]?.get('start')).toBe('2026-11-30T12:00:00.000Z')
    expect(asked.availability[0]?.get('end')).toBe('2027-01-29T12:00:00.000Z')
    // Grouped by the provider in the patient's zone: the dates and one date's times, not 60 days of times.
    expect(asked.availability[0]?.get('time_zone')).toBe('America/Sao_Paulo')
    expect(asked.availability[0]?.has('date')).toBe(false)
    expect(picker.weeks).toEqual([
      {
        weekStart: '2026-11-30',
        label: 'Semana de 30 de novembro',
        dates: [
          { date: '2026-12-01', label: 'ter., 1 de dez.', count: 3, selected: true },
          { date: '2026-12-03', label: 'qui., 3 de dez.', count: 1, selected: false },
        ],
      },
      { weekStart: '2026-12-07', label: 'Semana de 7 de dezembro', dates: [{ date: '2026-12-07', label: 'seg., 7 de dez.', count: 1, selected: false }] },
    ])
    expect(picker.selected).toEqual({
      date: '2026-12-01',
      label: 'terça-feira, 1 de dezembro de 2026',
      times: [
        { value: '2026-12-01T12:00:00.000Z', label: '09:00', current: false },
        { value: '2026-12-01T13:00:00.000Z', label: '10:00', current: false },
        { value: '2026-12-01T17:00:00.000Z', label: '14:00', current: false },
      ],
    })
    expect(picker.zoneLabel).toBeNull()
  })

  test('?data= chooses another date; a date without free times falls back to the first', async () => {
    const asked = directoryAndAvailability()
    const other = (await bookPage(`${BOOK_URL}?data=2026-12-03`)).data as { picker: PickerView }
    expect(asked.availability[0]?.get('date')).toBe('2026-12-03')
    expect(other.picker.selected?.times.map((time) => time.label)).toEqual(['09:00'])
    const none = (await bookPage(`${BOOK_URL}?data=2026-12-02`)).data as { picker: PickerView }
    expect(none.picker.selected?.date).toBe('2026-12-01')
    // Not a date: the provider is not asked for it.
    await bookPage(`${BOOK_URL}?data=amanh%C3%A3`)
    expect(asked.availability[2]?.has('date')).toBe(false)
  })

  test('a provider that answers every free time ungrouped gives the same picker', async () => {
    directoryAndAvailability()
    const grouped = ((await bookPage(`${BOOK_URL}?data=2026-12-03`)).data as { picker: PickerView }).picker
    providerMock.resetHandlers()
    directoryAndAvailability({ grouped: false })
    expect(((await bookPage(`${BOOK_URL}?data=2026-12-03`)).data as { picker: PickerView }).picker).toEqual(grouped)
  })

  test('a patient in Lisbon: times in Lisbon, the zone named, the late São Paulo slot on the next Lisbon date', async () => {
    directoryAndAvailability()
    const { picker } = (await bookPage(`${BOOK_URL}?data=2026-12-08`, await signedIn(inLisbon))).data as { picker: PickerView }
    expect(picker.zoneLabel).toBe('Horário da Europa Ocidental (Lisbon, GMT+0)')
    expect(picker.weeks.flatMap((week) => week.dates.map((day) => day.date))).toEqual(['2026-12-01', '2026-12-03', '2026-12-08'])
    expect(picker.selected?.times).toEqual([{ value: '2026-12-08T00:00:00.000Z', label: '00:00', current: false }])
  })

  test('only patients book: a professional or an admin gets the 403 page; an unknown professional is a 404', async () => {
    directoryAndAvailability()
    expect((await bookPage(BOOK_URL, await signedIn(demoProfessional))).status).toBe(403)
    expect((await bookPage(BOOK_URL, await signedIn(demoAdmin))).status).toBe(403)
    expect((await post({ start_time: chosen }, await signedIn(demoProfessional))).status).toBe(403)
    expect((await bookPage('http://app.test/consultas/agendar/99')).status).toBe(404)
    expect((await bookPage('http://app.test/consultas/agendar/abc')).status).toBe(404)
  })

  test('the free times bring the professional: no directory call', async () => {
    const asked = directoryAndAvailability()
    expect((await bookPage()).status).toBe(200)
    expect(asked).toMatchObject({ directory: [], availability: [expect.anything()] })
  })

  test('the provider’s 403 and 404 become the app’s error pages', async () => {
    directoryAndAvailability()
    providerMock.use(http.get(providerUrl('/appointments/calendar/availability/'), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })))
    expect((await bookPage()).status).toBe(404)
    providerMock.use(http.get(providerUrl('/appointments/calendar/availability/'), () => HttpResponse.json({ detail: 'You do not have permission to perform this action.' }, { status: 403 })))
    expect((await bookPage()).status).toBe(403)
  })
})

describe('booking: pick, review, confirm', () => {
  test('the chosen time is checked again and the review shows it, with the notes, nothing booked yet', async () => {
    const asked = directoryAndAvailability()
    const created = createAnswers()
    const result = await post({ intent: 'review', start_time: chosen, notes })
    expect(result.status).toBe(200)
    const reply = result.data as Extract<BookingReply, { step: 'review' }>
    expect(reply.step).toBe('review')
    expect(reply.review).toEqual({
      start: chosen,
      notes,
      when: 'terça-feira, 1 de dezembro de 2026 às 10:00',
      ends: '10:50',
      minutes: 50,
      zoneLabel: null,
      key: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      // Ana charges R$ 180,00; without a package's credit, PIX (checked) or a card.
      payment: {
        price: 'R$\u00a0180,00',
        options: [
          { value: 'pix', label: 'PIX', hint: expect.stringMatching(/^Código e QR code válidos por 30 minutos/) },
          { value: 'card', label: 'Cartão de crédito', hint: expect.stringMatching(/^Você paga na página segura/) },
        ],
        chosen: 'pix',
      },
    })
    expect(asked.availability).toHaveLength(1)
    expect(created).toEqual([])
  })

  test('a package credit left is offered first; a choice made before stays checked', async () => {
    directoryAndAvailability({ credits: 2 })
    const reply = (await post({ intent: 'review', start_time: chosen, notes })).data as Extract<BookingReply, { step: 'review' }>
    expect(reply.review.payment).toMatchObject({ options: [{ value: 'credit', label: 'Crédito de pacote (2 restantes)' }, { value: 'pix' }, { value: 'card' }], chosen: 'credit' })
    const again = (await post({ intent: 'review', start_time: chosen, notes, payment: 'card' })).data as Extract<BookingReply, { step: 'review' }>
    expect(again.review.payment?.chosen).toBe('card')
  })

  test('paying by PIX: the time held, the patient goes to the purchase with its code; by card, to the payment page with the way back', async () => {
    const held = (method: string, extra: Record<string, unknown> = {}) =>
      appointment({ id: 56, status: 'awaiting_payment', price_cents: 18_000, payment: { kind: 'purchase', purchase_id: 91, method, status: 'pending', hold_expires_at: '2026-11-30T12:31:00.000Z', checkout_url: null, ...extra } })
    let created = createAnswers(() => HttpResponse.json(held('pix'), { status: 201 }))
    const pix = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY, payment: 'pix' })
    expect(created).toEqual([{ professional_id: 7, start_time: chosen, notes: notes.trim(), idempotency_key: KEY, payment: 'pix' }])
    expect(pix.location).toBe('/compras/91')
    expect(await toastOf(pix)).toMatchObject({ message: { key: 'appointments:payment.held' } })

    created = createAnswers(() => HttpResponse.json(held('card', { checkout_url: 'http://stripe.test/c/pay/cs_1' }), { status: 201 }))
    const card = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY, payment: 'card' })
    expect(created).toEqual([
      { professional_id: 7, start_time: chosen, notes: notes.trim(), idempotency_key: KEY, payment: 'card', success_url: 'http://localhost:3000/compras/{PURCHASE_ID}', cancel_url: 'http://localhost:3000/compras/{PURCHASE_ID}' },
    ])
    expect(card.status).toBe(303)
    expect(card.location).toBe('http://stripe.test/c/pay/cs_1')
  })

  test('no credit left, or the payment service away: nothing booked, the time, notes and choice kept, and said why', async () => {
    createAnswers(() => HttpResponse.json({ detail: 'No consultation credit left.', code: 'no_credit' }, { status: 409 }))
    const noCredit = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY, payment: 'credit' })
    expect(noCredit.status).toBe(409)
    const reply = noCredit.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual(['Seu pacote não tem mais créditos para esta consulta. Escolha PIX ou cartão; seu horário e suas observações foram mantidos.'])
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes, idempotency_key: KEY, payment: 'credit' })

    createAnswers(() => HttpResponse.json({ detail: 'The payment service is unavailable.', code: 'payment_provider_unavailable' }, { status: 503 }))
    const away = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY, payment: 'pix' })
    expect(away.status).toBe(400)
    expect((away.data as Extract<BookingReply, { step: 'pick' }>).result.error?.['']).toEqual([
      'O serviço de pagamento não respondeu, e nada foi agendado. Seu horário e suas observações foram mantidos: tente de novo em alguns minutos.',
    ])
  })

  test('a patient elsewhere sees the review in their zone, named', async () => {
    directoryAndAvailability()
    const result = await post({ intent: 'review', start_time: chosen, notes: '' }, await signedIn(inLisbon))
    expect((result.data as Extract<BookingReply, { step: 'review' }>).review).toMatchObject({ when: 'terça-feira, 1 de dezembro de 2026 às 13:00', zoneLabel: 'Horário da Europa Ocidental (Lisbon, GMT+0)' })
  })

  test('“back” returns to the picker with the time and the notes', async () => {
    const result = await post({ intent: 'back', start_time: chosen, notes })
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.step).toBe('pick')
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes })
    expect(reply.chosen).toEqual({ value: chosen, label: 'terça-feira, 1 de dezembro de 2026 às 10:00' })
  })

  test('confirming books it with the review’s key and goes to the appointment with a toast', async () => {
    const created = createAnswers()
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(created).toEqual([{ professional_id: 7, start_time: chosen, notes: notes.trim(), idempotency_key: KEY }])
    expect(result.status).toBe(303)
    expect(result.location).toBe('/consultas/55')
    const cookie = result.headers.getSetCookie().find((value) => value.startsWith('innera_toast='))!.split(';')[0]!
    const { toast } = await getToast(getRequest('http://app.test/', cookie))
    expect(toast?.message).toEqual({ key: 'appointments:booking.booked' })
  })

  test('a time taken between the page and the review: the nearest free times are offered, the notes kept', async () => {
    directoryAndAvailability({ slots: freeTimes.filter((slot) => slot.start !== chosen) })
    const result = await post({ intent: 'review', start_time: chosen, notes })
    expect(result.status).toBe(409)
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual(['Esse horário acabou de ser reservado por outra pessoa. Escolha outro; suas observações foram mantidas.'])
    expect(reply.taken).toEqual([
      { value: '2026-12-01T12:00:00.000Z', label: 'ter., 1 de dez. de 2026, 09:00' },
      { value: '2026-12-01T17:00:00.000Z', label: 'ter., 1 de dez. de 2026, 14:00' },
      { value: '2026-12-03T12:00:00.000Z', label: 'qui., 3 de dez. de 2026, 09:00' },
    ])
    expect(reply.result.initialValue).toMatchObject({ notes })
  })

  test('a time taken between the review and the confirmation (the provider’s 409): its nearest times are offered, the notes kept', async () => {
    createAnswers(() =>
      HttpResponse.json(
        { detail: 'This time is no longer available.', code: 'slot_taken', nearest: ['2026-12-01T17:00:00.000Z', '2026-12-03T12:00:00.000Z'] },
        { status: 409 },
      ),
    )
    const result = await post({ intent: 'confirm', start_time: chosen, notes })
    expect(result.status).toBe(409)
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.step).toBe('pick')
    expect(reply.taken?.map((choice) => choice.value)).toEqual(['2026-12-01T17:00:00.000Z', '2026-12-03T12:00:00.000Z'])
    expect(reply.taken?.[0]?.label).toBe('ter., 1 de dez. de 2026, 14:00')
    expect(reply.chosen).toBeNull()
    expect(reply.result.initialValue).toMatchObject({ notes })
  })

  test.each([
    ['This time is inside the minimum notice of 12 hours.', 'Esse horário está dentro da antecedência mínima de 12 horas. Escolha um horário mais adiante.'],
    ['This time is beyond the booking horizon of 60 days.', 'Esse horário passa do limite de agendamento de 60 dias. Escolha um horário mais próximo.'],
    ['This time is in the past.', 'Esse horário já passou. Escolha outro.'],
    ["This time is outside the professional's availability.", 'Esse horário está fora da agenda do profissional. Escolha um dos horários livres.'],
  ])('a 400 on start_time (%s) is told in Portuguese, the notes kept', async (message, translated) => {
    createAnswers(() => HttpResponse.json({ start_time: [message] }, { status: 400 }))
    const result = await post({ intent: 'confirm', start_time: chosen, notes })
    expect(result.status).toBe(400)
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error).toEqual({ start_time: [translated] })
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes })
  })

  test('a provider failure keeps the notes and says what happened (docs/product.md §8), in the user’s language', async () => {
    createAnswers(() => HttpResponse.json({ detail: 'boom' }, { status: 500 }))
    const failed = await post({ intent: 'confirm', start_time: chosen, notes })
    expect(failed.status).toBe(400)
    const reply = failed.data as Extract<BookingReply, { step: 'pick' }>
    // A server error on confirming may have come after the booking was made: said too (issue 22).
    expect(reply.result.error?.['']).toEqual(['Erro interno do servidor', MAY_HAVE_GONE_THROUGH])
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes })
    expect(reply.chosen?.value).toBe(chosen)

    providerMock.use(http.get(providerUrl('/appointments/calendar/availability/'), () => HttpResponse.error()))
    const english = await post({ intent: 'review', start_time: chosen, notes }, undefined, `${BOOK_URL}?lng=en`)
    expect((english.data as Extract<BookingReply, { step: 'pick' }>).result.error?.['']).toEqual(['Connection error. Check your internet connection and settings.'])
  })

  test('without the provider the page after a failed submission is still drawn (no error page), around what was typed', async () => {
    providerMock.use(
      http.post(providerUrl('/appointments/create/'), () => HttpResponse.error()),
      http.get(providerUrl('/appointments/professionals/'), () => HttpResponse.error()),
      http.get(providerUrl('/appointments/calendar/availability/'), () => HttpResponse.error()),
    )
    const request = formRequest(BOOK_URL, { intent: 'confirm', start_time: chosen, notes }, { Cookie: await signedIn() })
    const answered = await run(bookAction, request, { professionalId: '7' })
    expect((answered.data as Extract<BookingReply, { step: 'pick' }>).result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.', MAY_HAVE_GONE_THROUGH])
    // The page's loader on the same (POST) request: no error page, the picker says the times could not be read.
    const page = await run(bookLoader, request, { professionalId: '7' })
    expect(page.status).toBe(200)
    expect((page.data as { picker: PickerView; professional: unknown }).picker.unavailable).toBe(true)
    expect((page.data as { professional: unknown }).professional).toBeNull()
  })

  test('a provider that hangs: the wait ends with the network message and the notes kept', async () => {
    createAnswers(async () => {
      await delay('infinite')
      return HttpResponse.json({})
    })
    const result = await post({ intent: 'confirm', start_time: chosen, notes })
    const reply = result.data as Extract<BookingReply, { step: 'pick' }>
    expect(reply.result.error?.['']).toEqual(['Erro de conexão. Verifique sua internet e configurações.', MAY_HAVE_GONE_THROUGH])
    expect(reply.result.initialValue).toMatchObject({ notes })
  })

  test('no time chosen or notes too long: refused before the provider is asked, what was typed kept', async () => {
    const asked = directoryAndAvailability()
    const created = createAnswers()
    const none = await post({ intent: 'review', notes })
    expect(none.status).toBe(400)
    expect((none.data as Extract<BookingReply, { step: 'pick' }>).result.error).toEqual({ start_time: ['appointments:validation.chooseTime'] })
    expect((none.data as Extract<BookingReply, { step: 'pick' }>).result.initialValue).toMatchObject({ notes })
    const long = await post({ intent: 'confirm', start_time: chosen, notes: 'x'.repeat(1001) })
    expect((long.data as Extract<BookingReply, { step: 'pick' }>).result.error).toEqual({ notes: ['appointments:validation.notesTooLong'] })
    const forged = await post({ intent: 'confirm', start_time: 'amanhã às 10h' })
    expect((forged.data as Extract<BookingReply, { step: 'pick' }>).result.error).toEqual({ start_time: ['appointments:validation.chooseTime'] })
    expect(asked.availability).toEqual([])
    expect(created).toEqual([])
  })

  test('1000 characters of notes are accepted', async () => {
    const created = createAnswers()
    const result = await post({ intent: 'confirm', start_time: chosen, notes: 'x'.repeat(1000) })
    expect(result.status).toBe(303)
    expect(created).toHaveLength(1)
  })
})

describe('issue 22: a booking without an answer, the limits and the throttle', () => {
  const NETWORK = 'Erro de conexão. Verifique sua internet e configurações.'
  const MAYBE = MAY_HAVE_GONE_THROUGH
  type Pick = Extract<BookingReply, { step: 'pick' }>

  /** The provider's answer to the key lookup: this appointment, or 404. */
  function keyLookup(found: Record<string, unknown> | null) {
    const asked: string[] = []
    providerMock.use(
      http.get(providerUrl('/appointments/by-idempotency-key/'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('key') ?? '')
        return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 })
      }),
    )
    return asked
  }

  test('the review step makes a key for this booking and shows it hidden; a key the form carries stays the same', async () => {
    directoryAndAvailability()
    const first = (await post({ intent: 'review', start_time: chosen, notes })).data as Extract<BookingReply, { step: 'review' }>
    expect(first.review.key).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const again = (await post({ intent: 'review', start_time: chosen, notes })).data as Extract<BookingReply, { step: 'review' }>
    expect(again.review.key).not.toBe(first.review.key)
    const kept = (await post({ intent: 'review', start_time: chosen, notes, idempotency_key: KEY })).data as Extract<BookingReply, { step: 'review' }>
    expect(kept.review.key).toBe(KEY)
    // "Back" keeps it too.
    expect(((await post({ intent: 'back', start_time: chosen, notes, idempotency_key: KEY })).data as Pick).result.initialValue).toMatchObject({ idempotency_key: KEY })
  })

  test.each([
    ['out of reach', () => HttpResponse.error(), NETWORK],
    ['answering a server error', () => HttpResponse.json({ detail: 'boom' }, { status: 500 }), 'Erro interno do servidor'],
  ])('a confirmation with the provider %s: the page says the booking may have gone through, with the time, notes and key kept', async (_name, answer, message) => {
    const created = createAnswers(answer)
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(created).toEqual([expect.objectContaining({ idempotency_key: KEY })])
    const reply = result.data as Pick
    expect(reply.step).toBe('pick')
    expect(reply.result.error?.['']).toEqual([message, MAYBE])
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes, idempotency_key: KEY })
    expect(reply.chosen?.value).toBe(chosen)
  })

  test('a provider that hangs past the timeout: the same, and the key goes with the next confirmation', async () => {
    createAnswers(async () => {
      await delay('infinite')
      return HttpResponse.json({})
    })
    const reply = (await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })).data as Pick
    expect(reply.result.error?.['']).toEqual([NETWORK, MAYBE])
    expect(reply.result.initialValue).toMatchObject({ idempotency_key: KEY })
    // The provider is back and had booked it after all: the same key answers that appointment.
    const created = createAnswers(() => HttpResponse.json(appointment({ id: 55, start_time: chosen, end_time: '2026-12-01T13:50:00.000Z' }), { status: 200 }))
    const retried = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: String(reply.result.initialValue?.idempotency_key) })
    expect(created).toEqual([expect.objectContaining({ idempotency_key: KEY })])
    expect(retried.location).toBe('/consultas/55')
    expect((await toastOf(retried))?.message).toEqual({ key: 'appointments:booking.booked' })
  })

  test('an answer for another time than the one sent is the key’s earlier booking: its page, said so', async () => {
    createAnswers(() => HttpResponse.json(appointment({ id: 55 }), { status: 200 }))
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(result.location).toBe('/consultas/55')
    expect((await toastOf(result))?.message).toEqual({ key: 'appointments:booking.bookedEarlier' })
  })

  test('the time looks taken at the review because the patient’s own earlier submission booked it: that booking, not “taken by someone else”', async () => {
    directoryAndAvailability({ slots: freeTimes.filter((slot) => slot.start !== chosen) })
    const asked = keyLookup(appointment({ id: 55, start_time: chosen }))
    const result = await post({ intent: 'review', start_time: chosen, notes, idempotency_key: KEY })
    expect(asked).toEqual([KEY])
    expect(result.status).toBe(303)
    expect(result.location).toBe('/consultas/55')
    expect((await toastOf(result))?.message).toEqual({ key: 'appointments:booking.bookedEarlier' })
  })

  test('taken, and no booking of the patient’s with that key: the nearest times, as before', async () => {
    directoryAndAvailability({ slots: freeTimes.filter((slot) => slot.start !== chosen) })
    keyLookup(null)
    const result = await post({ intent: 'review', start_time: chosen, notes, idempotency_key: KEY })
    expect(result.status).toBe(409)
    expect((result.data as Pick).taken).toHaveLength(3)
    // A form without a key (the first review) does not ask.
    const asked = keyLookup(null)
    expect((await post({ intent: 'review', start_time: chosen, notes })).status).toBe(409)
    expect(asked).toEqual([])
  })

  test('the professional’s calendar busy with the patient’s own booking (made by the lost submission): that booking', async () => {
    providerMock.use(http.post(providerUrl('/calendar/availability/'), () => HttpResponse.json({ available: false, conflicts: [{ start: chosen, end: '2026-12-01T13:50:00.000Z' }], warnings: [] })))
    keyLookup(appointment({ id: 55, start_time: chosen }))
    const created = createAnswers()
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(result.location).toBe('/consultas/55')
    expect(created).toEqual([])
  })

  test.each([
    ['You already have 4 upcoming appointments with this professional.', 'Você já tem 4 consultas marcadas com este profissional, o máximo por enquanto. Para marcar outra, cancele ou remarque uma delas, ou espere a próxima acontecer; suas observações foram mantidas.'],
    ['You already have 8 upcoming appointments.', 'Você já tem 8 consultas marcadas, o máximo por enquanto. Para marcar outra, cancele ou remarque uma delas, ou espere a próxima acontecer; suas observações foram mantidas.'],
  ])('past a limit (%s): said in Portuguese, the time and notes kept', async (detail, translated) => {
    createAnswers(() => HttpResponse.json({ detail, code: 'upcoming_limit', scope: 'professional', limit: 4 }, { status: 409 }))
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(result.status).toBe(409)
    const reply = result.data as Pick
    expect(reply.result.error?.['']).toEqual([translated])
    expect(reply.taken).toBeNull()
    expect(reply.chosen?.value).toBe(chosen)
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes })
  })

  test('throttled: the wait is said, with Retry-After, the time and notes kept', async () => {
    createAnswers(() => HttpResponse.json({ detail: 'Request was throttled. Expected available in 1800 seconds.' }, { status: 429, headers: { 'Retry-After': '1800' } }))
    const result = await post({ intent: 'confirm', start_time: chosen, notes, idempotency_key: KEY })
    expect(result.status).toBe(429)
    expect(result.headers.get('Retry-After')).toBe('1800')
    const reply = result.data as Pick
    expect(reply.result.error?.['']).toEqual(['Muitas tentativas. Tente novamente em 30 minutos.'])
    expect(reply.result.initialValue).toMatchObject({ start_time: chosen, notes })
  })
})

test('the professional in the booking card', async () => {
  directoryAndAvailability({ professionals: [ana] })
  const { professional } = (await bookPage()).data as { professional: Professional }
  expect(professional).toMatchObject({ price: 'R$\u00a0180,00', registration: 'CRN-3 12345' })
})
