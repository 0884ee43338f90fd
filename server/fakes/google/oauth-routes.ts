import { randomBytes, timingSafeEqual } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { fakeGoogleCodes } from '#server/db/schema.ts'
import { CALENDAR_SCOPE } from '#server/google/calendar-api.ts'
import { renderCalendarConsent } from '#server/fakes/google/calendar-consent.ts'
import {
  createFakeGrant,
  FAKE_TOKEN_LIFETIME_SECONDS,
  findLiveGrantByRefreshToken,
  revokeFakeToken,
  signFakeGoogleToken,
  verifyFakeAccessToken,
} from '#server/fakes/google/grants.ts'
import { fakeGoogleKey } from '#server/fakes/google/keys.ts'
import { customIdentity, FAKE_GOOGLE_IDENTITIES, initialsOf, type FakeGoogleIdentity } from '#server/fakes/google/identities.ts'
import { pathParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { escapeHtml, HTML_PAGE_HEADERS, htmlDocument } from '#server/http/html.ts'
import type { Services } from '#server/services.ts'

const CODE_LIFETIME_SECONDS = 5 * 60

type AuthorizeRequest = {
  clientId: string
  redirectUri: string
  responseType: string
  scope: string
  state: string
  nonce: string
  /** "offline": the code also buys a refresh token. */
  accessType: string
  /** The account to offer first (Google's login_hint). */
  loginHint: string
}

/**
 * A stand-in for Google's OpenID Connect provider, for development and tests without network
 * access: discovery document, account chooser (authorization-code flow), the consent page for
 * the calendar scope, token endpoint (codes and refresh tokens), revocation, userinfo and JWKS.
 * Mounted under /fake-google only when FAKE_GOOGLE is on; the calendar itself is in
 * fakes/google/calendar-routes.ts.
 */
export function registerFakeGoogleRoutes(api: Api, services: Services): void {
  const { db, config, clock } = services
  const base = `${config.providerPublicUrl}/fake-google`
  const issuer = config.google.issuer
  const clientId = config.google.clientId
  // Resolved at start (fakes/secrets.ts): GOOGLE_CLIENT_SECRET, FAKE_GOOGLE_CLIENT_SECRET or the install's own.
  const clientSecret = config.google.clientSecret!

  api.endpoint('/fake-google/.well-known/openid-configuration', {
    GET: (c) =>
      c.json({
        issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/userinfo`,
        revocation_endpoint: `${base}/revoke`,
        jwks_uri: `${base}/certs`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'picture', 'sub'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      }),
  })

  api.endpoint('/fake-google/certs', {
    GET: async (c) => c.json({ keys: [(await fakeGoogleKey(db)).publicJwk] }, 200, { 'Cache-Control': 'public, max-age=3600' }),
  })

  /** Problems Google shows on its own page instead of redirecting (the redirect target is not trusted yet). */
  function pageError(request: AuthorizeRequest): string | undefined {
    if (request.clientId !== clientId) return 'Error 401: invalid_client. The OAuth client was not found.'
    if (!isHttpUrl(request.redirectUri)) return 'Error 400: redirect_uri_mismatch. The redirect URI is missing or invalid.'
    return undefined
  }

  const redirectWith = (c: AppContext, request: AuthorizeRequest, params: Record<string, string>) => {
    const target = new URL(request.redirectUri)
    for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value)
    if (request.state) target.searchParams.set('state', request.state)
    return c.redirect(target.toString(), 302)
  }

  api.endpoint('/fake-google/authorize', {
    GET: (c) => {
      const request = authorizeRequest((name) => c.req.query(name))
      const problem = pageError(request)
      if (problem) return c.body(renderErrorPage(problem), 400, HTML_PAGE_HEADERS)
      if (request.responseType !== 'code') return redirectWith(c, request, { error: 'unsupported_response_type' })
      // Asked for the calendar (the calendar connection), Google shows its consent screen.
      if (asksForCalendar(request)) return c.body(renderCalendarConsent({ loginHint: request.loginHint, hiddenFields: hiddenFields(request) }), 200, HTML_PAGE_HEADERS)
      return c.body(renderChooser(request), 200, HTML_PAGE_HEADERS)
    },
    POST: async (c) => {
      const form = await readFields(c.req.raw)
      const field = (name: string) => stringField(form, name)
      const request = authorizeRequest(field)
      const problem = pageError(request)
      if (problem) return c.body(renderErrorPage(problem), 400, HTML_PAGE_HEADERS)
      // "cancel" on the account chooser, "deny" on the consent screen.
      if (field('decision') === 'cancel' || field('decision') === 'deny') return redirectWith(c, request, { error: 'access_denied' })

      const identity = chosenIdentity(field('account'), field('email'), field('name'))
      if (!identity) {
        const problem = 'Enter a valid e-mail address to continue.'
        const page = asksForCalendar(request) ? renderCalendarConsent({ loginHint: request.loginHint, hiddenFields: hiddenFields(request), error: problem }) : renderChooser(request, problem)
        return c.body(page, 400, HTML_PAGE_HEADERS)
      }

      const code = `4/${randomBytes(32).toString('base64url')}`
      await db.insert(fakeGoogleCodes).values({
        code,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scope: request.scope || 'openid email profile',
        nonce: request.nonce || null,
        accessType: request.accessType || null,
        subject: identity.subject,
        email: identity.email,
        name: identity.name,
        expiresAt: new Date(clock() + CODE_LIFETIME_SECONDS * 1000),
      })
      return redirectWith(c, request, { code, scope: request.scope || 'openid email profile', authuser: '0', prompt: 'consent' })
    },
  })

  api.endpoint('/fake-google/token', {
    POST: async (c) => {
      const form = await readFields(c.req.raw)
      const field = (name: string) => stringField(form, name) ?? ''
      const basic = basicCredentials(c.req.header('authorization'))
      const requestClientId = basic?.clientId ?? field('client_id')
      const requestClientSecret = basic ? basic.clientSecret : field('client_secret')
      const oauthError = (status: 400 | 401, error: string, description: string) =>
        c.json({ error, error_description: description }, status, { 'Cache-Control': 'no-store' })

      const grantType = field('grant_type')
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + grantType)
      if (requestClientId !== clientId) return oauthError(401, 'invalid_client', 'The OAuth client was not found.')
      // As Google: the client's secret too (this install's own, decision 0073), whatever the grant.
      if (!sameSecret(requestClientSecret, clientSecret)) return oauthError(401, 'invalid_client', 'Unauthorized')
      const noStore = { 'Cache-Control': 'no-store', Pragma: 'no-cache' }

      if (grantType === 'refresh_token') {
        // A revoked grant (or an unknown token) is what Google calls invalid_grant.
        const grant = await findLiveGrantByRefreshToken(db, field('refresh_token'))
        if (!grant || grant.clientId !== requestClientId) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.')
        const identity = customIdentity(grant.email, '')
        const accessToken = await signFakeGoogleToken(db, {
          issuer,
          audience: grant.clientId,
          subject: grant.subject,
          now: clock(),
          claims: { token_use: 'access', scope: grant.scope, gid: grant.id, ...profileClaims(identity, grant.subject) },
        })
        return c.json({ access_token: accessToken, token_type: 'Bearer', expires_in: FAKE_TOKEN_LIFETIME_SECONDS, scope: grant.scope }, 200, noStore)
      }

      // Claim the code atomically: a code is good for exactly one exchange.
      const [grant] = await db
        .update(fakeGoogleCodes)
        .set({ usedAt: new Date(clock()) })
        .where(and(eq(fakeGoogleCodes.code, field('code')), isNull(fakeGoogleCodes.usedAt)))
        .returning()
      if (!grant || grant.clientId !== requestClientId) return oauthError(400, 'invalid_grant', 'Malformed auth code.')
      if (grant.expiresAt.getTime() < clock()) return oauthError(400, 'invalid_grant', 'Auth code expired.')
      if (grant.redirectUri !== field('redirect_uri')) return oauthError(400, 'redirect_uri_mismatch', 'Bad Request')

      const identity = customIdentity(grant.email, grant.name)
      const now = clock()
      const sign = (claims: Record<string, unknown>) => signFakeGoogleToken(db, { issuer, audience: grant.clientId, subject: grant.subject, now, claims })
      // Offline access: a grant with a refresh token, named by the access tokens minted from it.
      const offline =
        grant.accessType === 'offline' ? await createFakeGrant(db, { subject: grant.subject, email: grant.email, clientId: grant.clientId, scope: grant.scope, now }) : undefined

      const profile = profileClaims(identity, grant.subject)
      // The access token carries the profile, so /userinfo needs no lookup.
      const accessToken = await sign({ token_use: 'access', scope: grant.scope, ...profile, ...(offline && { gid: offline.grant.id }) })
      const idToken = await sign({ azp: grant.clientId, ...profile, ...(grant.nonce && { nonce: grant.nonce }) })
      return c.json(
        {
          access_token: accessToken,
          id_token: idToken,
          token_type: 'Bearer',
          expires_in: FAKE_TOKEN_LIFETIME_SECONDS,
          scope: grant.scope,
          ...(offline && { refresh_token: offline.refreshToken }),
        },
        200,
        noStore,
      )
    },
  })

  // Google's revocation endpoint: the token in the query (as google-auth-library sends it) or the form.
  api.endpoint('/fake-google/revoke', {
    POST: async (c) => {
      const form = await readFields(c.req.raw)
      const token = c.req.query('token') ?? stringField(form, 'token') ?? ''
      if (!(await revokeFakeToken(db, { issuer, token, now: clock() }))) {
        return c.json({ error: 'invalid_token', error_description: 'Token expired or revoked' }, 400, { 'Cache-Control': 'no-store' })
      }
      return c.json({}, 200, { 'Cache-Control': 'no-store' })
    },
  })

  api.endpoint('/fake-google/userinfo', {
    GET: async (c) => {
      const unauthorized = () =>
        c.json({ error: 'invalid_request', error_description: 'Invalid Credentials' }, 401, {
          'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
        })
      const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
      if (!token) return unauthorized()
      const payload = await verifyFakeAccessToken(db, { issuer, token, now: clock() })
      if (!payload) return unauthorized()
      const { sub, email, email_verified, name, given_name, family_name, picture, locale } = payload
      return c.json({ sub, email, email_verified, name, given_name, family_name, picture, locale })
    },
  })

  api.endpoint('/fake-google/avatar/:file{[A-Z]{1,2}\\.svg}', {
    GET: (c) => {
      const initials = pathParam(c, 'file').replace('.svg', '')
      const hue = [...initials].reduce((sum, char) => sum + char.charCodeAt(0) * 37, 0) % 360
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${initials}"><rect width="96" height="96" rx="48" fill="hsl(${hue} 55% 42%)"/><text x="48" y="60" font-family="system-ui, sans-serif" font-size="36" text-anchor="middle" fill="#fff">${initials}</text></svg>`
      return c.body(svg, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" })
    },
  })

  function profileClaims(identity: FakeGoogleIdentity, subject: string) {
    return {
      sub: subject,
      email: identity.email,
      email_verified: true,
      name: identity.name,
      given_name: identity.givenName,
      family_name: identity.familyName,
      picture: `${base}/avatar/${initialsOf(identity.name)}.svg`,
      locale: 'pt-BR',
    }
  }
}

/** A text field of a body read by http/body.ts (which refuses NULs, too many fields and, with app.ts, oversized bodies). */
function stringField(fields: Record<string, unknown>, name: string): string | undefined {
  const value = fields[name]
  return typeof value === 'string' ? value : undefined
}

function authorizeRequest(read: (name: string) => string | undefined): AuthorizeRequest {
  return {
    clientId: read('client_id') ?? '',
    redirectUri: read('redirect_uri') ?? '',
    responseType: read('response_type') ?? '',
    scope: read('scope') ?? '',
    state: read('state') ?? '',
    nonce: read('nonce') ?? '',
    accessType: read('access_type') ?? '',
    loginHint: read('login_hint') ?? '',
  }
}

const asksForCalendar = (request: AuthorizeRequest) => request.scope.split(/\s+/).includes(CALENDAR_SCOPE)

const isEmailAddress = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) && value.length <= 254

/** The account picked from the list (a demo account, or the one the consent page was hinted), or typed in. */
function chosenIdentity(account: string | undefined, email: string | undefined, name: string | undefined): FakeGoogleIdentity | undefined {
  if (account) return FAKE_GOOGLE_IDENTITIES.find((identity) => identity.email === account) ?? (isEmailAddress(account) ? customIdentity(account, '') : undefined)
  const typed = email?.trim() ?? ''
  if (!isEmailAddress(typed)) return undefined
  return customIdentity(typed, (name ?? '').slice(0, 150))
}

/** Compared in constant time: how long a refusal takes says nothing of how much of a guess was right. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** client_secret_basic: the client id and secret, each percent-encoded (RFC 6749 2.3.1). */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1]
  if (!encoded) return undefined
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon === -1) return undefined
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) }
  } catch {
    // A malformed percent-escape: no credentials, as for any other unreadable header.
    return undefined
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

function hiddenFields(request: AuthorizeRequest): string {
  const fields: [string, string][] = [
    ['client_id', request.clientId],
    ['redirect_uri', request.redirectUri],
    ['response_type', request.responseType],
    ['scope', request.scope],
    ['state', request.state],
    ['nonce', request.nonce],
    ['access_type', request.accessType],
    ['login_hint', request.loginHint],
  ]
  return fields.map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`).join('')
}

const CHOOSER_STYLES = `
  main { max-width: 28rem; border: 1px solid GrayText; border-radius: 1rem; padding: 2rem; }
  ul { list-style: none; padding: 0; margin: 1.5rem 0; display: grid; gap: 0.75rem; }
  li button { width: 100%; text-align: left; }
  fieldset { border: 1px solid GrayText; border-radius: 0.5rem; margin: 1.5rem 0; display: grid; gap: 0.5rem; }
  input[type=text], input[type=email] { font: inherit; padding: 0.5rem; }
  .notice { font-size: 0.9rem; }
  [role=alert] { border-left: 4px solid #b3261e; padding-left: 0.75rem; }`

function renderChooser(request: AuthorizeRequest, error?: string): string {
  const hidden = hiddenFields(request)
  const accounts = FAKE_GOOGLE_IDENTITIES.map(
    (identity) => `<li><form method="post" action="authorize">${hidden}<input type="hidden" name="account" value="${escapeHtml(identity.email)}"><button type="submit">${escapeHtml(identity.name)} (${escapeHtml(identity.email)})</button></form></li>`,
  ).join('\n')
  const body = `<main>
  <h1>Choose an account</h1>
  <p>to continue to Innera</p>
  <p class="notice">This is the provider's built-in stand-in for Google sign-in, for development and tests. No real Google account is involved.</p>
  ${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
  <ul aria-label="Accounts">
${accounts}
  </ul>
  <form method="post" action="authorize">
    ${hidden}
    <fieldset>
      <legend>Use another account</legend>
      <label for="other-name">Name (optional)</label>
      <input id="other-name" name="name" type="text" autocomplete="name">
      <label for="other-email">E-mail</label>
      <input id="other-email" name="email" type="email" autocomplete="email" required>
      <button type="submit">Continue</button>
    </fieldset>
  </form>
  <form method="post" action="authorize">
    ${hidden}
    <button type="submit" name="decision" value="cancel">Cancel</button>
  </form>
</main>`
  return htmlDocument({ title: 'Sign in - Google Accounts (fake)', body, styles: CHOOSER_STYLES })
}

function renderErrorPage(message: string): string {
  return htmlDocument({
    title: 'Error - Google Accounts (fake)',
    body: `<main><h1>Access blocked: authorization error</h1><p role="alert">${escapeHtml(message)}</p></main>`,
    styles: CHOOSER_STYLES,
  })
}
