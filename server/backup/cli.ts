/**
 * `npm run backup -- --out FILE` and `npm run restore -- FILE` (scripts/backup.mjs runs this, from
 * the sources or as build/provider/backup.js; decision 0090). Both take `--data-dir DIR` (else
 * DATA_DIR, else ./data); the database is in PROVIDER_DATA_DIR, else `<data folder>/provider`.
 * Messages go to stderr, so `--out -` can write the backup to stdout.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { DataFolderInUse } from '#server/backup/control.ts'
import { BackupError, restoreBackup, saveBackupFile, takeBackup, type Folders } from '#server/backup/backup.ts'
import { BackupFileError } from '#server/backup/format.ts'

const USAGE = `usage: npm run backup -- --out FILE [--data-dir DIR]     (FILE "-" writes to stdout)
       npm run restore -- FILE [--data-dir DIR]`

const say = (message: string) => process.stderr.write(`[innera] ${message}\n`)

/** Paths as the operator typed them: npm runs scripts in the package's folder, INIT_CWD is where they were. */
const fromCaller = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path)

function folders(dataDirOption: string | undefined): Folders {
  const dataDir = dataDirOption ? fromCaller(dataDirOption) : resolve(process.env.DATA_DIR || 'data')
  return { dataDir, providerDir: process.env.PROVIDER_DATA_DIR ? resolve(process.env.PROVIDER_DATA_DIR) : join(dataDir, 'provider') }
}

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  const { values, positionals } = parseArgs({ args: rest, options: { out: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: true })
  if (values.help || (command !== 'backup' && command !== 'restore')) {
    say(USAGE)
    return values.help ? 0 : 2
  }
  if (process.env.DATABASE_URL) {
    say('this install keeps its data in PostgreSQL (DATABASE_URL is set): back it up with pg_dump and restore it with pg_restore, as docs/operations.md ("Backups on PostgreSQL") says.')
    return 1
  }
  const where = folders(values['data-dir'])
  if (command === 'backup') {
    if (!values.out || positionals.length > 0) {
      say(USAGE)
      return 2
    }
    const started = performance.now()
    const { file, manifest, skipped } = await takeBackup(where)
    if (values.out === '-') process.stdout.write(file)
    else saveBackupFile(fromCaller(values.out), file)
    const names = manifest.entries.map((entry) => entry.name).join(', ')
    say(`backup of ${where.dataDir} (from the ${manifest.taken_from}, database at migration ${manifest.database.migrations}): ${names}; ${megabytes(file.byteLength)} in ${((performance.now() - started) / 1000).toFixed(1)} s${values.out === '-' ? '' : ` → ${fromCaller(values.out)}`}`)
    say('it holds the accounts, their health data and the install\'s keys: keep it as you keep the data folder (it is written readable by you only).')
    if (skipped.length > 0) say(`not in the backup (not Innera's): ${skipped.join(', ')}`)
    return 0
  }
  if (positionals.length !== 1 || values.out) {
    say(USAGE)
    return 2
  }
  const path = fromCaller(positionals[0]!)
  let file: Buffer
  try {
    file = readFileSync(path)
  } catch (error) {
    throw new BackupError(`cannot read ${path}: ${(error as Error).message}`)
  }
  let restored: Awaited<ReturnType<typeof restoreBackup>>
  try {
    restored = await restoreBackup(file, where)
  } catch (error) {
    if (error instanceof BackupFileError) throw new BackupError(`${path} is not a whole Innera backup: ${error.message}`)
    throw error
  }
  const { manifest, counts, files } = restored
  const tally = Object.entries(counts).map(([table, count]) => `${count} ${table}`).join(', ')
  say(`restored the backup of ${manifest.created_at} into ${where.dataDir}: the database (${tally}) and ${files.length > 0 ? files.join(', ') : 'no secret files'}. Start Innera on it as before.`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const restore = process.argv[2] === 'restore'
    const known = error instanceof BackupError || error instanceof DataFolderInUse
    const message = error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error)
    say(restore ? `restore refused: ${message}. Nothing was restored.` : `backup failed: ${message}`)
    process.exitCode = 1
  },
)
