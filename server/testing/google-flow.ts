import type { ProviderApp } from '#server/app.ts'
import { CALENDAR_SCOPE } from '#server/google/calendar-api.ts'
import { PUBLIC_URL } from '#server/testing/harness.ts'

/** The fake Google's base, as the test configuration points at it. */
export const FAKE_GOOGLE = `${PUBLIC_URL}/fake-google`
export const TEST_CLIENT_ID = 'innera-dev-client'

/**
 * Plays the browser on the fake Google's consent screen: opens the authorization URL (it must
 * answer the page), then posts the decision with everything the URL carried. Returns where
 * Google sends the browser back (the redirect URI with code or error, and the state).
 */
export async function answerConsent(app: ProviderApp, authorizationUrl: string, { decision = 'allow', account }: { decision?: 'allow' | 'deny'; account?: string } = {}): Promise<URL> {
  const url = new URL(authorizationUrl)
  const page = await app.request(url.href)
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}`)
  // The checked account unless another is chosen: the hinted one, else the first demo account.
  const chosen = account ?? url.searchParams.get('login_hint') ?? 'ana.souza@gmail.test'
  const fields = new URLSearchParams({ ...Object.fromEntries(url.searchParams), decision, account: chosen })
  const response = await app.request(`${FAKE_GOOGLE}/authorize`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields })
  if (response.status !== 302) throw new Error(`consent answered ${response.status}: ${await response.text()}`)
  return new URL(response.headers.get('location')!)
}

/** A calendar authorization URL as the provider builds it, without the provider: for tests of the fake alone. */
export function calendarAuthorizationUrl({ redirectUri, state = 'state-for-the-fake-0001', loginHint }: { redirectUri: string; state?: string; loginHint?: string }): string {
  const query = new URLSearchParams({
    client_id: TEST_CLIENT_ID,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: CALENDAR_SCOPE,
    access_type: 'offline',
    prompt: 'consent',
    state,
    ...(loginHint && { login_hint: loginHint }),
  })
  return `${FAKE_GOOGLE}/authorize?${query}`
}

/** Posts a form to the fake's token endpoint. */
export async function tokenRequest(app: ProviderApp, fields: Record<string, string>): Promise<Response> {
  return app.request(`${FAKE_GOOGLE}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // The client's secret as the provider's configuration holds it: the fake's own (decision 0073).
    body: new URLSearchParams({ client_id: TEST_CLIENT_ID, client_secret: app.services.config.google.clientSecret!, ...fields }),
  })
}

/** Consent and code exchange for an account's calendar: the fake's token answer (access and refresh tokens). */
export async function fakeCalendarTokens(app: ProviderApp, email: string): Promise<{ access_token: string; refresh_token: string }> {
  const redirectUri = 'http://app.test/test-callback'
  const back = await answerConsent(app, calendarAuthorizationUrl({ redirectUri, loginHint: email }))
  const response = await tokenRequest(app, { grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: redirectUri })
  if (response.status !== 200) throw new Error(`code exchange answered ${response.status}`)
  return response.json() as Promise<{ access_token: string; refresh_token: string }>
}
