/**
 * Issue 26: a patient's data export (GET /users/me/export/, decision 0060) for a large history,
 * 10,000 habit entries (10 habits of 1,000 days) and 500 appointments, at the provider,
 * in-process on an in-memory PGlite: the time to the whole ZIP, its size, and the process's peak
 * memory above what it held before (sampled every 5 ms while the ZIP streams; the ZIP's bytes are
 * counted and dropped as they come, as a browser saving a download would). Prints one JSON line;
 * `npm run bench` runs it (bench/run.mjs, --only=export).
 *
 *   npx tsx bench/data-export.ts [runs=5]
 */
import { eq } from 'drizzle-orm'
import { appointments, habitEntries, habits, users } from '#server/db/schema.ts'
import { client, createMemoryDatabase, testApp } from '#server/testing/harness.ts'

const runs = Number(process.argv[2] ?? 5)
const database = await createMemoryDatabase()
const db = database.db
const app = testApp(db, { env: { ACCESS_TOKEN_LIFETIME: String(86_400), THROTTLE_EXPORT_PER_USER: '1000/h' } })
const api = client(app)
const idOf = async (email: string) => (await db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id
const patient = await idOf('paciente@innera.local')
const professional = await idOf('profissional@innera.local')

const DAY = 86_400_000
const habitRows = await db
  .insert(habits)
  .values(Array.from({ length: 10 }, (_, index) => ({ userId: patient, pillarSlug: 'sono', name: `Hábito ${index}`, frequency: { kind: 'daily' as const }, createdOn: '2020-01-01' })))
  .returning({ id: habits.id })
for (const habit of habitRows) {
  await db.insert(habitEntries).values(Array.from({ length: 1000 }, (_, day) => ({ habitId: habit.id, date: new Date(Date.UTC(2021, 0, 1) + day * DAY).toISOString().slice(0, 10), status: 'done' as const, amount: day % 7 })))
}
const start = Date.UTC(2022, 0, 3, 12)
for (let batch = 0; batch < 5; batch += 1) {
  await db.insert(appointments).values(
    Array.from({ length: 100 }, (_, index) => {
      const at = start + (batch * 100 + index) * 2 * 3600_000
      return { patientId: patient, professionalId: professional, startTime: new Date(at), endTime: new Date(at + 50 * 60_000), blockedUntil: new Date(at + 60 * 60_000), status: 'completed' as const, meetingLink: 'https://meet.test/room', notes: 'Dor nas costas' }
    }),
  )
}
const { access: token } = await api.login('paciente@innera.local')

async function once() {
  globalThis.gc?.()
  const before = process.memoryUsage()
  let peakRss = before.rss
  let peakHeap = before.heapUsed
  const sampler = setInterval(() => {
    const now = process.memoryUsage()
    peakRss = Math.max(peakRss, now.rss)
    peakHeap = Math.max(peakHeap, now.heapUsed)
  }, 5)
  const started = performance.now()
  const response = await app.request('http://127.0.0.1:8000/users/me/export/', { headers: { authorization: `Bearer ${token}` } })
  if (response.status !== 200) throw new Error(`export: ${response.status}`)
  let bytes = 0
  const reader = response.body!.getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength
  const ms = performance.now() - started
  clearInterval(sampler)
  return { ms, bytes, rssAboveMiB: (peakRss - before.rss) / 2 ** 20, heapAboveMiB: (peakHeap - before.heapUsed) / 2 ** 20 }
}

await once()
const results = []
for (let run = 0; run < runs; run++) results.push(await once())
const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!
const round = (value: number) => Math.round(value * 10) / 10
console.log(
  JSON.stringify({
    habitEntries: 10_000,
    appointments: 500,
    runs,
    zipKiB: round(results[0]!.bytes / 1024),
    medianMs: round(median(results.map((r) => r.ms))),
    peakRssAboveMiB: round(Math.max(...results.map((r) => r.rssAboveMiB))),
    peakHeapAboveMiB: round(Math.max(...results.map((r) => r.heapAboveMiB))),
  }),
)
await database.close()
