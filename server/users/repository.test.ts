import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../db/client'
import { createMemoryDatabase } from '../testing/harness'
import { findUserByEmail, findUserWithGroups, groupNamesOf, setUserGroups } from './repository'

let database: DatabaseHandle
beforeAll(async () => {
  database = await createMemoryDatabase()
})
afterAll(() => database.close())

describe('findUserWithGroups', () => {
  it('reads a user and their groups in group order, as groupNamesOf does', async () => {
    const { db } = database
    const paula = (await findUserByEmail(db, 'profissional@innera.local'))!
    await setUserGroups(db, paula.id, ['paciente', 'profissional'])
    const found = await findUserWithGroups(db, paula.id)
    expect(found?.user.email).toBe('profissional@innera.local')
    expect(found?.groups).toEqual(['profissional', 'paciente'])
    expect(found?.groups).toEqual(await groupNamesOf(db, paula.id))
  })

  it('gives a user without groups an empty list, and nothing for an unknown id', async () => {
    const { db } = database
    const pedro = (await findUserByEmail(db, 'paciente@innera.local'))!
    await setUserGroups(db, pedro.id, [])
    expect((await findUserWithGroups(db, pedro.id))?.groups).toEqual([])
    expect(await findUserWithGroups(db, 999_999)).toBeUndefined()
  })
})
