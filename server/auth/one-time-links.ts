import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { toSeconds, type Clock } from '#server/clock.ts'

/**
 * Django's PasswordResetTokenGenerator: a token "<timestamp base36>-<hmac>" whose HMAC covers
 * the user id, the password hash, the last login, the timestamp and the e-mail. Changing the
 * password (or logging in) changes the hash input, so an old link stops working without any
 * stored state; changing the e-mail does too.
 */
export type LinkSubject = { id: number; password: string; lastLogin: Date | null; email: string }

// Django counts from 2001-01-01 to keep the base36 timestamps short.
const EPOCH_2001_SECONDS = Date.UTC(2001, 0, 1) / 1000

export function createLinkTokenGenerator({ secret, purpose, timeoutSeconds, clock }: { secret: string; purpose: string; timeoutSeconds: number; clock: Clock }) {
  const key = createHash('sha256').update(`innera.${purpose}${secret}`).digest()

  function tokenAt(subject: LinkSubject, timestamp: number): string {
    const loginStamp = subject.lastLogin ? new Date(Math.floor(subject.lastLogin.getTime() / 1000) * 1000).toISOString() : ''
    const value = `${subject.id}${subject.password}${loginStamp}${timestamp}${subject.email}`
    const digest = createHmac('sha256', key).update(value).digest('hex')
    // Django keeps every second character to shorten the URL.
    const shortened = [...digest].filter((_, index) => index % 2 === 0).join('')
    return `${timestamp.toString(36)}-${shortened}`
  }

  const currentTimestamp = () => toSeconds(clock()) - EPOCH_2001_SECONDS

  return {
    make: (subject: LinkSubject) => tokenAt(subject, currentTimestamp()),
    check(subject: LinkSubject, token: string): boolean {
      const match = /^([0-9a-z]{1,13})-[0-9a-f]{32}$/.exec(token)
      if (!match) return false
      const timestamp = parseInt(match[1]!, 36)
      const expected = Buffer.from(tokenAt(subject, timestamp))
      const given = Buffer.from(token)
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false
      const age = currentTimestamp() - timestamp
      return age >= 0 && age <= timeoutSeconds
    },
  }
}

export type LinkTokenGenerator = ReturnType<typeof createLinkTokenGenerator>

/** Django's urlsafe_base64_encode(force_bytes(pk)): base64url without padding. */
export const encodeUid = (id: number) => Buffer.from(String(id)).toString('base64url')

export function decodeUid(uid: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,16}$/.test(uid)) return undefined
  const text = Buffer.from(uid, 'base64url').toString('utf8')
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined
  return Number(text)
}
