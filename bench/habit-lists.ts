/**
 * Issue 22, finding 2, measured by hand (not part of `npm run bench`): a patient with ARCHIVED
 * archived habits (each tracked on the day it was made), and what the provider answers for their
 * archived list: bytes and time per request, in-process (no socket), on a fresh in-memory PGlite.
 *
 *   npx tsx bench/habit-lists.ts [archived=2000] [runs=10]
 */
import { sql } from 'drizzle-orm'
import { client, createMemoryDatabase, fakeClock, testApp } from '#server/testing/harness.ts'

const archived = Number(process.argv[2] ?? 2000)
const runs = Number(process.argv[3] ?? 10)
const database = await createMemoryDatabase()
const time = fakeClock(Date.UTC(2026, 2, 20, 15, 0, 0))
const api = client(testApp(database.db, { clock: time.clock, env: { ACCESS_TOKEN_LIFETIME: String(86_400) } }))
const { access: token, user_id: userId } = await api.login('paciente@innera.local')

// Straight into the tables: thousands of API calls would measure the calls, not the list.
await database.db.execute(sql`INSERT INTO habits (user_id, pillar_slug, name, frequency, created_on, archived_at)
  SELECT ${userId}, 'sono', 'Hábito arquivado número ' || n, '{"kind":"daily"}', date '2026-03-19' - (n % 300), now() - n * interval '1 minute'
  FROM generate_series(1, ${archived}) n`)
await database.db.execute(sql`INSERT INTO habit_entries (habit_id, date, status) SELECT id, created_on, 'done' FROM habits WHERE user_id = ${userId}`)

const path = '/habits/?archived=true'
await api.get(path, { token })
const times: number[] = []
let bytes = 0
let count: unknown
for (let run = 0; run < runs; run++) {
  const started = performance.now()
  const response = await api.get(path, { token })
  times.push(performance.now() - started)
  bytes = Buffer.byteLength(response.text)
  count = response.json.count ?? response.json.results.length
}
times.sort((a, b) => a - b)
console.log(JSON.stringify({ archived, path, status: 200, bytes, listed: count, medianMs: Math.round(times[Math.floor(runs / 2)]! * 10) / 10, minMs: Math.round(times[0]! * 10) / 10 }))
await database.close()
