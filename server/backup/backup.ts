import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { askControlSocket, claimDataFolder, controlSocketPath, dumpDatabase, type DatabaseDump } from '#server/backup/control.ts'
import { readBackup, writeBackup, type BackupManifest } from '#server/backup/format.ts'
import { findMigrationsDir, openDatabase, rowsOf } from '#server/db/client.ts'

/**
 * `npm run backup` and `npm run restore` on the embedded database (decision 0090). A backup holds
 * PGlite's whole data folder, dumped consistently, and the secrets `npm start` keeps beside it;
 * nothing else in the data folder belongs to Innera (photos are rows; the lessons and materials
 * are in the image).
 */

/**
 * The files `scripts/start.mjs` makes in the data folder (persistentSecret): without the two keys
 * a restored install signs every visitor out, refuses every token and cannot read the Google
 * Calendar tokens sealed with the JWT key. A test keeps this list and start.mjs's names equal.
 */
export const DATA_FOLDER_FILES = ['session-secret', 'provider-jwt-secret', 'provider-forwarding-secret', 'fake-google-client-secret'] as const

export type Folders = {
  /** DATA_DIR: the secrets' folder. */
  dataDir: string
  /** PGlite's folder: PROVIDER_DATA_DIR, by default `$DATA_DIR/provider`. */
  providerDir: string
}

/** A backup or a restore that cannot be done, with what to do about it. */
export class BackupError extends Error {
  override name = 'BackupError'
}

export type TakenBackup = { file: Buffer; manifest: BackupManifest; skipped: string[] }

/**
 * The backup file of the install in `folders`: from the running provider through its control
 * socket when one runs, else from the folder itself (holding its lock while it reads).
 */
export async function takeBackup(folders: Folders, now = new Date()): Promise<TakenBackup> {
  let dump: DatabaseDump
  let takenFrom: BackupManifest['taken_from']
  const answer = await askControlSocket(controlSocketPath(folders.providerDir), 'DUMP')
  if (answer) {
    dump = fromProvider(answer)
    takenFrom = 'running provider'
  } else {
    if (!existsSync(join(folders.providerDir, 'PG_VERSION'))) throw new BackupError(`there is no database in ${folders.providerDir} (no provider answers and the folder holds no PGlite data): is DATA_DIR (or PROVIDER_DATA_DIR) right?`)
    const claim = await claimDataFolder(folders.providerDir, 'backup')
    try {
      const handle = await openDatabase({ dataDir: folders.providerDir })
      try {
        dump = await dumpDatabase(handle)
      } finally {
        await handle.close()
      }
    } finally {
      await claim.release()
    }
    takenFrom = 'stopped data folder'
  }
  const files = DATA_FOLDER_FILES.filter((name) => existsSync(join(folders.dataDir, name))).map((name) => ({
    entry: { name, kind: 'file' as const, mode: statSync(join(folders.dataDir, name)).mode & 0o777 },
    data: readFileSync(join(folders.dataDir, name)),
  }))
  const known = new Set<string>([...DATA_FOLDER_FILES, basename(folders.providerDir), basename(controlSocketPath(folders.providerDir))])
  const skipped = existsSync(folders.dataDir) ? readdirSync(folders.dataDir).filter((name) => !known.has(name)) : []
  const manifest = {
    created_at: now.toISOString(),
    taken_from: takenFrom,
    database: { engine: 'pglite' as const, server_version: dump.serverVersion, compression: 'gzip' as const, migrations: dump.migrations },
  }
  const file = writeBackup(manifest, [{ entry: { name: 'database', kind: 'pglite-data-dir' }, data: dump.data }, ...files])
  return { file, manifest: readBackup(file).manifest, skipped }
}

function fromProvider({ line, rest }: { line: string; rest: Buffer }): DatabaseDump {
  const [status, ...words] = line.split(' ')
  if (status === 'BUSY') throw new BackupError(`the running provider cannot make a backup now: ${words.join(' ')}`)
  if (status !== 'OK') throw new BackupError(`the running provider refused the backup: ${words.join(' ') || line}`)
  const about = JSON.parse(words.join(' ')) as { bytes: number; server_version: string; migrations: number }
  if (rest.byteLength !== about.bytes) throw new BackupError(`the running provider's dump was cut short (${rest.byteLength} of ${about.bytes} bytes): try again`)
  return { data: rest, serverVersion: about.server_version, migrations: about.migrations }
}

/** Writes the backup to `path` whole or not at all: a partial file beside it, renamed when complete. Never over an existing file. */
export function saveBackupFile(path: string, file: Buffer): void {
  if (existsSync(path)) throw new BackupError(`${path} already exists: give a new name (a backup never overwrites one)`)
  mkdirSync(dirname(path), { recursive: true })
  writeWhole(path, file, 0o600)
}

function writeWhole(path: string, data: Buffer, mode: number): void {
  const partial = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`)
  try {
    const fd = openSync(partial, 'wx', mode)
    try {
      for (let offset = 0; offset < data.byteLength; ) offset += writeSync(fd, data, offset)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(partial, path)
  } finally {
    rmSync(partial, { force: true })
  }
}

export type RestoreSummary = { manifest: BackupManifest; counts: Record<string, number>; files: string[] }

/** What a restore reads back from the database it put in place, to say what came back. */
const COUNTED_TABLES = ['users', 'appointments', 'purchases', 'habits', 'messages'] as const

/**
 * Puts a backup file into an empty data folder. The file is checked whole first (a file cut short
 * or altered restores nothing); the database is opened and read in a staging folder beside its
 * place, then the files and the folder are renamed into place; on any failure nothing is left.
 */
export async function restoreBackup(file: Buffer, folders: Folders): Promise<RestoreSummary> {
  const { manifest, entries } = readBackup(file)
  const known = knownMigrations()
  if (manifest.database.migrations > known) {
    throw new BackupError(`the backup's database is at migration ${manifest.database.migrations}, this version of Innera knows ${known}: restore it with the version that made it, or a newer one`)
  }
  const found = [
    ...(existsSync(folders.providerDir) && readdirSync(folders.providerDir).length > 0 ? [folders.providerDir] : []),
    ...DATA_FOLDER_FILES.filter((name) => existsSync(join(folders.dataDir, name))).map((name) => join(folders.dataDir, name)),
  ]
  if (found.length > 0) {
    throw new BackupError(`the data folder is not empty: it holds ${found.join(', ')}. A restore goes only into an empty data folder: stop Innera, move the folder aside (or use a new volume) and run the restore again`)
  }
  mkdirSync(dirname(folders.providerDir), { recursive: true })
  mkdirSync(folders.dataDir, { recursive: true })
  // Held while the restore runs: a provider started meanwhile finds the folder taken.
  const claim = await claimDataFolder(folders.providerDir, 'backup')
  const suffix = `restoring-${randomBytes(4).toString('hex')}`
  const stagedDatabase = join(dirname(folders.providerDir), `.${basename(folders.providerDir)}.${suffix}`)
  const placed: string[] = []
  try {
    const tar = await promisify(gunzip)(entries.get('database')!.data)
    const handle = await openDatabase({ dataDir: stagedDatabase, snapshot: new Blob([new Uint8Array(tar)]) })
    let counts: Record<string, number>
    try {
      const [row] = await rowsOf<Record<string, number>>(
        handle.db.execute(sql.raw(`SELECT (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations, ${COUNTED_TABLES.map((table) => `(SELECT count(*)::int FROM "${table}") AS "${table}"`).join(', ')}`)),
      )
      const { migrations, ...tables } = row!
      if (migrations !== manifest.database.migrations) throw new BackupError(`the restored database is at migration ${migrations}, its manifest says ${manifest.database.migrations}`)
      counts = tables
    } finally {
      await handle.close()
    }
    const files = [...entries.values()].filter(({ entry }) => entry.kind === 'file')
    for (const { entry } of files) {
      if (!(DATA_FOLDER_FILES as readonly string[]).includes(entry.name)) throw new BackupError(`the backup holds a file this version does not know: ${entry.name}`)
    }
    for (const { entry, data } of files) {
      writeWhole(join(folders.dataDir, entry.name), data, entry.mode ?? 0o600)
      placed.push(join(folders.dataDir, entry.name))
    }
    // An empty folder where the database goes (a volume's leftover) makes way for it.
    if (existsSync(folders.providerDir)) rmdirSync(folders.providerDir)
    renameSync(stagedDatabase, folders.providerDir)
    return { manifest, counts, files: files.map(({ entry }) => entry.name) }
  } catch (error) {
    for (const path of placed) rmSync(path, { force: true })
    throw error
  } finally {
    rmSync(stagedDatabase, { recursive: true, force: true })
    await claim.release()
  }
}

/** How many migrations this version has (its journal's entries). */
function knownMigrations(): number {
  const journal = JSON.parse(readFileSync(join(findMigrationsDir(process.env.PROVIDER_MIGRATIONS_DIR), 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
  return journal.entries.length
}
