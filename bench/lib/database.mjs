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
