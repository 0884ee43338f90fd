import { type PGlite, type QueryOptions, type Results, parse, protocol } from '@electric-sql/pglite'

/**
 * Named (server-side) prepared statements for PGlite (docs/decisions/0031).
 *
 * PGlite's `query()` sends every statement as PostgreSQL's unnamed statement, so each call is
 * parsed and planned again: about 0.8 ms of WebAssembly for the session lookup every authenticated
 * request makes, against 0.13 ms to bind and run a statement planned once. node-postgres (the
 * PostgreSQL driver) keeps drizzle's prepared queries as named statements per connection; this
 * gives PGlite's one connection the same for the reads and writes it sees most.
 *
 * A data statement (select, insert, update, delete, with) whose text has been seen before is parsed
 * once under a name of its own, then only bound and executed: one call into PostgreSQL instead of
 * six, in transactions too (the webhook's, the bookings'). At most `limit` texts are kept (drizzle
 * puts every value in a parameter, so the texts are the queries' shapes, not their values);
 * further texts run as before.
 */
export function enableNamedStatements(pg: PGlite, { limit = 200 }: { limit?: number } = {}) {
  const unnamed = pg.query.bind(pg) as PGlite['query']
  const statements = new Map<string, { name: string; parameterTypes: number[] }>()
  // Texts seen once: a statement that never comes back is not worth a name.
  const seen = new Set<string>()
  let counter = 0

  /** Whether this text runs as a named statement: a data statement seen before, while there is room. */
  function worthNaming(text: string, options: QueryOptions | undefined): boolean {
    if (options?.blob || !DATA_STATEMENT.test(text)) return false
    if (statements.has(text)) return true
    if (!seen.has(text) || statements.size >= limit) {
      if (seen.size < limit * 4) seen.add(text)
      return false
    }
    seen.delete(text)
    return true
  }

  /** Parses the text once under its name (kept), then binds and executes it: one call into PostgreSQL. */
  async function runNamed<T>(text: string, params: unknown[], options: QueryOptions | undefined, stream: { syncToFs?: boolean }): Promise<Results<T>> {
    const statement = statements.get(text) ?? (await prepare(text, stream))
    const values = params.map((param, index) => serialize(param, statement.parameterTypes[index], options))
    const messages = await pg.execProtocolStream(
      concat(protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()),
      stream,
    )
    const [parsers, rest] = parsersFor(options)
    return parse.parseResults(messages, parsers, rest)[0] as Results<T>
  }

  /**
   * The parser table for a call. drizzle passes the same few parsers with every query (dates and
   * intervals left as text, by identity functions), and PGlite would copy its whole table (~320
   * types) to merge them into each result. Here such a set is merged once, as a table whose
   * prototype is PGlite's own (so types PGlite adds later are still found), and reused.
   */
  const merged = new Map<string, Record<number, (value: string, typeId?: number) => unknown>>()
  function parsersFor(options: QueryOptions | undefined): [Record<number, (value: string, typeId?: number) => unknown>, QueryOptions | undefined] {
    const given = options?.parsers
    if (!given) return [pg.parsers, options]
    const types = Object.keys(given)
    if (!types.every((type) => given[Number(type)]!(PROBE) === PROBE)) return [pg.parsers, options]
    const key = types.join(',')
    let table = merged.get(key)
    if (!table) {
      table = Object.create(pg.parsers) as Record<number, (value: string, typeId?: number) => unknown>
      for (const type of types) table[Number(type)] = given[Number(type)]!
      if (merged.size < 20) merged.set(key, table)
    }
    return [table, options.rowMode === 'array' ? ARRAY_ROWS : undefined]
  }

  /** A table changed under a kept plan (a migration): the statement goes. */
  const isStalePlan = (text: string, error: unknown) => statements.has(text) && (error as { code?: string }).code === '0A000'
  async function forget(text: string) {
    const statement = statements.get(text)
    statements.delete(text)
    if (!statement) return
    const close = concat(protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync())
    await pg._runExclusiveQuery(() => pg.execProtocolStream(close)).catch(() => undefined)
  }

  const named = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!worthNaming(text, options)) return unnamed<T>(text, params, options)
    // The transaction mutex first, as query() takes it: a statement never runs inside a transaction
    // another request has open on the one connection.
    return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => runNamed<T>(text, params, options, {}))).catch(async (error: unknown) => {
      if (!isStalePlan(text, error)) throw error
      // Outside a transaction the call simply runs again, as before.
      await pg._runExclusiveTransaction(() => forget(text))
      return unnamed<T>(text, params, options)
    })
  }

  /**
   * Inside a transaction (which holds the transaction mutex already) the same, without writing to
   * the file system after each statement (PGlite's own transactions sync once, at COMMIT). A stale
   * plan fails the statement, and so the transaction, as any error does; the next one is parsed anew.
   */
  const transaction = pg.transaction.bind(pg)
  pg.transaction = ((callback: Parameters<PGlite['transaction']>[0]) =>
    transaction((tx) => {
      const plain = tx.query.bind(tx)
      tx.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
        if (tx.closed) throw new Error('Transaction is closed')
        if (!worthNaming(text, options)) return plain<T>(text, params, options)
        return pg._runExclusiveQuery(() => runNamed<T>(text, params, options, { syncToFs: false })).catch(async (error: unknown) => {
          if (isStalePlan(text, error)) await forget(text)
          throw error
        })
      }
      return callback(tx)
    })) as PGlite['transaction']

  async function prepare(text: string, stream: { syncToFs?: boolean }) {
    const name = `innera_${(counter += 1)}`
    const messages = await pg.execProtocolStream(concat(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()), stream)
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(messages) }
    statements.set(text, statement)
    return statement
  }

  function serialize(param: unknown, type: number | undefined, options: QueryOptions | undefined) {
    if (param === null || param === undefined) return null
    const serializer = (type !== undefined && (options?.serializers?.[type] ?? pg.serializers[type])) || undefined
    return serializer ? serializer(param) : String(param)
  }

  pg.query = named as PGlite['query']
  return { statementCount: () => statements.size }
}

const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i
/** A text no type parser but the identity returns unchanged. */
const PROBE = '\u0000innera-parser-probe'
const ARRAY_ROWS: QueryOptions = { rowMode: 'array' }

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
