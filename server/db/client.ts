import { existsSync, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { readMigrationFiles, type MigrationConfig, type MigrationMeta } from 'drizzle-orm/migrator'
import * as schema from '#server/db/schema.ts'
import type { PoolStats } from '#server/metrics/registry.ts'

/** The drizzle database, whichever driver is underneath (PGlite or node-postgres). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>
/** A transaction, or the database for a single statement: what writes that belong together take. */
export type Writer = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>

/** The rows a raw statement returned, whichever driver ran it (PGlite's Results, node-postgres' QueryResult). */
export async function rowsOf<Row = Record<string, unknown>>(statement: Promise<unknown>): Promise<Row[]> {
  return ((await statement) as { rows: Row[] }).rows
}

type DatabaseOptions =
  /** A folder, or "memory://" for a throwaway in-memory database (fast fresh starts for e2e runs); `snapshot` fills an empty folder from a dump (a restore). */
  | { dataDir: string; snapshot?: Blob }
  /** In memory, optionally started from a PGlite dump (`dumpDataDir`) instead of an empty cluster. */
  | { memory: true; snapshot?: Blob }
  /** `schema` puts every table (and drizzle's bookkeeping) in that schema; tests use a fresh one per run. */
  | { url: string; schema?: string }

export type DatabaseHandle = {
  db: Database
  kind: 'pglite' | 'postgres'
  /** Applies pending migrations; on PostgreSQL under an advisory lock so concurrent starts take turns. */
  migrate(migrationsFolder: string): Promise<void>
  close(): Promise<void>
  /** The pool's connections now, for /metrics: node-postgres' counts, or PGlite's one connection (1 while open). */
  poolStats(): PoolStats
  /**
   * PGlite only: the whole cluster as a tarball, to reopen later with { memory: true, snapshot } or
   * into a folder (backups, decision 0090). Consistent while other calls run: it waits for the
   * transaction in progress and starts none until the files are copied.
   */
  snapshot?: () => Promise<Blob>
}

/** Connections per provider process on PostgreSQL. */
const POOL_MAX = 10

// Any constant works; it only has to be the same for every provider process.
const MIGRATION_LOCK_ID = 7_412_309

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ('url' in options) return openPostgres(options.url, options.schema)
  if ('memory' in options) return openPglite(undefined, options.snapshot)
  return openPglite(options.dataDir.startsWith('memory://') ? undefined : options.dataDir, options.snapshot)
}

async function openPglite(dataDir: string | undefined, snapshot?: Blob): Promise<DatabaseHandle> {
  const [{ PGlite }, { pg_trgm }, { drizzle }, { migrate }, { enableNamedStatements }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('#server/db/pglite-statements.ts'),
  ])
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // pg_trgm: the admins' user search is a trigram index (migration 0025); PostgreSQL ships it in contrib.
  const extensions = { pg_trgm }
  const client = new PGlite({ ...(dataDir && { dataDir: resolve(dataDir) }), ...(snapshot && { loadDataDir: snapshot }), extensions })
  await client.waitReady
  // Statements that come back are planned once (decision 0031), as node-postgres does on PostgreSQL.
  enableNamedStatements(client)
  const db = drizzle({ client, schema })
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    // One process owns a PGlite folder, so there is nobody to take turns with.
    migrate: (migrationsFolder) => migrate(db, { migrationsFolder }),
    close: () => client.close(),
    poolStats: () => ({ driver: 'pglite', total: client.closed ? 0 : 1, max: 1 }),
    async snapshot() {
      // The data files brought up to date first, so that the copy needs little recovery when opened.
      await client.exec('CHECKPOINT')
      // Between transactions: PGlite's dump waits only for the statement in progress, and a
      // transaction's statements are separate ones; holding the transaction lock, none is half done.
      return client._runExclusiveTransaction(() => client.dumpDataDir('none'))
    },
  }
}

async function openPostgres(url: string, searchPath: string | undefined): Promise<DatabaseHandle> {
  const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([import('pg'), import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')])
  if (searchPath !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(searchPath)) {
    throw new Error(`Invalid schema name "${searchPath}"`)
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_MAX,
    // Named in pg_stat_activity; a test's pools by their schema, so a test watches only its own.
    application_name: searchPath ? `innera ${searchPath}` : 'innera',
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error(JSON.stringify({ level: 'error', msg: 'postgres pool error', error: error.message })))
  const db = drizzle({ client: pool, schema })

  return {
    db: db as unknown as Database,
    kind: 'postgres',
    async migrate(migrationsFolder) {
      const connection = await pool.connect()
      try {
        await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID])
        const locked = drizzle({ client: connection, schema })
        if (searchPath) await migrateIntoSchema(locked, migrationsFolder, searchPath)
        else await migrate(locked, { migrationsFolder })
      } finally {
        await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined)
        connection.release()
      }
    },
    close: () => pool.end(),
    poolStats: () => ({ driver: 'postgres', total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
  }
}

/**
 * drizzle-kit writes foreign keys as REFERENCES "public"."table"; to build the same tables in
 * another schema the migration text is re-pointed at it. This is what drizzle's own migrate()
 * does, plus that one substitution.
 */
async function migrateIntoSchema(db: unknown, migrationsFolder: string, targetSchema: string): Promise<void> {
  const config: MigrationConfig = { migrationsFolder, migrationsSchema: targetSchema }
  const migrations: MigrationMeta[] = readMigrationFiles(config).map((migration) => ({
    ...migration,
    sql: migration.sql.map((statement) => statement.replaceAll('"public".', `"${targetSchema}".`)),
  }))
  const internals = db as { dialect: { migrate(m: MigrationMeta[], session: unknown, c: MigrationConfig): Promise<void> }; session: unknown }
  await internals.dialect.migrate(migrations, internals.session, config)
}

/**
 * Where the SQL migrations live: PROVIDER_MIGRATIONS_DIR, else server/db/migrations under the
 * nearest folder holding package.json, walking up from this module. That finds them both from
 * source (server/db/client.ts) and from the bundle (build/provider/index.js).
 */
export function findMigrationsDir(explicit?: string, from: string = import.meta.url): string {
  if (explicit) return resolve(explicit)
  let directory = dirname(fileURLToPath(from))
  for (;;) {
    if (existsSync(join(directory, 'package.json'))) return join(directory, 'server', 'db', 'migrations')
    const parent = dirname(directory)
    if (parent === directory) throw new Error('Cannot find the migrations folder: set PROVIDER_MIGRATIONS_DIR')
    directory = parent
  }
}
