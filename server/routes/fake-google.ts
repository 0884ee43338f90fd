import { randomBytes } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import { toSeconds } from '#server/clock.ts'
import { fakeGoogleCodes } from '#server/db/schema.ts'
import { fakeGoogleKey } from '#server/google/fake-google-keys.ts'
import { customIdentity, FAKE_GOOGLE_IDENTITIES, initialsOf, type FakeGoogleIdentity } from '#server/google/fake-identities.ts'
import { pathParam, type AppContext, type Api } from '#server/http/api.ts'
import { readFields } from '#server/http/body.ts'
import { escapeHtml, HTML_PAGE_HEADERS, htmlDocument } from '#server/http/html.ts'
import type { Services } from '#server/services.ts'

const CODE_LIFETIME_SECONDS = 5 * 60
const TOKEN_LIFETIME_SECONDS = 3599

type AuthorizeRequest = { clientId: string; redirectUri: string; responseType: string; scope: string; state: string; nonce: string }

/**
 * A stand-in for Google's OpenID Connect provider, for development and tests without network
 * access: discovery document, account chooser (authorization-code flow), token endpoint,
 * userinfo and JWKS. Mounted under /fake-google only when FAKE_GOOGLE is on.
 */
export function registerFakeGoogleRoutes(api: Api, services: Services): void {
  const { db, config, clock } = services
  const base = `${config.providerPublicUrl}/fake-google`
  const issuer = config.google.issuer
  const clientId = config.google.clientId

  api.endpoint('/fake-google/.well-known/openid-configuration', {
    GET: (c) =>
      c.json({
        issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        userinfo_endpoint: `${base}/userinfo`,
        jwks_uri: `${base}/certs`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'picture', 'sub'],
        grant_types_supported: ['authorization_code'],
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
      return c.body(renderChooser(request), 200, HTML_PAGE_HEADERS)
    },
    POST: async (c) => {
      const form = await readFields(c.req.raw)
      const field = (name: string) => stringField(form, name)
      const request = authorizeRequest(field)
      const problem = pageError(request)
      if (problem) return c.body(renderErrorPage(problem), 400, HTML_PAGE_HEADERS)
      if (field('decision') === 'cancel') return redirectWith(c, request, { error: 'access_denied' })

      const identity = chosenIdentity(field('account'), field('email'), field('name'))
      if (!identity) return c.body(renderChooser(request, 'Enter a valid e-mail address to continue.'), 400, HTML_PAGE_HEADERS)

      const code = `4/${randomBytes(32).toString('base64url')}`
      await db.insert(fakeGoogleCodes).values({
        code,
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scope: request.scope || 'openid email profile',
        nonce: request.nonce || null,
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
      const oauthError = (status: 400 | 401, error: string, description: string) =>
        c.json({ error, error_description: description }, status, { 'Cache-Control': 'no-store' })

      if (field('grant_type') !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', 'Invalid grant_type: ' + field('grant_type'))
      if (requestClientId !== clientId) return oauthError(401, 'invalid_client', 'The OAuth client was not found.')

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
      const key = await fakeGoogleKey(db)
      const now = toSeconds(clock())
      const sign = (claims: Record<string, unknown>) =>
        new SignJWT(claims)
          .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
          .setIssuer(issuer)
          .setAudience(grant.clientId)
          .setSubject(grant.subject)
          .setIssuedAt(now)
          .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
          .sign(key.privateKey)

      const profile = profileClaims(identity, grant.subject)
      // The access token carries the profile, so /userinfo needs no lookup.
      const accessToken = await sign({ token_use: 'access', scope: grant.scope, ...profile })
      const idToken = await sign({ azp: grant.clientId, ...profile, ...(grant.nonce && { nonce: grant.nonce }) })
      return c.json(
        { access_token: accessToken, id_token: idToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: grant.scope },
        200,
        { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
      )
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
      const key = await fakeGoogleKey(db)
      try {
        const { payload } = await jwtVerify(token, key.publicJwk, { issuer, algorithms: ['RS256'], currentDate: new Date(clock()) })
        if (payload.token_use !== 'access' || typeof payload.sub !== 'string') return unauthorized()
        const { sub, email, email_verified, name, given_name, family_name, picture, locale } = payload
        return c.json({ sub, email, email_verified, name, given_name, family_name, picture, locale })
      } catch {
        return unauthorized()
      }
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
  }
}

function chosenIdentity(account: string | undefined, email: string | undefined, name: string | undefined): FakeGoogleIdentity | undefined {
  if (account) return FAKE_GOOGLE_IDENTITIES.find((identity) => identity.email === account)
  const typed = email?.trim() ?? ''
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(typed) || typed.length > 254) return undefined
  return customIdentity(typed, (name ?? '').slice(0, 150))
}

function basicCredentials(header: string | undefined): { clientId: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(header ?? '')?.[1]
  if (!encoded) return undefined
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon === -1) return undefined
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)) }
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
