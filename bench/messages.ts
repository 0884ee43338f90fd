/**
 * Issue 44: a conversation of MESSAGES messages at the provider, in-process (no socket) on a fresh
 * in-memory PGlite: the thread's newest page and a page 9,000 messages back, each the median of
 * RUNS requests, with the plan of the keyset statement (an index, never an offset); and a
 * message's delivery to an open stream (GET /messages/stream/): from the send's start to its event
 * read on the stream, median and p99 over 200 messages, in one process. Prints one JSON line;
 * `npm run bench` runs it (bench/run.mjs, --only=messages).
 *
 *   npx tsx bench/messages.ts [messages=10000] [runs=30]
 */
import { eq, sql } from 'drizzle-orm'
import { messages, users } from '#server/db/schema.ts'
import { openConversation } from '#server/messages/repository.ts'
import { client, createMemoryDatabase, PUBLIC_URL, testApp } from '#server/testing/harness.ts'

const total = Number(process.argv[2] ?? 10_000)
const runs = Number(process.argv[3] ?? 30)
const DELIVERIES = 200
const database = await createMemoryDatabase()
const db = database.db
const app = testApp(db, { env: { ACCESS_TOKEN_LIFETIME: String(86_400) } })
const api = client(app)
const patient = (await api.login('paciente@innera.local')).access
const professional = (await api.login('profissional@innera.local')).access
const idOf = async (email: string) => (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
const [pedro, paula] = [await idOf('paciente@innera.local'), await idOf('profissional@innera.local')]
const { conversation } = await openConversation(db, pedro, paula)

// The history, written straight into the table (the two alternating), then the conversation's last message.
await db.execute(sql`INSERT INTO messages (conversation_id, sender_id, body, created_at)
  SELECT ${conversation.id}, CASE WHEN n % 2 = 0 THEN ${pedro}::int ELSE ${paula}::int END, 'Mensagem ' || n || ' da conversa, com algumas palavras a mais.', now() - (${total} - n) * interval '1 minute'
  FROM generate_series(1, ${total}) n`)
await db.execute(sql`UPDATE conversations SET last_message_id = (SELECT max(id) FROM messages), last_message_at = now() WHERE id = ${conversation.id}`)
await db.execute(sql`ANALYZE messages`)
const ids = (await db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversation.id)).orderBy(messages.id)).map((row) => row.id)
const farBack = ids[Math.max(30, ids.length - 9_000)]!

const median = (times: number[]) => Math.round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]! * 10) / 10
const percentile = (times: number[], p: number) => Math.round([...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))]! * 10) / 10

async function timed(path: string) {
  await api.get(path, { token: patient })
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const response = await api.get(path, { token: patient })
    times.push(performance.now() - started)
    if (response.status !== 200 || response.json.messages.length !== 30) throw new Error(`${path}: ${response.status}`)
  }
  return { path, medianMs: median(times), p90Ms: percentile(times, 0.9) }
}

const pages = [await timed(`/messages/conversations/${conversation.id}/`), await timed(`/messages/conversations/${conversation.id}/?before=${farBack}`)]
const { sql: text, params } = db.select().from(messages).where(sql`${messages.conversationId} = ${conversation.id} and ${messages.id} < ${farBack}`).orderBy(sql`${messages.id} desc`).limit(31).toSQL()
const inlined = text.replace(/\$(\d+)/g, (_, index: string) => String(params[Number(index) - 1]))
const plan = ((await db.execute(sql.raw(`EXPLAIN ${inlined}`))) as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n')

// Delivery: the professional's stream open; the patient sends, one after the other.
const controller = new AbortController()
const response = await app.request(`${PUBLIC_URL}/messages/stream/`, { headers: { authorization: `Bearer ${professional}` }, signal: controller.signal })
const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
let buffer = ''
const arrivals = new Map<string, number>()
const reading = (async () => {
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
    if (done) return
    buffer += value
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1]
      buffer = buffer.slice(end + 2)
      if (data) arrivals.set(JSON.parse(data).text as string, performance.now())
    }
  }
})()
const delivery: number[] = []
for (let index = 0; index < DELIVERIES; index++) {
  const text = `entrega ${index}`
  const started = performance.now()
  await api.post(`/messages/conversations/${conversation.id}/messages/`, { text }, { token: patient })
  while (!arrivals.has(text)) await new Promise((resolve) => setImmediate(resolve))
  delivery.push(arrivals.get(text)! - started)
}
controller.abort()
await reader.cancel().catch(() => undefined)
await reading
await app.services.messageBus.close()

console.log(JSON.stringify({ messages: total, runs, pages, plan, delivery: { messages: DELIVERIES, processes: 1, medianMs: median(delivery), p99Ms: percentile(delivery, 0.99) } }))
await database.close()
