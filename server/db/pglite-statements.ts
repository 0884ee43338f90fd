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
 * Outside transactions, a data statement (select, insert, update, delete, with) whose text has been
 * seen before is parsed once under a name of its own, then only bound and executed: one call into
 * PostgreSQL instead of six. At most `limit` texts are kept (drizzle puts every value in a
 * parameter, so the texts are the queries' shapes, not their values); further texts run as before.
 * Transactions keep PGlite's own path.
 */
export function enableNamedStatements(pg: PGlite, { limit = 200 }: { limit?: number } = {}) {
  const unnamed = pg.query.bind(pg) as PGlite['query']
  const statements = new Map<string, { name: string; parameterTypes: number[] }>()
  // Texts seen once: a statement that never comes back is not worth a name.
  const seen = new Set<string>()
  let counter = 0

  const named = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (options?.blob || !DATA_STATEMENT.test(text)) return unnamed<T>(text, params, options)
    let statement = statements.get(text)
    if (!statement) {
      if (!seen.has(text) || statements.size >= limit) {
        if (seen.size < limit * 4) seen.add(text)
        return unnamed<T>(text, params, options)
      }
      seen.delete(text)
    }
    // The transaction mutex first, as query() takes it: a statement never runs inside a transaction
    // another request has open on the one connection.
    return pg
      ._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          statement ??= await prepare(text)
          const values = params.map((param, index) => serialize(param, statement!.parameterTypes[index], options))
          const messages = await pg.execProtocolStream(
            concat(protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()),
          )
          return parse.parseResults(messages, pg.parsers, options)[0] as Results<T>
        }),
      )
      .catch((error: unknown) => {
        // A table changed under a kept plan (a migration): the statement goes, the call runs as before.
        if (statement && (error as { code?: string }).code === '0A000') {
          statements.delete(text)
          const close = concat(protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync())
          return pg
            ._runExclusiveTransaction(() => pg._runExclusiveQuery(() => pg.execProtocolStream(close)))
            .catch(() => undefined)
            .then(() => unnamed<T>(text, params, options))
        }
        throw error
      })
  }

  async function prepare(text: string) {
    const name = `innera_${(counter += 1)}`
    const messages = await pg.execProtocolStream(concat(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()))
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

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
