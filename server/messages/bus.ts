import { sql } from 'drizzle-orm'
import type { Database, Writer } from '#server/db/client.ts'
import type { Logger } from '#server/log.ts'

/**
 * What happened in a conversation, as every provider process hears it (decision 0085): a message
 * written (`message`), one written before and now deleted or removed (`changed`), or a read mark
 * moved (`read`). Ids only, and the pair, so a stream can tell whether it concerns its user
 * without a read; it then reads what it sends from the database.
 */
export type MessageEvent = {
  kind: 'message' | 'changed' | 'read'
  conversation_id: number
  patient_id: number
  professional_id: number
  message_id?: number
}

export type MessageBus = {
  /** Hears every event from now on, in this process and the others; the returned call stops it. */
  subscribe(handler: (event: MessageEvent) => void): Promise<() => void>
  close(): Promise<void>
}

const CHANNEL = 'innera_messages'

/**
 * Tells every process of an event, in the caller's transaction: PostgreSQL delivers a NOTIFY when
 * the transaction commits, and never when it rolls back. The channel carries the schema's name, so
 * two deployments (or two test runs) on one database never hear each other.
 */
export async function notifyMessageEvent(tx: Writer, event: MessageEvent): Promise<void> {
  await tx.execute(sql`select pg_notify(${CHANNEL} || '_' || current_schema(), ${JSON.stringify(event)})`)
}

type PgPool = { options: Record<string, unknown>; query(text: string): Promise<{ rows: { schema: string }[] }> }
type PgliteClient = { listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>; query(text: string): Promise<{ rows: { schema: string }[] }> }

const parse = (payload: string): MessageEvent | undefined => {
  try {
    const event = JSON.parse(payload) as MessageEvent
    return typeof event.conversation_id === 'number' ? event : undefined
  } catch {
    return undefined
  }
}

/**
 * The bus of a database: PostgreSQL's LISTEN/NOTIFY on one connection of its own (opened at the
 * first subscriber, opened again after a drop: a stream catches up by message id, so nothing is
 * missed), or PGlite's listen in the embedded single process. Every process that serves streams
 * hears every commit of every other.
 */
export function messageBusOf(db: Database, log: Logger): MessageBus {
  const handlers = new Set<(event: MessageEvent) => void>()
  const deliver = (payload: string) => {
    const event = parse(payload)
    if (event) for (const handler of handlers) handler(event)
  }
  // Read at the first subscriber, not before: an app that never streams never touches the driver.
  const clientOf = () => (db as unknown as { $client: PgPool | PgliteClient }).$client
  let started: Promise<() => Promise<void>> | undefined
  let closed = false

  async function channel(): Promise<string> {
    const { rows } = await clientOf().query('select current_schema() as schema')
    return `${CHANNEL}_${rows[0]!.schema}`
  }

  async function listenOnPostgres(pool: PgPool): Promise<() => Promise<void>> {
    const { default: pg } = await import('pg')
    const name = await channel()
    let connection: InstanceType<typeof pg.Client> | undefined
    const connect = async (): Promise<void> => {
      if (closed) return
      const next = new pg.Client(pool.options as ConstructorParameters<typeof pg.Client>[0])
      next.on('notification', (message) => {
        if (message.payload) deliver(message.payload)
      })
      next.on('error', (error) => {
        log({ level: 'warn', msg: 'message bus connection lost', error: error.message })
        next.end().catch(() => undefined)
        if (connection === next) setTimeout(() => connect().catch(() => undefined), 1000).unref()
      })
      await next.connect()
      await next.query(`LISTEN "${name}"`)
      connection = next
    }
    await connect()
    return async () => {
      const last = connection
      connection = undefined
      await last?.end().catch(() => undefined)
    }
  }

  return {
    async subscribe(handler) {
      handlers.add(handler)
      const client = clientOf()
      if (!started) {
        started = 'listen' in client ? channel().then((name) => client.listen(name, deliver)) : listenOnPostgres(client)
        // A listener that could not start (the database away) is tried again by the next subscriber, not remembered as failed.
        started.catch(() => {
          started = undefined
        })
      }
      try {
        await started
      } catch (error) {
        handlers.delete(handler)
        throw error
      }
      return () => handlers.delete(handler)
    },
    async close() {
      closed = true
      handlers.clear()
      if (started) await (await started)()
    },
  }
}
