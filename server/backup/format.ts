import { createHash } from 'node:crypto'

/**
 * The backup file of an install on the embedded database (decision 0090): one header line that
 * names the format and carries the SHA-256 and length of everything after it, then the manifest
 * (one line of JSON), then the entries' bytes in the manifest's order. Any byte cut off or
 * changed, header included, makes the file fail `readBackup` before anything is written.
 *
 *   INNERA-BACKUP 1 sha256=<64 hex> bytes=<n>\n
 *   {"format":1,…,"entries":[{"name":"database",…},{"name":"session-secret",…}]}\n
 *   <database: PGlite's data folder as a gzipped tar><session-secret>…
 */
export const MAGIC = 'INNERA-BACKUP'
export const FORMAT_VERSION = 1
/** What a header line may take at most: a longer first line is not a header. */
const HEADER_LIMIT = 200

export type BackupEntry = {
  /** 'database' (PGlite's data folder, `kind: 'pglite-data-dir'`) or a file of the data folder by its name. */
  name: string
  kind: 'pglite-data-dir' | 'file'
  bytes: number
  /** A file's permissions (the secrets are 0600), as restored. */
  mode?: number
}

export type BackupManifest = {
  format: typeof FORMAT_VERSION
  product: 'innera'
  created_at: string
  /** 'running provider': dumped inside the provider that holds the folder; 'stopped data folder': opened by the command. */
  taken_from: 'running provider' | 'stopped data folder'
  database: { engine: 'pglite'; server_version: string; compression: 'gzip'; migrations: number }
  entries: BackupEntry[]
}

/** A backup file that is not one, is cut short, altered, or of a format this version cannot read. */
export class BackupFileError extends Error {
  override name = 'BackupFileError'
}

export function writeBackup(manifest: Omit<BackupManifest, 'entries' | 'format' | 'product'>, entries: { entry: Omit<BackupEntry, 'bytes'>; data: Uint8Array }[]): Buffer {
  const full: BackupManifest = { format: FORMAT_VERSION, product: 'innera', ...manifest, entries: entries.map(({ entry, data }) => ({ ...entry, bytes: data.byteLength })) }
  const body = Buffer.concat([Buffer.from(`${JSON.stringify(full)}\n`, 'utf8'), ...entries.map(({ data }) => data)])
  const sha256 = createHash('sha256').update(body).digest('hex')
  return Buffer.concat([Buffer.from(`${MAGIC} ${FORMAT_VERSION} sha256=${sha256} bytes=${body.byteLength}\n`, 'ascii'), body])
}

export type ReadBackup = { manifest: BackupManifest; entries: Map<string, { entry: BackupEntry; data: Buffer }> }

/** The manifest and the entries of a whole, unaltered backup file; else a BackupFileError that says what is wrong. */
export function readBackup(file: Buffer): ReadBackup {
  const newline = file.subarray(0, HEADER_LIMIT).indexOf(0x0a)
  const headerText = file.subarray(0, newline === -1 ? Math.min(file.byteLength, HEADER_LIMIT) : newline).toString('latin1')
  if (!headerText.startsWith(`${MAGIC} `)) {
    throw new BackupFileError(file.byteLength === 0 ? 'the file is empty' : `it is not an Innera backup (it does not begin with "${MAGIC}")`)
  }
  const header = /^INNERA-BACKUP (\d+) sha256=([0-9a-f]{64}) bytes=(\d+)$/.exec(headerText)
  if (newline === -1 || !header) {
    const version = /^INNERA-BACKUP (\d+) /.exec(headerText)?.[1]
    if (version && Number(version) > FORMAT_VERSION) throw new BackupFileError(`it is in backup format ${version}, made by a newer Innera; this one reads format ${FORMAT_VERSION}`)
    throw new BackupFileError(newline === -1 && file.byteLength < HEADER_LIMIT ? 'it is cut short: it ends inside its header' : 'its header is damaged')
  }
  if (Number(header[1]) !== FORMAT_VERSION) throw new BackupFileError(`it is in backup format ${header[1]}; this version of Innera reads format ${FORMAT_VERSION}`)
  const body = file.subarray(newline + 1)
  const announced = Number(header[3])
  if (body.byteLength < announced) throw new BackupFileError(`it is cut short: it holds ${body.byteLength} of the ${announced} bytes its header announces`)
  if (body.byteLength > announced) throw new BackupFileError(`it has ${body.byteLength - announced} bytes more than its header announces (altered, or another file appended)`)
  const sha256 = createHash('sha256').update(body).digest('hex')
  if (sha256 !== header[2]) throw new BackupFileError('it was altered or damaged: its SHA-256 does not match the one in its header')

  // Past the checksum, the file is as written; what follows guards against a writer's bug, not damage.
  const manifestEnd = body.indexOf(0x0a)
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(body.subarray(0, manifestEnd).toString('utf8')) as BackupManifest
  } catch {
    throw new BackupFileError('its manifest is not JSON')
  }
  if (manifest.format !== FORMAT_VERSION || manifest.product !== 'innera' || !Array.isArray(manifest.entries)) throw new BackupFileError('its manifest is not an Innera backup manifest')
  const entries = new Map<string, { entry: BackupEntry; data: Buffer }>()
  let offset = manifestEnd + 1
  for (const entry of manifest.entries) {
    if (!Number.isSafeInteger(entry.bytes) || entry.bytes < 0 || offset + entry.bytes > body.byteLength) throw new BackupFileError(`its manifest's entry "${String(entry.name)}" runs past the end`)
    entries.set(entry.name, { entry, data: body.subarray(offset, offset + entry.bytes) })
    offset += entry.bytes
  }
  if (offset !== body.byteLength) throw new BackupFileError("its entries do not add up to the file's length")
  if (entries.get('database')?.entry.kind !== 'pglite-data-dir') throw new BackupFileError('it holds no database')
  return { manifest, entries }
}
