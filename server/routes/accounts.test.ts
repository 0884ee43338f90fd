import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { passwordResetTokens } from '#server/db/schema.ts'
import { PASSWORD_MESSAGES } from '#server/auth/password-messages.ts'
import { APP_URL, client, createMemoryDatabase, fakeClock, linkIn, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const time = fakeClock()
let api: ReturnType<typeof client>

beforeAll(async () => {
  database = await createMemoryDatabase()
  api = client(testApp(database.db, { clock: time.clock }))
})
afterAll(() => database.close())
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(Date.UTC(2025, 2, 18, 12, 0, 0))
})

const newUser = { email: 'Ana.Souza@Example.COM', password: 'caminhada-ao-sol-7', name: 'Ana  Maria Souza' }

describe('POST /users/register/', () => {
  it('creates an unverified paciente, derives the username and mails a confirmation', async () => {
    const response = await api.post('/users/register/', newUser)
    expect(response.status).toBe(201)
    expect(response.json).toEqual({ detail: 'Account created. We have sent you an e-mail to confirm your address.' })
    const mail = await api.mailTo('ana.souza@example.com')
    expect(mail).toHaveLength(1)
    expect(mail[0]!.subject).toBe('Confirme seu e-mail na Innera')
    expect(mail[0]!.text).toContain(`${APP_URL}/auth/confirm/`)

    const login = await api.login('ana.souza@example.com', newUser.password)
    const profile = await api.get('/users/profile/', { token: login.access })
    expect(profile.json).toMatchObject({ username: 'Ana.Souza', email: 'Ana.Souza@example.com', first_name: 'Ana', last_name: 'Maria Souza', email_verified: false })
  })

  it('makes derived usernames unique and honours an explicit one', async () => {
    await api.post('/users/register/', { ...newUser, email: 'paciente@another.test' })
    // paciente and paciente2 are the seeded patients.
    expect((await api.get('/users/me/', { token: (await api.login('paciente@another.test', newUser.password)).access })).json.username).toBe('paciente3')
    await api.post('/users/register/', { ...newUser, email: 'b@another.test', username: 'bia_2025' })
    expect((await api.get('/users/me/', { token: (await api.login('b@another.test', newUser.password)).access })).json.username).toBe('bia_2025')
  })

  // Issue 10, finding 8: the answer must not tell whether the address has an account.
  it('answers a known e-mail exactly like a new one and tells only its owner', async () => {
    const fresh = await api.post('/users/register/', { ...newUser, email: 'nova.pessoa@example.com' })
    const known = await api.post('/users/register/', { ...newUser, email: 'PACIENTE@innera.local' })
    expect(known.status).toBe(fresh.status)
    expect(known.json).toEqual(fresh.json)
    expect(known.status).toBe(201)

    const [note, ...others] = await api.mailTo('paciente@innera.local')
    expect(others).toEqual([])
    expect(note!.subject).toBe('Tentativa de cadastro com o seu e-mail na Innera')
    expect(note!.text).toContain(`${APP_URL}/auth?mode=login`)
    expect(note!.text).toMatch(/If that was you, sign in/)
    // The account is untouched: the old password still works, the attempted one does not.
    await api.login('paciente@innera.local')
    expect((await api.post('/authentication/custom-login/', { email: 'paciente@innera.local', password: newUser.password })).status).toBe(401)
  })

  it('answers before the account lookup and the mail are done', async () => {
    const app = testApp(database.db, { clock: time.clock })
    let release!: () => void
    app.services.background.run('hold the queue', () => new Promise<void>((resolve) => (release = resolve)))
    for (const email of ['paciente@innera.local', 'someone.new@example.com']) {
      const response = await app.request(`${PUBLIC_URL}/users/register/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...newUser, email }),
      })
      expect(response.status).toBe(201)
    }
    expect(await api.mailTo('someone.new@example.com')).toEqual([])
    release()
    await app.services.background.idle()
    expect(await api.mailTo('someone.new@example.com')).toHaveLength(1)
    expect(await api.mailTo('paciente@innera.local')).toHaveLength(1)
  })

  it('still reports a taken username', async () => {
    const username = await api.post('/users/register/', { ...newUser, username: 'admin' })
    expect(username).toMatchObject({ status: 400, json: { username: ['A user with that username already exists.'] } })
  })

  it('gives the account to one of two racing registrations and tells the owner about the other', async () => {
    const [first, second] = await Promise.all([
      api.post('/users/register/', { ...newUser, email: 'race@example.com' }),
      api.post('/users/register/', { ...newUser, email: 'RACE@example.com' }),
    ])
    expect([first.status, second.status]).toEqual([201, 201])
    const mail = await api.mailTo('race@example.com')
    expect(mail.map((message) => message.subject).sort()).toEqual(['Confirme seu e-mail na Innera', 'Tentativa de cadastro com o seu e-mail na Innera'])
  })

  it('applies Django password rules', async () => {
    const short = await api.post('/users/register/', { ...newUser, password: '1234567' })
    expect(short.status).toBe(400)
    expect(short.json.password).toEqual([
      'This password is too short. It must contain at least 8 characters.',
      'This password is entirely numeric.',
    ])
    const similar = await api.post('/users/register/', { ...newUser, password: 'ana.souza@example' })
    expect(similar.json.password).toContain('The password is too similar to the email address.')
    // The same for a known address: these checks do not depend on the account.
    const known = await api.post('/users/register/', { ...newUser, email: 'paciente@innera.local', password: 'innera-demo-2025' })
    expect(known).toMatchObject({ status: 400, json: { password: [PASSWORD_MESSAGES.tooGuessable] } })
  })

  it('validates fields with DRF messages', async () => {
    const response = await api.post('/users/register/', { email: 'not-an-email', name: '', accept_terms: false })
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      email: ['Enter a valid email address.'],
      password: ['This field is required.'],
      name: ['This field may not be blank.'],
      accept_terms: ['You must accept the terms and conditions.'],
    })
    const badUsername = await api.post('/users/register/', { ...newUser, username: 'no spaces!' })
    expect(Object.keys(badUsername.json)).toEqual(['username'])
  })

  // Issue 22, finding 9: a name went verbatim into the e-mails others receive.
  it('takes names of letters, marks, spaces, apostrophes, hyphens and dots only', async () => {
    const NAME_RULE = { name: ['Enter a name with letters, spaces, apostrophes, hyphens and dots only.'] }
    for (const name of ['Mariana https://evil.example/pix', 'Mariana\nPague o PIX', 'Ana evil.example', 'Ana 123', 'Ana\u0007']) {
      expect(await api.post('/users/register/', { ...newUser, name })).toMatchObject({ status: 400, json: NAME_RULE })
    }
    expect((await api.post('/users/register/', { ...newUser, email: 'ines@example.com', name: "  Inês  d'Ávila-Marques Jr. " })).status).toBe(201)
    const login = await api.login('ines@example.com', newUser.password)
    expect((await api.get('/users/profile/', { token: login.access })).json).toMatchObject({ first_name: 'Inês', last_name: "d'Ávila-Marques Jr." })
  })
})

describe('e-mail confirmation', () => {
  it('confirms through the mailed link, also after the user has logged in', async () => {
    await api.post('/users/register/', newUser)
    await api.login(newUser.email, newUser.password)
    await api.post('/users/send-confirmation/', { email: newUser.email })
    const mails = await api.mailTo(newUser.email)
    expect(mails).toHaveLength(2)
    const link = linkIn(mails[0]!.text, `${APP_URL}/auth/confirm/`)
    const [uid, token] = link.split('/').slice(-2)
    const confirmed = await api.post(`/users/confirm-email/${uid}/${token}/`)
    expect(confirmed.status).toBe(200)
    const { access } = await api.login(newUser.email, newUser.password)
    expect((await api.get('/users/profile/', { token: access })).json.email_verified).toBe(true)
    // Confirming twice is harmless; nothing more is mailed to a verified address.
    expect((await api.post(`/users/confirm-email/${uid}/${token}/`)).status).toBe(200)
    await api.post('/users/send-confirmation/', { email: newUser.email })
    expect(await api.mailTo(newUser.email)).toHaveLength(2)
  })

  it('answers the same for unknown e-mails and refuses bad links', async () => {
    const unknown = await api.post('/users/send-confirmation/', { email: 'ghost@example.com' })
    const known = await api.post('/users/send-confirmation/', { email: 'paciente@innera.local' })
    expect(unknown.status).toBe(200)
    expect(unknown.json).toEqual(known.json)
    expect(await api.mailTo('ghost@example.com')).toEqual([])
    const bad = await api.post('/users/confirm-email/MQ/abc-0123456789abcdef0123456789abcdef/')
    expect(bad).toMatchObject({ status: 400, json: { detail: 'The confirmation link is invalid or has expired.' } })
    expect((await api.post('/users/send-confirmation/', {})).json).toEqual({ email: ['This field is required.'] })
  })
})

describe('password reset', () => {
  async function requestResetLink(email: string) {
    const response = await api.post('/users/password-reset/', { email })
    expect(response.status).toBe(200)
    const [message] = await api.mailTo(email)
    expect(message!.subject).toBe('Redefinição de senha da Innera')
    return linkIn(message!.text, `${APP_URL}/auth/reset/`).split('/').slice(-2) as [string, string]
  }

  it('goes from the mailed link to a login with the new password, and the link dies', async () => {
    const [uid, token] = await requestResetLink('paciente2@innera.local')
    expect(uid).toBe(Buffer.from('5').toString('base64url'))
    const confirmed = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.detail).toEqual(expect.any(String))

    expect((await api.post('/authentication/custom-login/', { email: 'paciente2@innera.local', password: 'innera-demo-2025' })).status).toBe(401)
    await api.login('paciente2@innera.local', 'nova-senha-forte-9')

    const reused = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'outra-senha-forte-9' })
    expect(reused).toMatchObject({ status: 400, json: { detail: 'The reset link is invalid or has expired.' } })
  })

  // Issue 10, finding 8: same answer, and no lookup on the request path.
  it('does not reveal whether the account exists', async () => {
    const unknown = await api.post('/users/password-reset/', { email: 'ghost@example.com' })
    const known = await api.post('/users/password-reset/', { email: 'paciente@innera.local' })
    expect(unknown.status).toBe(200)
    expect(unknown.status).toBe(known.status)
    expect(unknown.json).toEqual(known.json)
    expect(await api.mailTo('ghost@example.com')).toEqual([])
    expect(await api.mailTo('paciente@innera.local')).toHaveLength(1)
  })

  it('answers before looking the address up', async () => {
    const app = testApp(database.db, { clock: time.clock })
    let release!: () => void
    app.services.background.run('hold the queue', () => new Promise<void>((resolve) => (release = resolve)))
    const response = await app.request(`${PUBLIC_URL}/users/password-reset/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'paciente@innera.local' }),
    })
    expect(response.status).toBe(200)
    expect(await api.mailTo('paciente@innera.local')).toEqual([])
    release()
    await app.services.background.idle()
    expect(await api.mailTo('paciente@innera.local')).toHaveLength(1)
  })

  it('sends a URL-safe random token of 43 characters', async () => {
    const [, token] = await requestResetLink('paciente@innera.local')
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  // Issue 10, finding 3: one hour, one use, five refused passwords, one outstanding link.
  it('expires after one hour', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    time.advance(3600)
    const response = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })
    expect(response).toMatchObject({ status: 400, json: { detail: 'The reset link is invalid or has expired.' } })
  })

  it('works once only, also when used twice at the same moment', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    const attempts = await Promise.all(
      ['nova-senha-forte-9', 'outra-senha-forte-9'].map((password) => api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: password })),
    )
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 400])
    const again = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'terceira-senha-forte-9' })
    expect(again).toMatchObject({ status: 400, json: { detail: 'The reset link is invalid or has expired.' } })
  })

  it('refuses weak new passwords and malformed links, and dies after five refusals', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    const weak = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'senha123' })
    expect(weak).toMatchObject({ status: 400, json: { new_password: ['This password is too common.'] } })
    const missing = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, {})
    expect(missing.json).toEqual({ new_password: ['This field is required.'] })
    const garbage = await api.post('/users/password-reset-confirm/zz/not-a-token/', { new_password: 'nova-senha-forte-9' })
    expect(garbage).toMatchObject({ status: 400, json: { detail: 'The reset link is invalid or has expired.' } })
    const otherUser = await api.post(`/users/password-reset-confirm/${Buffer.from('5').toString('base64url')}/${token}/`, { new_password: 'nova-senha-forte-9' })
    expect(otherUser.status).toBe(400)
    // A user who typed weak passwords can try again...
    for (const password of ['aaaaaaaa', 'qwerty12', 'innera-demo-2025']) {
      expect((await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: password })).status).toBe(400)
    }
    // ...but the fifth refusal ends the link, so it cannot be used to guess for ever.
    expect((await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: '        ' })).json.new_password).toBeDefined()
    const dead = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })
    expect(dead).toMatchObject({ status: 400, json: { detail: 'The reset link is invalid or has expired.' } })
  })

  it('keeps a link usable after fewer than five refusals', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    for (let index = 0; index < 4; index += 1) await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'qwerty12' })
    expect((await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })).status).toBe(200)
  })

  it('ends the earlier link when a new one is sent', async () => {
    const [uid, first] = await requestResetLink('paciente@innera.local')
    await api.post('/users/password-reset/', { email: 'paciente@innera.local' })
    const [latest] = await api.mailTo('paciente@innera.local')
    const second = linkIn(latest!.text, `${APP_URL}/auth/reset/`).split('/').pop()!
    expect(second).not.toBe(first)
    expect((await api.post(`/users/password-reset-confirm/${uid}/${first}/`, { new_password: 'nova-senha-forte-9' })).status).toBe(400)
    expect((await api.post(`/users/password-reset-confirm/${uid}/${second}/`, { new_password: 'nova-senha-forte-9' })).status).toBe(200)
  })

  it('stores only a hash of the token', async () => {
    const [, token] = await requestResetLink('paciente@innera.local')
    const rows = await database.db.select().from(passwordResetTokens)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'))
    expect(JSON.stringify(rows)).not.toContain(token)
  })

  // Issue 10, finding 2: a reset signs out every session.
  it('ends every session of the user', async () => {
    const session = await api.login('paciente@innera.local')
    const [uid, token] = await requestResetLink('paciente@innera.local')
    expect((await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })).status).toBe(200)
    expect((await api.get('/users/me/', { token: session.access })).status).toBe(401)
    expect((await api.post('/authentication/token/refresh/', { refresh: session.refresh })).status).toBe(401)
  })
})
