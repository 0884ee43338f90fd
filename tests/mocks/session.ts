import { sessionStorage } from '#app/session/session.server.ts'
import { type SessionUser } from '#app/provider/schemas.ts'

/** An unsigned JWT-shaped token with the given lifetime (the app only reads exp). */
export function fakeJwt(secondsFromNow: number, claims: Record<string, unknown> = {}) {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const exp = Math.floor(Date.now() / 1000) + secondsFromNow
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ exp, user_id: 1, jti: Math.random().toString(36).slice(2), ...claims })}.sig`
}

export const demoPatient: SessionUser = {
  id: 4,
  username: 'paciente',
  email: 'paciente@innera.local',
  groups: ['paciente'],
  photo: null,
  first_name: 'Pedro',
  last_name: 'Santos',
  time_zone: 'America/Sao_Paulo',
}

export const demoProfessional: SessionUser = { ...demoPatient, id: 2, username: 'profissional', email: 'profissional@innera.local', groups: ['profissional'], first_name: 'Paula', last_name: 'Ribeiro' }

export const demoAdmin: SessionUser = { ...demoPatient, id: 1, username: 'admin', email: 'admin@innera.local', groups: ['admin'], first_name: 'Alice', last_name: 'Admin' }

/** A Cookie header holding a session with these tokens and user. */
export async function sessionCookie(data: { access?: string; refresh?: string; user?: SessionUser; userCheckedAt?: number }) {
  const session = await sessionStorage().getSession()
  if (data.access) session.set('access', data.access)
  if (data.refresh) session.set('refresh', data.refresh)
  if (data.user) session.set('user', data.user)
  if (data.userCheckedAt !== undefined) session.set('userCheckedAt', data.userCheckedAt)
  const setCookie = await sessionStorage().commitSession(session)
  return setCookie.split(';')[0]!
}

/**
 * The Cookie header of a signed-in user with fresh tokens, the route tests' usual session;
 * `checked` also marks the user as just checked with the provider (no /me call on the first load).
 */
export const signedIn = (user: SessionUser = demoPatient, { checked = false }: { checked?: boolean } = {}) =>
  sessionCookie({ access: fakeJwt(300), refresh: fakeJwt(3600), user, ...(checked ? { userCheckedAt: Date.now() } : {}) })

/** Reads the session a response sets (or null when it clears it or sets none). */
export async function sessionFrom(response: { headers: Headers }) {
  const cookies = response.headers.getSetCookie().filter((cookie) => cookie.startsWith('__session='))
  const last = cookies.at(-1)
  if (!last) return undefined
  const session = await sessionStorage().getSession(last.split(';')[0])
  return { access: session.get('access'), refresh: session.get('refresh'), user: session.get('user'), cleared: !session.get('refresh') }
}
