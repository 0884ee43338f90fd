import { z } from 'zod'
import { pathParam, type Api, type AppContext } from '#server/http/api.ts'
import { escapeHtml, HTML_PAGE_HEADERS, htmlDocument } from '#server/http/html.ts'
import type { Services } from '#server/services.ts'
import {
  createFakeMeeting,
  deleteFakeMeeting,
  FAKE_ZOOM_SCOPE,
  FAKE_ZOOM_TOKEN_SECONDS,
  findFakeMeeting,
  issueFakeZoomToken,
  presentFakeMeeting,
  updateFakeMeeting,
  verifyFakeZoomToken,
} from '#server/fakes/zoom/store.ts'

const NO_STORE = { 'Cache-Control': 'no-store' }
const BASE = '/fake-zoom'

/** A Zoom API error: Zoom's `{code, message}` body. */
class ZoomApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: { field: string; message: string }[],
  ) {
    super(message)
  }
}

const zoomStyle =
  (handler: (c: AppContext) => Promise<Response>) =>
  async (c: AppContext): Promise<Response> => {
    try {
      return await handler(c)
    } catch (error) {
      if (error instanceof ZoomApiError) return c.json({ code: error.code, message: error.message, ...(error.errors && { errors: error.errors }) }, error.status as 400, NO_STORE)
      throw error
    }
  }

const meetingBody = z.object({
  topic: z.string().max(200).optional(),
  type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(8)]).optional(),
  start_time: z.string().optional(),
  duration: z.number().int().min(1).max(1440).optional(),
  timezone: z.string().max(64).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
})

/**
 * The fake Zoom (only with FAKE_ZOOM; decision 0058), speaking the parts of Zoom's API the live
 * classes use: the server-to-server OAuth token (`POST /fake-zoom/oauth/token`,
 * grant_type=account_credentials, HTTP Basic client id and secret), and under `/fake-zoom/v2/`
 * creating, reading and deleting meetings, with Zoom's shapes and error bodies. A meeting's
 * join_url and start_url open a small page here that says which meeting it is.
 */
export function registerFakeZoomRoutes(api: Api, services: Services): void {
  const { db, clock, config } = services
  const zoom = config.zoom!
  const secret = config.jwtSecret
  const publicBase = `${config.providerPublicUrl}${BASE}`

  api.endpoint(`${BASE}/oauth/token`, {
    POST: async (c) => {
      const [scheme, encoded] = (c.req.header('authorization') ?? '').split(' ')
      const [clientId, clientSecret] = scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8').split(':') : []
      if (clientId !== zoom.clientId || clientSecret !== zoom.clientSecret) return c.json({ reason: 'Invalid client_id or client_secret', error: 'invalid_client' }, 400, NO_STORE)
      if (c.req.query('grant_type') !== 'account_credentials') return c.json({ reason: 'Unsupported grant type', error: 'unsupported_grant_type' }, 400, NO_STORE)
      const accountId = c.req.query('account_id')
      if (accountId !== zoom.accountId) return c.json({ reason: 'Invalid account_id', error: 'invalid_request' }, 400, NO_STORE)
      return c.json({ access_token: issueFakeZoomToken(secret, accountId, clock()), token_type: 'bearer', expires_in: FAKE_ZOOM_TOKEN_SECONDS, scope: FAKE_ZOOM_SCOPE, api_url: 'https://api.zoom.us' }, 200, NO_STORE)
    },
  })

  /** The account behind the Bearer token. */
  function account(c: AppContext): string {
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const accountId = token ? verifyFakeZoomToken(secret, token, clock()) : undefined
    if (!accountId) throw new ZoomApiError(401, 124, 'Invalid access token.')
    return accountId
  }

  async function ownMeeting(c: AppContext, accountId: string) {
    const raw = pathParam(c, 'meetingId')
    const meeting = /^\d{1,15}$/.test(raw) ? await findFakeMeeting(db, Number(raw)) : undefined
    if (!meeting || meeting.accountId !== accountId) throw new ZoomApiError(404, 3001, `Meeting does not exist: ${raw.slice(0, 20)}.`)
    return meeting
  }

  api.endpoint(`${BASE}/v2/users/:userId/meetings`, {
    POST: zoomStyle(async (c) => {
      const accountId = account(c)
      if (pathParam(c, 'userId') !== 'me') throw new ZoomApiError(404, 1001, 'User does not exist: ' + pathParam(c, 'userId').slice(0, 40) + '.')
      let body: unknown
      try {
        body = await c.req.json()
      } catch {
        throw new ZoomApiError(400, 300, 'Request Body should be a valid JSON object.')
      }
      const parsed = meetingBody.safeParse(body)
      if (!parsed.success) throw new ZoomApiError(400, 300, 'Validation Failed.', parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })))
      const start = parsed.data.start_time === undefined ? null : Date.parse(parsed.data.start_time)
      if (start !== null && Number.isNaN(start)) throw new ZoomApiError(400, 300, 'Validation Failed.', [{ field: 'start_time', message: 'Invalid field.' }])
      const meeting = await createFakeMeeting(
        db,
        {
          accountId,
          topic: parsed.data.topic || 'Zoom Meeting',
          startTime: start === null ? null : new Date(start),
          duration: parsed.data.duration ?? 60,
          timezone: parsed.data.timezone || 'UTC',
          settings: parsed.data.settings ?? {},
        },
        clock(),
      )
      return c.json(presentFakeMeeting(meeting, publicBase), 201, NO_STORE)
    }),
  })

  api.endpoint(`${BASE}/v2/meetings/:meetingId`, {
    GET: zoomStyle(async (c) => c.json(presentFakeMeeting(await ownMeeting(c, account(c)), publicBase), 200, NO_STORE)),
    // Zoom's "Update a meeting": the fields given change, 204 without a body.
    PATCH: zoomStyle(async (c) => {
      const meeting = await ownMeeting(c, account(c))
      const parsed = meetingBody.safeParse(await c.req.json().catch(() => undefined))
      if (!parsed.success) throw new ZoomApiError(400, 300, 'Validation Failed.', parsed.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message })))
      const start = parsed.data.start_time === undefined ? undefined : Date.parse(parsed.data.start_time)
      if (start !== undefined && Number.isNaN(start)) throw new ZoomApiError(400, 300, 'Validation Failed.', [{ field: 'start_time', message: 'Invalid field.' }])
      await updateFakeMeeting(db, meeting.id, {
        ...(parsed.data.topic !== undefined && { topic: parsed.data.topic }),
        ...(start !== undefined && { startTime: new Date(start) }),
        ...(parsed.data.duration !== undefined && { duration: parsed.data.duration }),
        ...(parsed.data.timezone !== undefined && { timezone: parsed.data.timezone }),
        ...(parsed.data.settings !== undefined && { settings: { ...meeting.settings, ...parsed.data.settings } }),
      })
      return c.body(null, 204)
    }),
    DELETE: zoomStyle(async (c) => {
      const meeting = await ownMeeting(c, account(c))
      await deleteFakeMeeting(db, meeting.id)
      return c.body(null, 204)
    }),
  })

  /** The page a join_url (j) or start_url (s) opens: which meeting it is, as the host or a participant. */
  const meetingPage = (role: 'participant' | 'host') => async (c: AppContext) => {
    const raw = pathParam(c, 'meetingId')
    const meeting = /^\d{1,15}$/.test(raw) ? await findFakeMeeting(db, Number(raw)) : undefined
    const proof = role === 'host' ? c.req.query('zak') : c.req.query('pwd')
    const valid = meeting !== undefined && proof === (role === 'host' ? meeting.zak : meeting.password)
    const body = valid
      ? `<h1>${escapeHtml(meeting.topic)}</h1>
<p>Fake Zoom meeting <strong data-meeting-id="${meeting.id}">${meeting.id}</strong>, joined as the <strong data-role="${role}">${role}</strong>.</p>
<p>Starts ${escapeHtml(meeting.startTime?.toISOString() ?? 'now')}, ${meeting.duration} minutes (${escapeHtml(meeting.timezone)}).</p>
<p>This is the development stand-in for Zoom: nobody is really here.</p>`
      : '<h1>This meeting link is invalid</h1><p>The meeting does not exist, or the link is not its own.</p>'
    return c.html(htmlDocument({ title: valid ? `Fake Zoom: ${meeting.topic}` : 'Fake Zoom', body }), valid ? 200 : 404, { ...HTML_PAGE_HEADERS, ...NO_STORE })
  }

  api.endpoint(`${BASE}/j/:meetingId`, { GET: meetingPage('participant') })
  api.endpoint(`${BASE}/s/:meetingId`, { GET: meetingPage('host') })
}
