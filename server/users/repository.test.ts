import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newSessionId } from '#server/auth/sessions.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { authSessions } from '#server/db/schema.ts'
import { createMemoryDatabase } from '#server/testing/harness.ts'
import { findSessionUserWithGroups } from '#server/auth/session-users.ts'
import { findUserByEmail, groupNamesOf, setUserGroups } from '#server/users/repository.ts'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createMemoryDatabase()
})
afterAll(() => database.close())

const NOW = Date.UTC(2025, 2, 18, 12, 0, 0)
const HOUR = 3600 * 1000

/** Stores a session for the user (live for an hour from NOW unless told otherwise) and returns its id. */
async function sessionFor(userId: number, { expiresAt = NOW + HOUR, revokedAt }: { expiresAt?: number; revokedAt?: number } = {}) {
  const id = newSessionId()
  await database.db.insert(authSessions).values({
    id,
    userId,
    createdAt: new Date(NOW - HOUR),
    expiresAt: new Date(expiresAt),
    revokedAt: revokedAt === undefined ? null : new Date(revokedAt),
  })
  return id
}

describe('findSessionUserWithGroups', () => {
  it('reads a user and their groups in group order, as groupNamesOf does', async () => {
    const { db } = database
    const paula = (await findUserByEmail(db, 'profissional@innera.local'))!
    await setUserGroups(db, paula.id, ['paciente', 'profissional'])
    const sessionId = await sessionFor(paula.id)
    const found = await findSessionUserWithGroups(db, { userId: paula.id, sessionId, now: NOW })
    expect(found?.user.email).toBe('profissional@innera.local')
    expect(found?.groups).toEqual(['profissional', 'paciente'])
    expect(found?.groups).toEqual(await groupNamesOf(db, paula.id))
  })

  it('gives a user without groups an empty list, and nothing for an unknown user or session', async () => {
    const { db } = database
    const pedro = (await findUserByEmail(db, 'paciente@innera.local'))!
    await setUserGroups(db, pedro.id, [])
    const sessionId = await sessionFor(pedro.id)
    expect((await findSessionUserWithGroups(db, { userId: pedro.id, sessionId, now: NOW }))?.groups).toEqual([])
    expect(await findSessionUserWithGroups(db, { userId: 999_999, sessionId, now: NOW })).toBeUndefined()
    expect(await findSessionUserWithGroups(db, { userId: pedro.id, sessionId: newSessionId(), now: NOW })).toBeUndefined()
  })

  it('gives nothing for a session that is revoked, expired or another user\'s', async () => {
    const { db } = database
    const paula = (await findUserByEmail(db, 'profissional@innera.local'))!
    const pedro = (await findUserByEmail(db, 'paciente@innera.local'))!
    const revoked = await sessionFor(paula.id, { revokedAt: NOW - 1 })
    const expired = await sessionFor(paula.id, { expiresAt: NOW })
    const pedros = await sessionFor(pedro.id)
    expect(await findSessionUserWithGroups(db, { userId: paula.id, sessionId: revoked, now: NOW })).toBeUndefined()
    expect(await findSessionUserWithGroups(db, { userId: paula.id, sessionId: expired, now: NOW })).toBeUndefined()
    expect(await findSessionUserWithGroups(db, { userId: paula.id, sessionId: pedros, now: NOW })).toBeUndefined()
  })
})
