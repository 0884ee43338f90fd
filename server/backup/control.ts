import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import { sql } from 'drizzle-orm'
import { rowsOf, type DatabaseHandle } from '#server/db/client.ts'

/**
 * The data folder's control socket (decision 0090): a Unix socket beside PGlite's folder
 * (`/data/provider.sock` for `/data/provider`), held by whichever process has the folder open.
 * It is the folder's lock (a second provider, or `npm run backup` on a stopped install, finds it
 * answering and keeps off) and the way `npm run backup` asks the running provider for a dump.
 * Only the folder's owner can connect (mode 0600): never a network port, no token to leak.
 */
export function controlSocketPath(providerDataDir: string): string {
  const beside = `${resolve(providerDataDir)}.sock`
  // A Unix socket's path has about 100 bytes (the rest is cut off silently): a deeper folder's
  // socket goes to the temp folder, named by the folder's path, where both sides find it.
  if (Buffer.byteLength(beside) <= 100) return beside
  return join(tmpdir(), `innera-${createHash('sha256').update(beside).digest('hex').slice(0, 24)}.sock`)
}

/** Who holds a data folder, as its control socket says. */
export type Holder = 'provider' | 'backup'

export class DataFolderInUse extends Error {
  override name = 'DataFolderInUse'
  constructor(
    readonly folder: string,
    readonly holder: string,
    advice = 'two processes on one PGlite folder would corrupt it',
  ) {
    const who = holder === 'provider' ? 'a running provider' : holder === 'backup' ? 'npm run backup or restore' : holder === 'another user' ? "a process of another user (its control socket refuses this one)" : 'another process'
    super(`the data folder ${folder} is in use by ${who} (control socket ${controlSocketPath(folder)}): ${advice}`)
  }
}

/** The database as a backup holds it: the cluster as a gzipped tar, with what the manifest says of it. */
export type DatabaseDump = { data: Buffer; serverVersion: string; migrations: number }

/** A consistent dump of an open PGlite (its snapshot waits for the transaction in progress). */
export async function dumpDatabase(handle: DatabaseHandle): Promise<DatabaseDump> {
  if (!handle.snapshot) throw new Error('only the embedded database (PGlite) is dumped this way; PostgreSQL has pg_dump')
  const [about] = await rowsOf<{ version: string; migrations: number }>(
    handle.db.execute(sql`SELECT version() AS version, (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations`),
  )
  const tar = await handle.snapshot()
  // Compressed after the lock is let go (zlib works on its own thread): requests wait only for the copy.
  const data = await promisify(gzip)(Buffer.from(await tar.arrayBuffer()))
  return { data, serverVersion: about!.version, migrations: about!.migrations }
}

/** A request line is short; a client that sends none within this long is dropped. */
const REQUEST_TIMEOUT_MS = 5_000

/** Sends `request` to the control socket and gives back the answer's first line and what follows it; undefined when nobody listens. */
export function askControlSocket(path: string, request: string, timeoutMs = 120_000): Promise<{ line: string; rest: Buffer } | undefined> {
  return new Promise((resolvePromise, reject) => {
    const socket = createConnection(path)
    const chunks: Buffer[] = []
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`the control socket ${path} did not answer within ${timeoutMs / 1000} s`)))
    socket.on('connect', () => socket.end(`${request}\n`))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('end', () => {
      const all = Buffer.concat(chunks)
      const newline = all.indexOf(0x0a)
      resolvePromise({ line: all.subarray(0, newline === -1 ? all.byteLength : newline).toString('utf8'), rest: all.subarray(newline === -1 ? all.byteLength : newline + 1) })
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (chunks.length === 0 && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) resolvePromise(undefined)
      else if (error.code === 'EACCES') reject(new DataFolderInUse(path.replace(/\.sock$/, ''), 'another user', 'run the command as the user that runs Innera (in the container, docker exec without -u)'))
      else reject(error)
    })
  })
}

export type DataFolderClaim = {
  path: string
  /** From now on `DUMP` answers with a dump of this database (until then: not ready). */
  serve(handle: DatabaseHandle): void
  release(): Promise<void>
}

/**
 * Takes a PGlite folder's control socket, or fails with DataFolderInUse when another process
 * answers on it. A socket file left by a process that died is taken over.
 */
export async function claimDataFolder(providerDataDir: string, holder: Holder): Promise<DataFolderClaim> {
  const path = controlSocketPath(providerDataDir)
  let handle: DatabaseHandle | undefined
  let dumping: Promise<DatabaseDump> | undefined
  // Half-open: the client ends its side after its request line, and the answer follows.
  const server = createServer({ allowHalfOpen: true }, (socket) => answer(socket))

  function answer(socket: Socket) {
    let request = ''
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy())
    socket.on('error', () => undefined)
    socket.on('data', (chunk: Buffer) => {
      request += chunk.toString('utf8')
      if (request.length > 64) socket.destroy()
    })
    socket.on('end', () => {
      socket.setTimeout(0)
      const command = request.trim()
      if (command === 'WHO') return void socket.end(`${holder} ${process.pid}\n`)
      if (command !== 'DUMP') return void socket.end('ERR unknown request\n')
      if (holder !== 'provider') return void socket.end(`BUSY ${holder} holds this data folder\n`)
      if (!handle) return void socket.end('BUSY the provider is starting (opening the database, migrating); try again in a moment\n')
      // Two backups asked at once share one dump.
      dumping ??= dumpDatabase(handle).finally(() => (dumping = undefined))
      dumping.then(
        ({ data, serverVersion, migrations }) => {
          socket.write(`OK ${JSON.stringify({ bytes: data.byteLength, server_version: serverVersion, migrations })}\n`)
          socket.end(data)
        },
        (error: unknown) => socket.end(`ERR the dump failed: ${error instanceof Error ? error.message : String(error)}\n`.replace(/\n(?!$)/g, ' ')),
      )
    })
  }

  const listen = () =>
    new Promise<void>((resolvePromise, reject) => {
      const onError = (error: Error) => reject(error)
      server.once('error', onError)
      server.listen({ path, readableAll: false, writableAll: false }, () => {
        server.off('error', onError)
        resolvePromise()
      })
    })
  mkdirSync(dirname(path), { recursive: true })
  try {
    await listen()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    const who = await askControlSocket(path, 'WHO', 5_000).catch(() => ({ line: 'another process', rest: Buffer.alloc(0) }))
    if (who) throw new DataFolderInUse(resolve(providerDataDir), who.line.split(' ')[0]!)
    rmSync(path, { force: true })
    await listen()
  }
  chmodSync(path, 0o600)
  return {
    path,
    serve: (served) => void (handle = served),
    release: () => closeServer(server, path),
  }
}

function closeServer(server: Server, path: string): Promise<void> {
  return new Promise((resolvePromise) => {
    // The socket file goes first, so no new client finds it; the answers under way finish.
    rmSync(path, { force: true })
    server.close(() => resolvePromise())
  })
}
