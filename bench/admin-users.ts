/**
 * Issue 26: the admin users list over USERS accounts (seeded straight into the tables), at the
 * provider, in-process (no socket) on a fresh in-memory PGlite: a search and a page, each the
 * median of RUNS requests, and the query plans of the list's two statements (the page and its
 * count), to show an index is used and not a scan. Prints one JSON line; `npm run bench` runs it
 * (bench/run.mjs, --only=adminusers).
 *
 *   npx tsx bench/admin-users.ts [users=100000] [runs=30]
 */
import { sql } from 'drizzle-orm'
import { searchPageQuery, userListQueries, withGroupIds } from '#server/users/repository.ts'
import { client, createMemoryDatabase, testApp } from '#server/testing/harness.ts'

const total = Number(process.argv[2] ?? 100_000)
const runs = Number(process.argv[3] ?? 30)
const database = await createMemoryDatabase()
const db = database.db
const api = client(testApp(db, { env: { ACCESS_TOKEN_LIFETIME: String(86_400) } }))
const { access: token } = await api.login('admin@innera.local')

const seedStarted = performance.now()
// Names from small lists, so a search finds some and not all; e-mails unique.
await db.execute(sql`INSERT INTO users (username, email, password, first_name, last_name, is_active, date_joined)
  SELECT 'bench' || n, 'bench' || n || '@example.com', '!', (ARRAY['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor','Iara','João'])[1 + n % 10] || n % 97,
         (ARRAY['Silva','Souza','Oliveira','Santos','Lima','Pereira','Costa','Rodrigues','Almeida','Nascimento'])[1 + (n / 10) % 10], n % 13 <> 0, now() - n * interval '1 minute'
  FROM generate_series(1, ${total}) n`)
await db.execute(sql`INSERT INTO user_groups (user_id, group_id) SELECT u.id, g.id FROM users u, groups g WHERE u.username LIKE 'bench%' AND g.name = CASE WHEN u.id % 50 = 0 THEN 'profissional' ELSE 'paciente' END`)
await db.execute(sql`ANALYZE users`)
await db.execute(sql`ANALYZE user_groups`)
const seedMs = performance.now() - seedStarted

async function timed(path: string) {
  await api.get(path, { token })
  const times: number[] = []
  let count = 0
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    const response = await api.get(path, { token })
    times.push(performance.now() - started)
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
    count = response.json.count
  }
  times.sort((a, b) => a - b)
  return { path, count, medianMs: Math.round(times[Math.floor(runs / 2)]! * 10) / 10, p90Ms: Math.round(times[Math.floor(runs * 0.9)]! * 10) / 10 }
}

/** The plan the database chooses for one of the list's statements, with its parameters. */
async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql: text, params } = query.toSQL()
  const inlined = text.replace(/\$(\d+)/g, (_, index: string) => {
    const value = params[Number(index) - 1]
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`
  })
  const result = await db.execute(sql.raw(`EXPLAIN ${inlined}`))
  return (result as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n')
}

// One after the other: each figure is one request's own time.
// A tenth of the users are "Nascimento": its page 3, and a page four fifths in; the middle of the whole list.
const deepPage = Math.max(1, Math.floor((total / 10 / 20) * 0.8))
const paths = [
  '/users/?search=nascimento&page=3&page_size=20',
  `/users/?search=nascimento&page=${deepPage}&page_size=20`,
  '/users/?search=bench4242&page_size=20',
  '/users/?search=silva&state=inactive&page_size=20',
  `/users/?page=${Math.max(1, Math.floor(total / 40))}&page_size=20`,
  '/users/?group=profissional&page=10&page_size=20',
]
const results = []
for (const path of paths) results.push(await timed(path))
// A search's page and count are one statement (searchPageQuery); the list's two statements serve the rest.
const plans = {
  searchPage: await planOf(searchPageQuery(db, { search: 'nascimento' }, { limit: 20, offset: (deepPage - 1) * 20 })),
  // As the endpoint reads a group: its id first (withGroupIds), then the count and the page.
  count: await planOf(userListQueries(db, await withGroupIds(db, { group: 'profissional' }), { limit: 20, offset: 180 }).count),
  groupPage: await planOf(userListQueries(db, await withGroupIds(db, { group: 'profissional' }), { limit: 20, offset: 180 }).page),
}
console.log(JSON.stringify({ users: total, seedSeconds: Math.round(seedMs / 100) / 10, runs, results, plans }))
await database.close()
