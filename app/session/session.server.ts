import { createCookieSessionStorage } from '@remix-run/node'
import { getEnv } from '#app/env.server.ts'
import { type SignedInSession } from '#app/provider/schemas.ts'

/** The provider's tokens and user (what a sign-in answers), and what the app keeps beside them. */
export type SessionData = SignedInSession & {
  /** When the provider last confirmed the stored user (ms since the epoch); see Auth.syncUser. */
  userCheckedAt?: number
  /** A Google Calendar authorization in progress (decision 0025): its `state`, checked once by the callback. */
  calendarOAuth?: CalendarOAuthState
}

export type CalendarOAuthState = { state: string; popup: boolean; createdAt: number }

type SessionFlashData = {
  toast: string
}

let storage: ReturnType<typeof createCookieSessionStorage<SessionData, SessionFlashData>> | undefined

/** The signed, httpOnly cookie session that holds the tokens: browser JavaScript never sees them. */
export function sessionStorage() {
  if (!storage) {
    const env = getEnv()
    storage = createCookieSessionStorage<SessionData, SessionFlashData>({
      cookie: {
        name: '__session',
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: env.SESSION_COOKIE_SECURE,
        // Newest secret first: it signs; the older ones still verify, so secrets rotate without logouts.
        secrets: env.SESSION_SECRET,
        maxAge: 60 * 60 * 24 * 30,
      },
    })
  }
  return storage
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get('Cookie'))
}
