import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../db/client'
import { APP_URL, client, createMemoryDatabase, fakeClock, linkIn, resetDatabase, testApp } from '../testing/harness'

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
    expect(response.json).toEqual({
      id: expect.any(Number),
      username: 'Ana.Souza',
      email: 'Ana.Souza@example.com',
      first_name: 'Ana',
      last_name: 'Maria Souza',
      groups: ['paciente'],
      detail: expect.any(String),
    })
    const mail = await api.mailTo('ana.souza@example.com')
    expect(mail).toHaveLength(1)
    expect(mail[0]!.subject).toBe('Confirme seu e-mail na Innera')
    expect(mail[0]!.text).toContain(`${APP_URL}/auth/confirm/`)

    const login = await api.login('ana.souza@example.com', newUser.password)
    const profile = await api.get('/users/profile/', { token: login.access })
    expect(profile.json.email_verified).toBe(false)
  })

  it('makes derived usernames unique and honours an explicit one', async () => {
    const first = await api.post('/users/register/', { ...newUser, email: 'paciente@another.test' })
    // paciente and paciente2 are the seeded patients.
    expect(first.json.username).toBe('paciente3')
    const chosen = await api.post('/users/register/', { ...newUser, email: 'b@another.test', username: 'bia_2025' })
    expect(chosen.json.username).toBe('bia_2025')
  })

  it('refuses a duplicate e-mail whatever its case, and a duplicate username', async () => {
    const email = await api.post('/users/register/', { ...newUser, email: 'PACIENTE@innera.local' })
    expect(email).toMatchObject({ status: 400, json: { email: ['A user with this email already exists.'] } })
    const username = await api.post('/users/register/', { ...newUser, username: 'admin' })
    expect(username).toMatchObject({ status: 400, json: { username: ['A user with that username already exists.'] } })
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

  it('does not reveal whether the account exists', async () => {
    const unknown = await api.post('/users/password-reset/', { email: 'ghost@example.com' })
    const known = await api.post('/users/password-reset/', { email: 'paciente@innera.local' })
    expect(unknown.json).toEqual(known.json)
    expect(await api.mailTo('ghost@example.com')).toEqual([])
  })

  it('expires after three days', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    time.advance(3 * 24 * 3600 + 1)
    const response = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })
    expect(response.status).toBe(400)
  })

  it('refuses weak new passwords and malformed links', async () => {
    const [uid, token] = await requestResetLink('paciente@innera.local')
    const weak = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'senha123' })
    expect(weak).toMatchObject({ status: 400, json: { new_password: ['This password is too common.'] } })
    const missing = await api.post(`/users/password-reset-confirm/${uid}/${token}/`, {})
    expect(missing.json).toEqual({ new_password: ['This field is required.'] })
    const garbage = await api.post('/users/password-reset-confirm/zz/not-a-token/', { new_password: 'nova-senha-forte-9' })
    expect(garbage.status).toBe(400)
    // The link still works after those failures.
    expect((await api.post(`/users/password-reset-confirm/${uid}/${token}/`, { new_password: 'nova-senha-forte-9' })).status).toBe(200)
  })
})
