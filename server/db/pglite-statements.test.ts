import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { enableNamedStatements } from '#server/db/pglite-statements.ts'

describe('named statements on PGlite', () => {
  let pg: PGlite
  let named: ReturnType<typeof enableNamedStatements>
  const prepared = async () => (await pg.exec('select name, statement from pg_prepared_statements order by name'))[0]!.rows as { name: string; statement: string }[]

  beforeAll(async () => {
    pg = new PGlite()
    await pg.waitReady
    named = enableNamedStatements(pg, { limit: 5 })
    await pg.exec(`create table notes (id serial primary key, body text not null unique, at timestamptz not null, tags jsonb)`)
  })
  afterAll(() => pg.close())

  it('plans a statement once it comes back, and answers as PGlite does', async () => {
    const text = 'select id, body, at, tags from notes where body = $1'
    await pg.query('insert into notes (body, at, tags) values ($1, $2, $3)', ['a', new Date('2026-01-02T03:04:05Z'), { pillar: 'sono' }])
    const first = await pg.query(text, ['a'])
    expect(await prepared()).toEqual([])
    const second = await pg.query(text, ['a'])
    const third = await pg.query(text, ['a'], { rowMode: 'array' })
    expect((await prepared()).map((row) => row.statement)).toEqual([text])
    expect(second).toEqual(first)
    expect(first.rows).toEqual([{ id: 1, body: 'a', at: new Date('2026-01-02T03:04:05Z'), tags: { pillar: 'sono' } }])
    expect(third.rows).toEqual([[1, 'a', new Date('2026-01-02T03:04:05Z'), { pillar: 'sono' }]])
    // Parameters go through PGlite's serializers (a Date, an object for jsonb), and drizzle's own parsers apply.
    await pg.query('insert into notes (body, at, tags) values ($1, $2, $3)', ['b', new Date('2026-02-02T00:00:00Z'), ['x']])
    const written = await pg.query('insert into notes (body, at, tags) values ($1, $2, $3) returning at', ['c', new Date('2026-03-02T00:00:00Z'), null], {
      parsers: { 1184: (value: string) => value },
    })
    expect(written.rows).toEqual([{ at: '2026-03-02 00:00:00+00' }])
    expect(written.affectedRows).toBe(1)
  })

  it('reports errors as PGlite does, and the connection goes on', async () => {
    const text = 'insert into notes (body, at, tags) values ($1, $2, $3)'
    expect((await prepared()).map((row) => row.statement)).toContain(text)
    const failure = await pg.query(text, ['a', new Date(), null]).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: '23505', constraint: 'notes_body_key' })
    expect(await pg.query('select count(*)::int as n from notes where body = $1', ['a'])).toMatchObject({ rows: [{ n: 1 }] })
  })

  it('never runs inside a transaction another caller has open', async () => {
    const text = 'select count(*)::int as n from notes where body like $1'
    await pg.query(text, ['t%'])
    let release!: () => void
    const open = pg.transaction(async (tx) => {
      await tx.query('insert into notes (body, at) values ($1, now())', ['t1'])
      await new Promise<void>((resolve) => (release = resolve))
      await tx.rollback()
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const outside = pg.query<{ n: number }>(text, ['t%'])
    release()
    await open
    expect((await outside).rows).toEqual([{ n: 0 }])
  })

  it('drops a statement whose table changed under it and answers anyway', async () => {
    const text = 'select * from notes where body = $1'
    await pg.query(text, ['a'])
    await pg.query(text, ['a'])
    expect((await prepared()).map((row) => row.statement)).toContain(text)
    await pg.exec('alter table notes add column extra int')
    const after = await pg.query<Record<string, unknown>>(text, ['a'])
    expect(after.rows[0]).toHaveProperty('extra', null)
    expect((await prepared()).map((row) => row.statement)).not.toContain(text)
  })
  it('names statements inside transactions too: committed, rolled back, and after an error', async () => {
    const insert = 'insert into notes (body, at) values ($1, now()) returning id'
    const count = 'select count(*)::int as n from notes where body like $1'
    await pg.transaction(async (tx) => {
      await tx.query(insert, ['tx-1'])
      await tx.query(insert, ['tx-2'])
      expect((await tx.query<{ n: number }>(count, ['tx-%'])).rows).toEqual([{ n: 2 }])
      expect((await tx.query<{ n: number }>(count, ['tx-%'])).rows).toEqual([{ n: 2 }])
    })
    expect((await prepared()).map((row) => row.statement)).toEqual(expect.arrayContaining([insert, count]))
    await pg.transaction(async (tx) => {
      await tx.query(insert, ['tx-3'])
      await tx.rollback()
    })
    // A unique violation fails the statement and the transaction; the connection goes on.
    const failed = await pg.transaction((tx) => tx.query(insert, ['tx-1'])).catch((error: unknown) => error)
    expect(failed).toMatchObject({ code: '23505' })
    expect((await pg.query<{ n: number }>(count, ['tx-%'])).rows).toEqual([{ n: 2 }])
    await pg.transaction(async (tx) => expect((await tx.query(insert, ['tx-4'])).rows).toHaveLength(1))
    expect((await pg.query<{ n: number }>(count, ['tx-%'])).rows).toEqual([{ n: 3 }])
  })

  it('a plan gone stale fails its transaction once; the next one plans it anew', async () => {
    const text = 'select * from notes where body = $1'
    await pg.transaction(async (tx) => {
      await tx.query(text, ['a'])
      await tx.query(text, ['a'])
    })
    await pg.exec('alter table notes add column more int')
    expect(await pg.transaction((tx) => tx.query(text, ['a'])).catch((error: unknown) => error)).toMatchObject({ code: '0A000' })
    const rows = await pg.transaction(async (tx) => (await tx.query<Record<string, unknown>>(text, ['a'])).rows)
    expect(rows[0]).toHaveProperty('more', null)
  })

  it('answers with the parsers a call gives, as PGlite does: drizzle’s (text left as text) and any other', async () => {
    const text = 'select body, at from notes where body = $1'
    const keepText = { parsers: { 1184: (value: string) => value, 1082: (value: string) => value }, rowMode: 'array' as const }
    const plain = await pg.query(text, ['a'], keepText)
    await pg.query(text, ['a'], keepText)
    const again = await pg.query(text, ['a'], keepText)
    expect(again.rows).toEqual(plain.rows)
    expect(again.rows).toEqual([['a', '2026-01-02 03:04:05+00']])
    // A parser that does something is applied, and the table kept for drizzle's is not touched by it.
    expect((await pg.query(text, ['a'], { parsers: { 1184: (value: string) => `at ${value}` } })).rows).toEqual([{ body: 'a', at: 'at 2026-01-02 03:04:05+00' }])
    expect((await pg.query(text, ['a'])).rows).toEqual([{ body: 'a', at: new Date('2026-01-02T03:04:05Z') }])
  })

  it('keeps at most its limit of statements, and leaves other statements alone', async () => {
    for (const body of ['x', 'y', 'z', 'w', 'v', 'u']) {
      const text = `select id from notes where body = $1 and '${body}' = '${body}'`
      await pg.query(text, [body])
      await pg.query(text, [body])
    }
    expect(named.statementCount()).toBe(5)
    expect((await prepared()).length).toBe(5)
    await pg.query('create index notes_at on notes (at)')
    await pg.query('create index notes_at2 on notes (at)')
    await pg.transaction(async (tx) => {
      await tx.query('select 1 as one')
      await tx.query('select 1 as one')
    })
    expect((await prepared()).length).toBe(5)
  })
})
