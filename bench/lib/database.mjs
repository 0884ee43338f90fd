/**
 * A throwaway PostgreSQL database for one benchmark instance's provider (BENCH_DATABASE_URL): the
 * provider as production runs it once it outgrows PGlite (README, "Running on PostgreSQL and
 * Redis"). Created empty (the provider migrates and seeds it at start), dropped at close.
 */
import pg from 'pg'

let counter = 0

async function admin(serverURL, sql) {
  const client = new pg.Client({ connectionString: serverURL, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** @returns {Promise<{ url: string, drop: () => Promise<void> }>} */
export async function throwawayDatabase(serverURL) {
  counter += 1
  const name = `innera_bench_${process.pid}_${Date.now().toString(36)}_${counter}`
  await admin(serverURL, `CREATE DATABASE ${name}`)
  const url = new URL(serverURL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => admin(serverURL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}

/** The server URL with any password hidden, for the report. */
export function redactedURL(serverURL) {
  const url = new URL(serverURL)
  if (url.password) url.password = '***'
  return url.toString()
}

/** This machine's PostgreSQL on loopback, as `npm test` uses it (TEST_DATABASE_URL's default). */
export const LOOPBACK_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres'

/** True when a PostgreSQL server answers at `serverURL` within two seconds. */
export async function postgresAnswers(serverURL) {
  const client = new pg.Client({ connectionString: serverURL, connectionTimeoutMillis: 2_000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => undefined)
  }
}
