import { asc, sql } from 'drizzle-orm'
import { auditLog } from '#server/db/schema.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { contactNotificationMessage } from '#server/mail/contact-notification.ts'
import { APP_URL, client, createMemoryDatabase, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', pedro: '' }

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
})
afterAll(() => database.close())
beforeEach(async () => {
  await resetDatabase(database.db)
  await database.db.execute(sql`TRUNCATE "contact_messages" RESTART IDENTITY`)
  time.set(Date.UTC(2025, 2, 18, 12, 0, 0))
})

const good = {
  name: '  Ana Souza ',
  email: 'Ana@Example.COM',
  phone: '+55 (11) 91234-5678',
  subject: 'partnership',
  message: 'Olá! Gostaríamos de conversar sobre uma parceria.\nObrigada.',
}

describe('POST /contact/', () => {
  it('stores the trimmed message and mails the team', async () => {
    const response = await api.post('/contact/', good)
    expect(response.status).toBe(201)
    expect(response.json).toEqual({ id: 1, detail: expect.any(String) })

    const list = await api.get('/contact/', { token: tokens.admin })
    expect(list.json.results).toEqual([
      {
        id: 1,
        name: 'Ana Souza',
        email: 'Ana@example.com',
        phone: '+55 (11) 91234-5678',
        subject: 'partnership',
        message: good.message,
        handled: false,
        handled_at: null,
        created_at: '2025-03-18T12:00:00.000Z',
      },
    ])

    const [mail] = await api.mailTo('contato@innera.local')
    expect(mail!.subject).toBe('[Contato] Parceria: Ana Souza')
    expect(mail!.text).toContain('E-mail: Ana@example.com')
    expect(mail!.text).toContain('Telefone: +55 (11) 91234-5678')
    expect(mail!.text).toContain(good.message)
    expect(mail!.text).toContain(`${APP_URL}/admin/messages`)
  })

  it('takes the phone as optional and form-encoded bodies too', async () => {
    const { phone: _phone, ...withoutPhone } = good
    expect((await api.post('/contact/', withoutPhone)).status).toBe(201)
    const form = new FormData()
    for (const [key, value] of Object.entries({ ...good, phone: '' })) form.set(key, value)
    expect((await api.post('/contact/', form)).status).toBe(201)
    const list = await api.get('/contact/', { token: tokens.admin })
    expect(list.json.results.map((message: { phone: string }) => message.phone)).toEqual(['', ''])
    const [mail] = await api.mailTo('contato@innera.local')
    expect(mail!.text).toContain('Telefone: não informado')
  })

  it('requires every field but the phone', async () => {
    const response = await api.post('/contact/', {})
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      name: ['This field is required.'],
      email: ['This field is required.'],
      subject: ['This field is required.'],
      message: ['This field is required.'],
    })
    const blank = await api.post('/contact/', { ...good, name: '   ', message: ' ' })
    expect(blank.json).toEqual({ name: ['This field may not be blank.'], message: ['This field may not be blank.'] })
  })

  it.each([
    ['name', 'too long', 'x'.repeat(151), 'Ensure this field has no more than 150 characters.'],
    ['email', 'malformed', 'ana@', 'Enter a valid email address.'],
    ['phone', 'with letters', '11 9999-abcd', 'Enter a valid phone number.'],
    ['phone', 'too long', '1'.repeat(31), 'Ensure this field has no more than 30 characters.'],
    ['subject', 'unknown', 'doctor', '"doctor" is not a valid choice.'],
    ['subject', 'blank', '', '"" is not a valid choice.'],
    ['message', 'short once trimmed', '  too short  ', 'Ensure this field has at least 10 characters.'],
    ['message', 'too long', 'x'.repeat(5001), 'Ensure this field has no more than 5000 characters.'],
  ])('refuses a bad %s (%s)', async (field, _case, value, message) => {
    const response = await api.post('/contact/', { ...good, [field]: value })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({ [field]: [message] })
    expect(await api.mailTo('contato@innera.local')).toEqual([])
  })

  it('accepts a message of exactly 10 and of 5000 characters', async () => {
    expect((await api.post('/contact/', { ...good, message: ' 0123456789 ' })).status).toBe(201)
    expect((await api.post('/contact/', { ...good, message: 'x'.repeat(5000) })).status).toBe(201)
  })
})

describe('throttling POST /contact/', () => {
  it('allows 5 messages per address per hour, then 429 with Retry-After', async () => {
    // The throttles read the wall clock (server/http/throttle.ts): Date follows the fake clock here.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(time.clock())
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0' } }))
    const send = (email: string) => throttled.call('POST', '/contact/', { body: { ...good, email }, headers: { 'x-forwarded-for': '203.0.113.5, 10.0.0.1' } })
    for (let index = 0; index < 5; index += 1) expect((await send(`p${index}@example.com`)).status).toBe(201)
    vi.setSystemTime(time.advance(600))
    const blocked = await send('p9@example.com')
    expect(blocked.status).toBe(429)
    expect(blocked.json).toEqual({ detail: 'Request was throttled. Expected available in 3000 seconds.' })
    expect(blocked.headers.get('retry-after')).toBe('3000')
    // Another address is not affected.
    const other = await throttled.call('POST', '/contact/', { body: good, headers: { 'x-forwarded-for': '198.51.100.1' } })
    expect(other.status).toBe(201)
    vi.setSystemTime(time.advance(3000))
    expect((await send('p9@example.com')).status).toBe(201)
  })

  it('allows 3 messages per e-mail per hour, whatever the address and case', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0' } }))
    const send = (address: string, email = 'ana@example.com') =>
      throttled.call('POST', '/contact/', { body: { ...good, email }, headers: { 'x-forwarded-for': address } })
    for (let index = 0; index < 3; index += 1) expect((await send(`192.0.2.${index}`)).status).toBe(201)
    const blocked = await send('192.0.2.99', 'ANA@example.com')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBe('3600')
  })

  it('reads its rates from the environment', async () => {
    const throttled = client(testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_CONTACT_PER_ADDRESS: '1/m' } }))
    const send = () => throttled.call('POST', '/contact/', { body: good, headers: { 'x-forwarded-for': '203.0.113.77' } })
    expect((await send()).status).toBe(201)
    expect((await send()).headers.get('retry-after')).toBe('60')
  })
})

describe('GET /contact/ (admin)', () => {
  async function seedMessages() {
    const entries = [
      { name: 'Bruno Lima', email: 'bruno@example.com', subject: 'patient', message: 'Quero saber sobre o programa de 8 semanas.' },
      { name: 'Clínica Vida', email: 'rh@vida.example', subject: 'company', message: 'Programa de bem-estar para 50% da equipe.' },
      { name: 'Dra. Carla', email: 'carla@example.com', subject: 'professional', message: 'Sou médica e quero me credenciar.' },
    ]
    for (const entry of entries) {
      expect((await api.post('/contact/', entry)).status).toBe(201)
      time.advance(60)
    }
  }

  it('lists newest first, paginated like DRF', async () => {
    await seedMessages()
    const first = await api.get('/contact/?page_size=2', { token: tokens.admin })
    expect(first.status).toBe(200)
    expect(first.json.count).toBe(3)
    expect(first.json.previous).toBeNull()
    expect(first.json.next).toBe(`${PUBLIC_URL}/contact/?page_size=2&page=2`)
    expect(first.json.results.map((message: { name: string }) => message.name)).toEqual(['Dra. Carla', 'Clínica Vida'])
    const second = await api.get('/contact/?page_size=2&page=2', { token: tokens.admin })
    expect(second.json.results.map((message: { name: string }) => message.name)).toEqual(['Bruno Lima'])
    expect(second.json.previous).toBe(`${PUBLIC_URL}/contact/?page_size=2`)
    expect(await api.get('/contact/?page=3', { token: tokens.admin })).toMatchObject({ status: 404, json: { detail: 'Invalid page.' } })
  })

  it('searches name, e-mail and message; filters by subject and handled', async () => {
    await seedMessages()
    const names = async (query: string) =>
      (await api.get(`/contact/?${query}`, { token: tokens.admin })).json.results.map((message: { name: string }) => message.name)
    expect(await names('search=CREDENCIAR')).toEqual(['Dra. Carla'])
    expect(await names('search=vida.example')).toEqual(['Clínica Vida'])
    expect(await names('search=bruno')).toEqual(['Bruno Lima'])
    expect(await names(`search=${encodeURIComponent('50%')}`)).toEqual(['Clínica Vida'])
    expect(await names(`search=${encodeURIComponent('%')}`)).toEqual(['Clínica Vida'])
    expect(await names('subject=patient')).toEqual(['Bruno Lima'])
    expect(await api.get('/contact/?subject=doctor', { token: tokens.admin })).toMatchObject({ status: 400, json: { subject: [expect.stringContaining('doctor')] } })

    await api.patch('/contact/2/', { handled: true }, { token: tokens.admin })
    expect(await names('handled=true')).toEqual(['Clínica Vida'])
    expect(await names('handled=false')).toEqual(['Dra. Carla', 'Bruno Lima'])
    expect(await names('handled=false&search=carla')).toEqual(['Dra. Carla'])
    expect((await api.get('/contact/?handled=maybe', { token: tokens.admin })).status).toBe(400)
  })

  it('is for admins only', async () => {
    expect(await api.get('/contact/')).toMatchObject({ status: 401, json: { detail: 'Authentication credentials were not provided.' } })
    expect(await api.get('/contact/', { token: tokens.pedro })).toMatchObject({
      status: 403,
      json: { detail: 'You do not have permission to perform this action.' },
    })
    expect((await api.get('/contact/', { token: tokens.paula })).status).toBe(403)
  })
})

describe('/contact/{id}/ (admin)', () => {
  it('marks a message handled and open again', async () => {
    await api.post('/contact/', good)
    // Access tokens live 5 minutes; the fake clock stays inside that.
    time.advance(120)
    const handled = await api.patch('/contact/1/', { handled: true }, { token: tokens.admin })
    expect(handled.status).toBe(200)
    expect(handled.json).toMatchObject({ id: 1, handled: true, handled_at: '2025-03-18T12:02:00.000Z' })
    expect((await api.get('/contact/1/', { token: tokens.admin })).json.handled).toBe(true)
    // Marking it again keeps the first time it was handled.
    time.advance(60)
    expect((await api.patch('/contact/1/', { handled: 'true' }, { token: tokens.admin })).json.handled_at).toBe('2025-03-18T12:02:00.000Z')
    const reopened = await api.patch('/contact/1/', { handled: false }, { token: tokens.admin })
    expect(reopened.json).toMatchObject({ handled: false, handled_at: null })
    expect((await api.patch('/contact/1/', {}, { token: tokens.admin })).json.handled).toBe(false)
    // Each real change is in the audit log, who and when, before and after; the repeated one is not.
    const audit = await database.db.select().from(auditLog).orderBy(asc(auditLog.id))
    expect(audit.map((entry) => [entry.action, entry.targetType, entry.targetId, entry.before, entry.after])).toEqual([
      ['contact.handled', 'contact_message', '1', { handled: false }, { handled: true }],
      ['contact.handled', 'contact_message', '1', { handled: true }, { handled: false }],
    ])
    expect(audit[0]).toMatchObject({ actorRole: 'admin', at: new Date('2025-03-18T12:02:00.000Z') })
  })

  it('validates, answers 404 for unknown messages and is for admins only', async () => {
    await api.post('/contact/', good)
    expect(await api.patch('/contact/1/', { handled: 'perhaps' }, { token: tokens.admin })).toMatchObject({
      status: 400,
      json: { handled: ['Must be a valid boolean.'] },
    })
    expect((await api.patch('/contact/99/', { handled: true }, { token: tokens.admin })).status).toBe(404)
    expect(await api.patch('/contact/2147483648/', { handled: true }, { token: tokens.admin })).toMatchObject({ status: 400, json: { detail: 'Invalid id. Ids are integers from 1 to 2147483647.' } })
    expect((await api.patch('/contact/1/', { handled: true })).status).toBe(401)
    expect((await api.patch('/contact/1/', { handled: true }, { token: tokens.pedro })).status).toBe(403)
    expect((await api.get('/contact/1/', { token: tokens.paula })).status).toBe(403)
    expect((await api.call('DELETE', '/contact/1/', { token: tokens.admin })).status).toBe(405)
  })
})

describe('contact notification mail', () => {
  it('escapes the html and keeps the subject on one line', () => {
    const mail = contactNotificationMessage({
      id: 7,
      name: 'Eve\r\nBcc: x@evil.test',
      email: 'eve@example.com',
      phone: '',
      subject: 'other',
      message: '<script>alert(1)</script>',
      adminUrl: 'http://app.test/admin/messages',
    })
    expect(mail.to).toBe('contato@innera.local')
    expect(mail.subject).toBe('[Contato] Outro assunto: Eve Bcc: x@evil.test')
    expect(mail.html).toContain('&lt;script&gt;')
    expect(mail.html).not.toContain('<script>')
  })
})
