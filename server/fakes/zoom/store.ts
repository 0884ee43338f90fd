import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Database } from '#server/db/client.ts'
import { fakeZoomMeetings } from '#server/db/schema.ts'

/**
 * The fake Zoom's state (only with FAKE_ZOOM; decision 0058). Access tokens are signed, not
 * stored (any process checks them); meetings live in fake_zoom_meetings so every process sees them.
 */

export const FAKE_ZOOM_TOKEN_SECONDS = 3600
export const FAKE_ZOOM_SCOPE = 'meeting:write:meeting:admin meeting:read:meeting:admin meeting:delete:meeting:admin'

const tokenKey = (secret: string) => createHmac('sha256', secret).update('innera fake zoom tokens').digest()

/** An access token for the account, good for an hour from now. */
export function issueFakeZoomToken(secret: string, accountId: string, now: number): string {
  const payload = Buffer.from(JSON.stringify({ a: accountId, e: Math.floor(now / 1000) + FAKE_ZOOM_TOKEN_SECONDS, n: randomBytes(6).toString('hex') })).toString('base64url')
  return `fz.${payload}.${createHmac('sha256', tokenKey(secret)).update(payload).digest('base64url')}`
}

/** The account a token was issued to, or undefined when it is not one of ours or has expired. */
export function verifyFakeZoomToken(secret: string, token: string, now: number): string | undefined {
  const [prefix, payload, signature] = token.split('.')
  if (prefix !== 'fz' || !payload || !signature) return undefined
  const expected = Buffer.from(createHmac('sha256', tokenKey(secret)).update(payload).digest('base64url'))
  const given = Buffer.from(signature)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { a?: unknown; e?: unknown }
    if (typeof claims.a !== 'string' || typeof claims.e !== 'number' || claims.e * 1000 <= now) return undefined
    return claims.a
  } catch {
    return undefined
  }
}

type FakeZoomMeeting = typeof fakeZoomMeetings.$inferSelect

/** The account's host id, as Zoom shows one (22 URL-safe characters), stable for the account. */
const fakeHostId = (accountId: string) => createHmac('sha256', 'innera fake zoom host').update(accountId).digest('base64url').slice(0, 22)

export async function createFakeMeeting(
  db: Database,
  meeting: { accountId: string; topic: string; startTime: Date | null; duration: number; timezone: string; settings: Record<string, unknown> },
  now: number,
): Promise<FakeZoomMeeting> {
  // Zoom's meeting ids are 10 or 11 digits.
  const id = 80_000_000_000 + randomInt(0, 9_999_999_999)
  const [row] = await db
    .insert(fakeZoomMeetings)
    .values({
      id,
      uuid: `${randomBytes(16).toString('base64').slice(0, 22)}==`,
      ...meeting,
      password: randomInt(100000, 999999).toString(),
      zak: randomBytes(24).toString('base64url'),
      createdAt: new Date(now),
    })
    .returning()
  return row!
}

export async function findFakeMeeting(db: Database, id: number): Promise<FakeZoomMeeting | undefined> {
  const [row] = await db.select().from(fakeZoomMeetings).where(eq(fakeZoomMeetings.id, id))
  return row
}

export async function updateFakeMeeting(db: Database, id: number, changes: Partial<Pick<FakeZoomMeeting, 'topic' | 'startTime' | 'duration' | 'timezone' | 'settings'>>): Promise<void> {
  if (Object.keys(changes).length > 0) await db.update(fakeZoomMeetings).set(changes).where(eq(fakeZoomMeetings.id, id))
}

export async function deleteFakeMeeting(db: Database, id: number): Promise<boolean> {
  return (await db.delete(fakeZoomMeetings).where(eq(fakeZoomMeetings.id, id)).returning({ id: fakeZoomMeetings.id })).length > 0
}

/** Zoom's meeting object, as POST /users/me/meetings and GET /meetings/{id} answer it. */
export function presentFakeMeeting(meeting: FakeZoomMeeting, base: string) {
  return {
    id: meeting.id,
    uuid: meeting.uuid,
    host_id: fakeHostId(meeting.accountId),
    host_email: 'aulas@innera.local',
    topic: meeting.topic,
    type: 2,
    status: 'waiting',
    start_time: meeting.startTime ? meeting.startTime.toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined,
    duration: meeting.duration,
    timezone: meeting.timezone,
    created_at: meeting.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    join_url: `${base}/j/${meeting.id}?pwd=${meeting.password}`,
    start_url: `${base}/s/${meeting.id}?zak=${meeting.zak}`,
    password: meeting.password,
    settings: meeting.settings,
    pre_schedule: false,
  }
}
