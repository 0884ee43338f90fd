import { type Session, redirect } from '@remix-run/node'
import { z } from 'zod'
import { currentRequestContext } from '#app/http/request-context.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { type ProviderFile, type ProviderRequest, type ProviderStream, providerFile, providerJson, providerStream } from '#app/provider/fetch.server.ts'
import { type SessionUser, refreshResponseSchema, sessionUserSchema } from '#app/provider/schemas.ts'
import { toastHeader } from '#app/utils/toast.server.ts'
import { type Role, hasRole } from './roles.ts'
import { type CalendarOAuthState, type SessionData, getSession, sessionStorage } from './session.server.ts'
import { expiryOf, isExpired } from './tokens.ts'

/** The answer of a call whose body nobody reads. */
const anyAnswer = z.unknown()

/** A request that starts with less than this left on the access token refreshes first. */
const ACCESS_MARGIN_SECONDS = 10

/**
 * How long the stored user stands without asking the provider again (docs/decisions/0018). The
 * provider checks the account and its permissions on every call, so a deactivated account or a
 * changed role can do nothing meanwhile; only what the pages show of the user may lag this long.
 */
const USER_FRESH_MS = 60_000

type RefreshResult = 'ok' | 'network' | 'failed'

/**
 * The session of one incoming request (docs/product.md §4): tokens read from the cookie, an expired access
 * token refreshed before anything else, one refresh at most however many loaders ask, and a 401
 * answered by that one refresh and one retry. Loaders and actions share it through getAuth().
 */
export class Auth {
  readonly #session: Session<SessionData>
  readonly #request: Request
  #refreshing: Promise<RefreshResult> | undefined
  #changed = false
  #cleared = false

  constructor(session: Session<SessionData>, request: Request) {
    this.#session = session
    this.#request = request
  }

  get user(): SessionUser | null {
    return this.#cleared ? null : (this.#session.get('user') ?? null)
  }

  get isSignedIn(): boolean {
    return !this.#cleared && Boolean(this.#session.get('refresh')) && Boolean(this.user)
  }

  /** Seconds since the epoch when the access token expires, for the browser's refresh schedule. */
  get accessExpiresAt(): number | null {
    return this.isSignedIn ? expiryOf(this.#session.get('access')) : null
  }

  /** Runs the session start: clears a dead session, refreshes an expired access token. */
  async start(): Promise<void> {
    const access = this.#session.get('access')
    const refresh = this.#session.get('refresh')
    if (!access && !refresh) return
    const now = Date.now()
    // docs/product.md §8: a session that cannot be renewed ends with 'Session expired', never silently.
    if (!refresh || isExpired(refresh, now)) {
      this.#end('start')
      return
    }
    if (!access || isExpired(access, now, ACCESS_MARGIN_SECONDS)) {
      const result = await this.refreshOnce()
      // A network failure keeps the stored session; the calls that follow will say what happened.
      if (result === 'failed') this.#end('start')
    }
  }

  /** At most one refresh per incoming request: every caller shares the same promise. */
  refreshOnce(): Promise<RefreshResult> {
    this.#refreshing ??= this.#refresh()
    return this.#refreshing
  }

  get refreshedInThisRequest() {
    return this.#refreshing !== undefined
  }

  async #refresh(): Promise<RefreshResult> {
    const refresh = this.#session.get('refresh')
    if (!refresh) return 'failed'
    try {
      const body = await providerJson('/authentication/token/refresh/', refreshResponseSchema, {
        method: 'POST',
        json: { refresh },
        during: 'refresh',
      })
      // docs/product.md §8 'Invalid response from refresh token endpoint': a success without an access token.
      if (!body.access) return 'failed'
      this.#session.set('access', body.access)
      this.#changed = true
      return 'ok'
    } catch (error) {
      if (error instanceof ProviderError && error.isNetwork) return 'network'
      if (error instanceof ProviderError) return 'failed'
      throw error
    }
  }

  /** Forgets the tokens and the user; the response will clear the cookie. */
  clear() {
    this.#cleared = true
    this.#changed = true
    this.#session.unset('access')
    this.#session.unset('refresh')
    this.#session.unset('user')
    this.#session.unset('calendarOAuth')
  }

  /** Stores a fresh sign-in (login, Google): the user comes with it, just confirmed. */
  signIn({ access, refresh, user }: SessionData) {
    this.#cleared = false
    this.#changed = true
    this.#session.set('access', access)
    this.#session.set('refresh', refresh)
    this.#session.set('user', user)
    this.#session.set('userCheckedAt', Date.now())
    // An authorization another account started in this browser is not this one's.
    this.#session.unset('calendarOAuth')
  }

  /** The stored user is out of date (the user just changed their profile): the next request asks. */
  forgetUserCheck() {
    this.#changed = true
    this.#session.unset('userCheckedAt')
  }

  /** Starts a Google Calendar authorization: its `state` waits in the session for the callback. */
  beginCalendarOAuth(value: CalendarOAuthState) {
    this.#changed = true
    this.#session.set('calendarOAuth', value)
  }

  /** The authorization waiting for its callback, if any (read only: `endCalendarOAuth` ends it). */
  get pendingCalendarOAuth(): CalendarOAuthState | null {
    return this.#session.get('calendarOAuth') ?? null
  }

  /** The callback used the `state`: it cannot be used again. */
  endCalendarOAuth() {
    if (!this.#session.has('calendarOAuth')) return
    this.#changed = true
    this.#session.unset('calendarOAuth')
  }

  /** Replaces both tokens of the signed-in user (a password change issues a new pair). */
  renewTokens({ access, refresh }: { access: string; refresh: string }) {
    this.#changed = true
    this.#session.set('access', access)
    this.#session.set('refresh', refresh)
  }

  /**
   * A provider call as the signed-in user. A 401 triggers the one refresh and one retry; when
   * that fails the session is cleared and the user is sent to sign in with docs/product.md §8's message.
   */
  async call<Schema extends z.ZodType>(path: string, schema: Schema, init: ProviderRequest = {}): Promise<z.infer<Schema>> {
    return this.#asUser((accessToken) => providerJson(path, schema, { ...init, accessToken, signal: init.signal ?? this.#request.signal }))
  }

  /** A file the provider answers to the signed-in user (a digital material), with call's refresh and retry. */
  async file(path: string, init: ProviderRequest = {}): Promise<ProviderFile> {
    return this.#asUser((accessToken) => providerFile(path, { ...init, accessToken, signal: init.signal ?? this.#request.signal }))
  }

  /** An answer streamed through to the visitor (an export), with call's refresh and retry (a refusal comes before its body). */
  async stream(path: string, init: ProviderRequest = {}): Promise<ProviderStream> {
    return this.#asUser((accessToken) => providerStream(path, { ...init, accessToken, signal: init.signal ?? this.#request.signal }))
  }

  async #asUser<T>(run: (accessToken: string) => Promise<T>): Promise<T> {
    const access = this.#session.get('access')
    if (!this.isSignedIn || !access) throw await this.expired()
    try {
      return await run(access)
    } catch (error) {
      if (!(error instanceof ProviderError) || error.status !== 401) throw error
    }
    const tokenUsed = access
    const result = await this.refreshOnce()
    if (result === 'network') throw new ProviderError({ kind: 'network', during: 'refresh' })
    const renewed = this.#session.get('access')
    if (result === 'failed' || !renewed || renewed === tokenUsed) throw await this.expired()
    try {
      return await run(renewed)
    } catch (error) {
      if (error instanceof ProviderError && error.status === 401) throw await this.expired()
      throw error
    }
  }

  /** A call whose answer the caller does not read (a 204, a confirmation). */
  async send(path: string, init: ProviderRequest = {}): Promise<void> {
    await this.call(path, anyAnswer, init)
  }

  /**
   * docs/product.md §4: "Then the current user is fetched and stored." A user confirmed less than
   * USER_FRESH_MS ago is taken as stored, which spares most requests a provider round trip.
   * Network errors keep what is stored.
   */
  async syncUser(): Promise<void> {
    if (!this.isSignedIn) return
    const checkedAt = this.#session.get('userCheckedAt')
    const now = Date.now()
    if (typeof checkedAt === 'number' && checkedAt <= now && now - checkedAt < USER_FRESH_MS) return
    try {
      const user = await this.call('/users/me/', sessionUserSchema)
      this.#session.set('user', user)
      this.#session.set('userCheckedAt', now)
      this.#changed = true
    } catch (error) {
      if (error instanceof ProviderError && error.isNetwork) return
      if (!(error instanceof ProviderError) && !(error instanceof Response)) throw error
      // Any other failure of the user-data refresh forces the logout (docs/product.md §4).
      this.#end('sync')
    }
  }

  /** When this request ended the session because it could not be kept: at its start, or on /users/me/. */
  #ended: 'start' | 'sync' | null = null

  #end(when: 'start' | 'sync') {
    this.clear()
    this.#ended = when
  }

  /** True when this request ended the session because it could not be kept (for the message). */
  get endedWithNotice() {
    return this.#ended !== null
  }

  /**
   * True when the session ended on the user fetch that runs beside the page's own loaders: those
   * saw a signed-in user, so the page must not be shown; the request goes to the sign-in page.
   */
  get endedMidRequest() {
    return this.#ended === 'sync'
  }

  /** The redirect to the sign-in page that clears the session and says why. */
  async expired(): Promise<Response> {
    this.clear()
    const url = new URL(this.#request.url)
    const back = `${url.pathname}${url.search}`
    const target = `/auth?mode=login${back && back !== '/' && !back.startsWith('/auth') ? `&redirectTo=${encodeURIComponent(back)}` : ''}`
    const headers = new Headers()
    const cookie = await this.setCookie()
    if (cookie) headers.append('Set-Cookie', cookie)
    headers.append('Set-Cookie', await toastHeader({ type: 'error', message: { key: 'errors.sessionExpired' } }))
    return redirect(target, { status: 303, headers })
  }

  /** The session's Set-Cookie when this request changed it (the HTTP layer writes it). */
  async setCookie(): Promise<string | undefined> {
    if (!this.#changed) return undefined
    return this.#cleared && !this.#session.get('refresh')
      ? await sessionStorage().destroySession(this.#session)
      : await sessionStorage().commitSession(this.#session)
  }
}

// One Auth per incoming HTTP request (the server's request context), or per Request object without one.
const perRequest = new WeakMap<object, Promise<Auth>>()

/**
 * The request's session. Its changes reach the browser without the route doing anything: the
 * request context hands them to the HTTP layer, which adds the Set-Cookie to whatever response
 * the request ends with (app/http/session-commit.server.ts).
 */
export function getAuth(request: Request): Promise<Auth> {
  const context = currentRequestContext()
  const key = context ?? request
  let auth = perRequest.get(key)
  if (!auth) {
    const created = (async () => {
      const instance = new Auth(await getSession(request), request)
      await instance.start()
      return instance
    })()
    auth = created
    perRequest.set(key, created)
    if (context) context.session = { setCookie: async () => (await created).setCookie() }
  }
  return auth
}

/** The signed-in user, or a redirect to the sign-in page that comes back here afterwards. */
export async function requireUser(request: Request, { role }: { role?: Role | readonly Role[] } = {}) {
  const auth = await getAuth(request)
  if (!auth.isSignedIn || !auth.user) {
    if (auth.endedWithNotice) throw await auth.expired()
    const url = new URL(request.url)
    const redirectTo = `${url.pathname}${url.search}`
    throw redirect(`/auth?mode=login&redirectTo=${encodeURIComponent(redirectTo)}`)
  }
  if (role && !hasRole(auth.user.groups, role)) {
    throw new Response('Forbidden', { status: 403 })
  }
  return { auth, user: auth.user }
}

/** For the sign-in pages: a signed-in visitor goes where they belong instead. */
export async function requireAnonymous(request: Request, destination: string) {
  const auth = await getAuth(request)
  if (auth.isSignedIn) throw redirect(destination)
  return auth
}
