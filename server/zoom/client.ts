import type { Clock } from '#server/clock.ts'
import type { ProviderConfig } from '#server/config.ts'

/**
 * Zoom's REST API through a server-to-server OAuth app (decision 0058): an account token
 * (`grant_type=account_credentials`), kept until a minute before it expires, and the meetings the
 * live classes are held in. Every call has a timeout; a 401 drops the token and tries once more.
 */

/** Zoom did not answer, or not as expected: the meeting cannot be made or read now. */
export class ZoomUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ZoomUnavailableError'
  }
}

type ZoomMeeting = { id: string; joinUrl: string; startUrl: string }

export type ZoomClient = {
  /** Whether a Zoom app (or the fake) is configured: without one every call fails, so nothing is tried ahead. */
  configured: boolean
  createMeeting(meeting: { topic: string; startsAt: Date; durationMinutes: number; timeZone: string }): Promise<ZoomMeeting>
  /** A meeting's new start and length (PATCH /meetings/{id}); a meeting Zoom no longer has is nothing to change. */
  updateMeeting(id: string, meeting: { startsAt: Date; durationMinutes: number; timeZone: string }): Promise<void>
  deleteMeeting(id: string): Promise<void>
}

const TIMEOUT_MS = 10_000
const REFRESH_MARGIN_MS = 60_000

export function createZoomClient(zoom: NonNullable<ProviderConfig['zoom']> | undefined, { fetch, clock }: { fetch: typeof globalThis.fetch; clock: Clock }): ZoomClient {
  let cached: { token: string; expiresAt: number } | undefined
  let pending: Promise<string> | undefined

  async function fetchToken(): Promise<string> {
    if (!zoom) throw new ZoomUnavailableError('Zoom is not configured (ZOOM_* or FAKE_ZOOM).')
    const url = `${zoom.oauthUrl}?grant_type=account_credentials&account_id=${encodeURIComponent(zoom.accountId)}`
    const basic = Buffer.from(`${zoom.clientId}:${zoom.clientSecret}`).toString('base64')
    const response = await call(url, { method: 'POST', headers: { authorization: `Basic ${basic}` } })
    const body = (await response.json().catch(() => undefined)) as { access_token?: unknown; expires_in?: unknown } | undefined
    if (!response.ok || typeof body?.access_token !== 'string') throw new ZoomUnavailableError(`Zoom's token endpoint answered ${response.status}`)
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 3_600_000
    cached = { token: body.access_token, expiresAt: clock() + lifetime - REFRESH_MARGIN_MS }
    return body.access_token
  }

  async function token(): Promise<string> {
    if (cached && cached.expiresAt > clock()) return cached.token
    // One token request at a time: concurrent callers share it.
    pending ??= fetchToken().finally(() => (pending = undefined))
    return pending
  }

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })
    } catch (error) {
      throw new ZoomUnavailableError(`Zoom did not answer: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  async function api(method: string, path: string, body?: unknown): Promise<Response> {
    if (!zoom) throw new ZoomUnavailableError('Zoom is not configured (ZOOM_* or FAKE_ZOOM).')
    for (let attempt = 0; ; attempt++) {
      const response = await call(`${zoom.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (response.status !== 401 || attempt > 0) return response
      cached = undefined
    }
  }

  return {
    configured: zoom !== undefined,
    async createMeeting({ topic, startsAt, durationMinutes, timeZone }) {
      const response = await api('POST', '/users/me/meetings', {
        topic: topic.slice(0, 200),
        type: 2,
        start_time: startsAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        duration: durationMinutes,
        timezone: timeZone,
        settings: { join_before_host: false, waiting_room: false, mute_upon_entry: true, host_video: true, participant_video: false, approval_type: 2 },
      })
      const meeting = (await response.json().catch(() => undefined)) as { id?: unknown; join_url?: unknown; start_url?: unknown } | undefined
      if (response.status !== 201 || (typeof meeting?.id !== 'number' && typeof meeting?.id !== 'string') || typeof meeting.join_url !== 'string' || typeof meeting.start_url !== 'string') {
        throw new ZoomUnavailableError(`Zoom answered ${response.status} to a new meeting`)
      }
      return { id: String(meeting.id), joinUrl: meeting.join_url, startUrl: meeting.start_url }
    },
    async updateMeeting(id, { startsAt, durationMinutes, timeZone }) {
      const response = await api('PATCH', `/meetings/${encodeURIComponent(id)}`, { start_time: startsAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), duration: durationMinutes, timezone: timeZone })
      if (response.status !== 204 && response.status !== 404) throw new ZoomUnavailableError(`Zoom answered ${response.status} to changing a meeting`)
    },
    async deleteMeeting(id) {
      const response = await api('DELETE', `/meetings/${encodeURIComponent(id)}`)
      if (response.status !== 204 && response.status !== 404) throw new ZoomUnavailableError(`Zoom answered ${response.status} to deleting a meeting`)
    },
  }
}
