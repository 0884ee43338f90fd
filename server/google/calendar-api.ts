import { calendar, type calendar_v3 } from '@googleapis/calendar'
import { OAuth2Client, type Credentials } from 'google-auth-library'
import type { ProviderConfig } from '#server/config.ts'

/**
 * The provider's only way to Google for the calendar: Google's own client libraries
 * (google-auth-library for OAuth, @googleapis/calendar for Calendar v3) pointed at the
 * configured URLs, which are the fake Google's while FAKE_GOOGLE is on. Every request goes
 * through `fetch` (app.ts serves the provider's own public URL in-process), with no retries and
 * a timeout: a slow Google must not hold a request for long, and a failed call is answered or
 * logged by the caller rather than repeated here.
 */

/** Read and write access to the user's calendars (events, free/busy, the primary calendar). */
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar'
const REQUEST_TIMEOUT_MS = 15_000

export type GoogleEvent = calendar_v3.Schema$Event

export type GoogleTokens = {
  accessToken?: string | null
  refreshToken?: string | null
  /** When the access token expires, as the library counts it (ms since the epoch). */
  expiresAt?: number | null
  scope?: string | null
}

type EventListQuery = {
  calendarId: string
  syncToken?: string
  pageToken?: string
  timeMin?: string
  timeMax?: string
  showDeleted?: boolean
  maxResults: number
}

export type EventPage = { items: GoogleEvent[]; nextPageToken?: string; nextSyncToken?: string }

/** Calls on one connected calendar, authorised by its tokens. */
export type GoogleCalendarSession = {
  primaryCalendar(): Promise<{ id: string; timeZone: string | undefined }>
  listEvents(query: EventListQuery): Promise<EventPage>
  insertEvent(calendarId: string, event: GoogleEvent): Promise<GoogleEvent>
  patchEvent(calendarId: string, eventId: string, event: GoogleEvent): Promise<GoogleEvent>
  deleteEvent(calendarId: string, eventId: string): Promise<void>
  busyIntervals(calendarId: string, timeMin: string, timeMax: string): Promise<{ start: string; end: string }[]>
}

export type GoogleCalendarApi = {
  authorizationUrl(input: { redirectUri: string; state: string; loginHint?: string }): string
  exchangeCode(code: string, redirectUri: string): Promise<GoogleTokens>
  revoke(token: string): Promise<void>
  /** `onTokens` hears of every token Google hands out meanwhile (a refreshed access token). */
  session(tokens: GoogleTokens, onTokens: (tokens: GoogleTokens) => void): GoogleCalendarSession
}

/** What went wrong at Google, without the request (its headers carry the tokens). */
type GoogleFailure =
  /** The grant was revoked or expired (or the code was bad or used): the user must consent again. */
  | 'invalid_grant'
  /** 410 fullSyncRequired: the sync token is no longer valid. */
  | 'full_sync_required'
  | 'not_found'
  /** 410 on an event: it was deleted. */
  | 'gone'
  | 'other'

export class GoogleApiError extends Error {
  constructor(
    readonly failure: GoogleFailure,
    readonly status: number | undefined,
    readonly reason: string | undefined,
  ) {
    super(`Google ${failure}${status ? ` (HTTP ${status}${reason ? `, ${reason}` : ''})` : ''}`)
    this.name = 'GoogleApiError'
  }
}

/** A gaxios error (or anything else thrown on the way) as a GoogleApiError. */
export function toGoogleApiError(error: unknown): GoogleApiError {
  if (error instanceof GoogleApiError) return error
  const response = (error as { response?: { status?: unknown; data?: unknown } } | null)?.response
  const status = typeof response?.status === 'number' ? response.status : undefined
  const data = response?.data as { error?: unknown } | undefined
  // The token endpoint answers {"error": "invalid_grant"}; the Calendar API {"error": {"errors": [{"reason"}]}}.
  if (data && data.error === 'invalid_grant') return new GoogleApiError('invalid_grant', status, 'invalid_grant')
  const apiError = data && typeof data.error === 'object' && data.error !== null ? (data.error as { errors?: { reason?: unknown }[]; status?: unknown }) : undefined
  const first = apiError?.errors?.[0]?.reason
  const reason = typeof first === 'string' ? first : typeof data?.error === 'string' ? data.error : undefined
  if (status === 410 && reason === 'fullSyncRequired') return new GoogleApiError('full_sync_required', status, reason)
  if (status === 410) return new GoogleApiError('gone', status, reason)
  if (status === 404) return new GoogleApiError('not_found', status, reason)
  return new GoogleApiError('other', status, reason ?? (status === undefined ? 'no response' : undefined))
}

async function google<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw toGoogleApiError(error)
  }
}

const fromCredentials = (credentials: Credentials): GoogleTokens => ({
  accessToken: credentials.access_token,
  refreshToken: credentials.refresh_token,
  expiresAt: credentials.expiry_date,
  scope: credentials.scope,
})

export function createGoogleCalendarApi(config: ProviderConfig, fetchImplementation: typeof fetch): GoogleCalendarApi {
  const { google: settings } = config
  const requestOptions = { fetchImplementation, timeout: REQUEST_TIMEOUT_MS, retry: false }

  const oauthClient = () =>
    new OAuth2Client({
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      endpoints: { oauth2AuthBaseUrl: settings.authorizationUrl, oauth2TokenUrl: settings.tokenUrl, oauth2RevokeUrl: settings.revokeUrl },
      transporterOptions: requestOptions,
      // A refused access token (revoked, or expired by Google's clock) is refreshed once and the call retried.
      forceRefreshOnFailure: true,
    })

  // Passed with every call: given to the client as a whole, the root URL's path would be dropped.
  const call = { ...requestOptions, rootUrl: `${settings.calendarApiUrl}/` }

  return {
    authorizationUrl({ redirectUri, state, loginHint }) {
      return oauthClient().generateAuthUrl({
        access_type: 'offline',
        // Consent every time: Google sends a refresh token only on consent.
        prompt: 'consent',
        scope: [CALENDAR_SCOPE],
        include_granted_scopes: true,
        redirect_uri: redirectUri,
        state,
        ...(loginHint && { login_hint: loginHint }),
      })
    },

    exchangeCode: (code, redirectUri) => google(async () => fromCredentials((await oauthClient().getToken({ code, redirect_uri: redirectUri })).tokens)),

    revoke: (token) =>
      google(async () => {
        await oauthClient().revokeToken(token)
      }),

    session(tokens, onTokens) {
      const auth = oauthClient()
      auth.setCredentials({
        access_token: tokens.accessToken ?? undefined,
        refresh_token: tokens.refreshToken ?? undefined,
        expiry_date: tokens.expiresAt ?? undefined,
      })
      auth.on('tokens', (credentials) => onTokens(fromCredentials(credentials)))
      // @googleapis/calendar types its `auth` with its own pinned copy of google-auth-library; at
      // run time it only calls the client's request(), which this version has.
      const api = calendar({ version: 'v3', auth: auth as unknown as calendar_v3.Options['auth'] })

      return {
        primaryCalendar: () =>
          google(async () => {
            const { data } = await api.calendars.get({ calendarId: 'primary' }, call)
            return { id: data.id ?? 'primary', timeZone: data.timeZone ?? undefined }
          }),
        listEvents: (query) =>
          google(async () => {
            const { data } = await api.events.list({ ...query, singleEvents: true }, call)
            return { items: data.items ?? [], nextPageToken: data.nextPageToken ?? undefined, nextSyncToken: data.nextSyncToken ?? undefined }
          }),
        insertEvent: (calendarId, event) => google(async () => (await api.events.insert({ calendarId, requestBody: event, sendUpdates: 'none' }, call)).data),
        patchEvent: (calendarId, eventId, event) =>
          google(async () => (await api.events.patch({ calendarId, eventId, requestBody: event, sendUpdates: 'none' }, call)).data),
        deleteEvent: (calendarId, eventId) =>
          google(async () => {
            await api.events.delete({ calendarId, eventId, sendUpdates: 'none' }, call)
          }),
        busyIntervals: (calendarId, timeMin, timeMax) =>
          google(async () => {
            const { data } = await api.freebusy.query({ requestBody: { timeMin, timeMax, items: [{ id: calendarId }] } }, call)
            const entry = data.calendars?.[calendarId]
            if (!entry || (entry.errors?.length ?? 0) > 0) throw new GoogleApiError('other', undefined, entry?.errors?.[0]?.reason ?? 'calendar missing from freeBusy')
            return (entry.busy ?? []).flatMap((period) => (period.start && period.end ? [{ start: period.start, end: period.end }] : []))
          }),
      }
    },
  }
}
