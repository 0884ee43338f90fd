import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BackupError, DATA_FOLDER_FILES, restoreBackup, saveBackupFile, takeBackup, type Folders } from '#server/backup/backup.ts'
import { claimDataFolder, controlSocketPath, DataFolderInUse, type DataFolderClaim } from '#server/backup/control.ts'
import { BackupFileError, readBackup } from '#server/backup/format.ts'
import { findMigrationsDir, openDatabase, type DatabaseHandle } from '#server/db/client.ts'
import { products, users } from '#server/db/schema.ts'
import { client, createMemoryDatabase } from '#server/testing/harness.ts'
import { startFakeStripe, type FakeStripeServer } from '#server/testing/stripe.ts'

/**
 * `npm run backup` / `npm run restore` on the embedded database (decision 0090): data written
 * through the provider's API, a backup taken from the running provider while requests write, the
 * data folder emptied, the restore, and every answer read back the same; a file cut short or
 * altered restores nothing.
 */
const root = mkdtempSync(join(tmpdir(), 'innera-backup-'))
const folders: Folders = { dataDir: join(root, 'data'), providerDir: join(root, 'data', 'provider') }
const SECRETS = { 'session-secret': 'session-key-0123456789abcdef0123456789abcdef\n', 'provider-jwt-secret': 'jwt-key-0123456789abcdef0123456789abcdef01\n' }

/** The running provider: PGlite in a folder, its control socket, and its API on a loopback port (the fake Stripe's SDK calls go there). */
type Running = { handle: DatabaseHandle; claim: DataFolderClaim; fake: FakeStripeServer; api: ReturnType<typeof client> }

async function startProvider(snapshot?: Blob): Promise<Running> {
  const handle = await openDatabase({ dataDir: folders.providerDir, ...(snapshot && { snapshot }) })
  await handle.migrate(findMigrationsDir())
  const claim = await claimDataFolder(folders.providerDir, 'provider')
  claim.serve(handle)
  const fake = await startFakeStripe(handle.db)
  return { handle, claim, fake, api: client(fake.app) }
}

async function stopProvider({ handle, claim, fake }: Running): Promise<void> {
  await fake.app.services.background.idle()
  await fake.app.services.messageBus.close()
  await fake.close()
  await claim.release()
  await handle.close()
}

const email = 'ana.backup@example.com'
const password = 'caminhada-ao-sol-7'

/** What the API answers about everything written, as each user reads it. */
async function readEverything(api: Running['api'], ids: { purchase: number; conversation: number }) {
  const ana = await api.login(email, password)
  const pedro = await api.login('paciente@innera.local')
  const paula = await api.login('profissional@innera.local')
  const thread = []
  for (let before: string | null | undefined; before !== null; ) {
    const page = await api.get(`/messages/conversations/${ids.conversation}/${before ? `?before=${before}` : ''}`, { token: paula.access })
    expect(page.status).toBe(200)
    thread.unshift(...page.json.messages)
    before = page.json.older
  }
  return {
    ana: (await api.get('/users/me/', { token: ana.access })).json,
    habits: (await api.get('/habits/', { token: pedro.access })).json,
    purchase: (await api.get(`/purchases/${ids.purchase}/`, { token: pedro.access })).json,
    conversations: (await api.get('/messages/conversations/', { token: paula.access })).json,
    // can_delete alone changes with the time (a sender deletes within 15 minutes).
    thread: thread.map(({ can_delete: _canDelete, ...message }) => message),
  }
}

let provider: Running
let backupFile: Buffer

beforeAll(async () => {
  // The running install's folder, filled from the tests' seeded snapshot (a fresh cluster takes seconds).
  const seeded = await createMemoryDatabase()
  const snapshot = await seeded.snapshot!()
  await seeded.close()
  mkdirSync(folders.dataDir, { recursive: true })
  for (const [name, value] of Object.entries(SECRETS)) writeFileSync(join(folders.dataDir, name), value, { mode: 0o600 })
  mkdirSync(join(folders.dataDir, 'backups'))
  provider = await startProvider(snapshot)
})
afterAll(async () => {
  if (provider) await stopProvider(provider).catch(() => undefined)
  rmSync(root, { recursive: true, force: true })
})

describe('a backup of the running provider, restored into an emptied data folder', () => {
  it('brings back exactly what was written, including what was written while it ran', async () => {
    const { api, handle } = provider
    // A user signs up; a patient creates a habit, buys by PIX and writes to his professional.
    expect((await api.post('/users/register/', { email, password, name: 'Ana Backup' })).status).toBe(201)
    const pedro = (await api.login('paciente@innera.local')).access
    const paulaId = (await handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local')))[0]!.id
    expect((await api.post('/habits/', { name: 'Caminhar', pillar: 'exercicio', frequency: 'daily' }, { token: pedro })).status).toBe(201)
    const [diary] = await handle.db.select({ id: products.id }).from(products).where(eq(products.slug, 'diario-do-sono'))
    const bought = await api.post('/purchases/create/', { items: [{ product_id: diary!.id, quantity: 1 }], method: 'pix', idempotency_key: 'backup-test-purchase-1' }, { token: pedro })
    expect(bought.status, bought.text).toBe(201)
    const conversation = await api.post('/messages/conversations/', { with: paulaId }, { token: pedro })
    expect(conversation.status).toBe(201)
    const ids = { purchase: bought.json.id as number, conversation: conversation.json.id as number }
    let keys = 0
    const send = (text: string) => api.post(`/messages/conversations/${ids.conversation}/messages/`, { text, idempotency_key: `backup-test-message-${++keys}` }, { token: pedro })
    expect((await send('antes')).status).toBe(201)

    // Messages sent one after another, and reads beside them, while the backup is taken. Each
    // turn lets the event loop run (as requests arriving on sockets do): in-process requests on
    // PGlite are promises alone, and would starve the control socket's connection.
    const turn = () => new Promise((resolve) => setImmediate(resolve))
    let started = 0
    let acknowledged = 0
    let stop = false
    const writing = (async () => {
      while (!stop && started < 200) {
        started += 1
        const sent = await send(`durante ${started}`)
        expect(sent.status).toBe(201)
        acknowledged += 1
        await turn()
      }
    })()
    const reading = (async () => {
      while (!stop) {
        expect((await api.get('/habits/', { token: pedro })).status).toBe(200)
        await turn()
      }
    })()
    // A writer that fails ends the wait (its rejection fails the test below).
    const writerDone = writing.then(() => true, () => true)
    while (acknowledged < 3 && !(await Promise.race([writerDone, new Promise((resolve) => setTimeout(() => resolve(false), 5))]))) continue
    const acknowledgedBefore = acknowledged
    const taken = await takeBackup(folders)
    const startedBefore = started
    stop = true
    await Promise.all([writing, reading])
    backupFile = taken.file
    expect(taken.manifest).toMatchObject({ taken_from: 'running provider', database: { engine: 'pglite' }, entries: [{ name: 'database' }, { name: 'session-secret', mode: 0o600 }, { name: 'provider-jwt-secret', mode: 0o600 }] })
    expect(taken.skipped).toEqual(['backups'])
    saveBackupFile(join(folders.dataDir, 'backups', 'one.innera-backup'), taken.file)
    expect(statSync(join(folders.dataDir, 'backups', 'one.innera-backup')).mode & 0o777).toBe(0o600)
    expect(() => saveBackupFile(join(folders.dataDir, 'backups', 'one.innera-backup'), taken.file)).toThrow(/already exists/)

    // What the backup must hold: everything up to some message sent while it ran, in order, none after it.
    const before = await readEverything(api, ids)
    const during = before.thread.map((message: { text: string }) => message.text).filter((text: string) => text.startsWith('durante'))
    expect(during).toEqual(Array.from({ length: during.length }, (_, index) => `durante ${index + 1}`))

    const usersBefore = (await handle.db.select({ id: users.id }).from(users)).length
    // The install stopped, its data folder emptied (the backups kept elsewhere), the restore.
    await stopProvider(provider)
    for (const name of readdirSync(folders.dataDir)) if (name !== 'backups') rmSync(join(folders.dataDir, name), { recursive: true })
    const restored = await restoreBackup(readFileSync(join(folders.dataDir, 'backups', 'one.innera-backup')), folders)
    expect(restored.files).toEqual(['session-secret', 'provider-jwt-secret'])
    expect(restored.counts).toMatchObject({ users: usersBefore, purchases: 1, habits: 1 })
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(readFileSync(join(folders.dataDir, name), 'utf8')).toBe(value)
      expect(statSync(join(folders.dataDir, name)).mode & 0o777).toBe(0o600)
    }
    expect(readdirSync(folders.dataDir).sort()).toEqual(['backups', 'provider', 'provider-jwt-secret', 'session-secret'])

    provider = await startProvider()
    const after = await readEverything(provider.api, ids)
    const kept = after.thread.filter((message: { text: string }) => message.text.startsWith('durante')).length
    expect(kept).toBeGreaterThanOrEqual(acknowledgedBefore)
    expect(kept).toBeLessThanOrEqual(startedBefore)
    expect(restored.counts.messages).toBe(1 + kept)
    // The copy is the database at one moment: everything before it, in order, and nothing torn.
    expect(after).toEqual({ ...before, thread: before.thread.slice(0, 1 + kept), conversations: after.conversations })
    expect(after.conversations.results.map(({ id }: { id: number }) => id)).toEqual([ids.conversation])
    expect(after.conversations.results[0].last_message.preview).toBe(kept > 0 ? `durante ${kept}` : 'antes')
    expect(after.habits.results.map(({ name }: { name: string }) => name)).toEqual(['Caminhar'])
    expect(after.purchase).toMatchObject({ id: ids.purchase, method: 'pix' })
  })

  it('refuses a file cut short or altered (header or payload) and restores nothing', async () => {
    const target: Folders = { dataDir: join(root, 'other'), providerDir: join(root, 'other', 'provider') }
    const altered = (at: number) => {
      const copy = Buffer.from(backupFile)
      copy[at] = copy[at]! ^ 0x01
      return copy
    }
    // Another hex digit in its place (a flipped bit could make it no hex digit at all: a damaged header instead).
    const otherDigit = (at: number) => {
      const copy = Buffer.from(backupFile)
      copy[at] = copy[at] === 0x30 ? 0x31 : 0x30
      return copy
    }
    const headerEnd = backupFile.indexOf(0x0a)
    const cases: [string, Buffer, RegExp][] = [
      ['cut short', backupFile.subarray(0, backupFile.byteLength - 1), /cut short: it holds \d+ of the \d+ bytes its header announces/],
      ['cut inside the header', backupFile.subarray(0, 40), /cut short: it ends inside its header/],
      ['a byte of the database changed', altered(Math.floor(backupFile.byteLength / 2)), /altered or damaged: its SHA-256 does not match/],
      ['a byte of the manifest changed', altered(headerEnd + 30), /altered or damaged/],
      ['a digit of the checksum changed', otherDigit(30), /altered or damaged/],
      ['bytes appended', Buffer.concat([backupFile, Buffer.from('x')]), /1 bytes more than its header announces/],
      ['not a backup', Buffer.from('PK\x03\x04 a zip file'), /not an Innera backup/],
    ]
    for (const [what, file, message] of cases) {
      await expect(restoreBackup(file, target), what).rejects.toThrow(BackupFileError)
      await expect(restoreBackup(file, target), what).rejects.toThrow(message)
      expect(existsSync(target.dataDir), `${what}: nothing written`).toBe(false)
    }
    // The whole file restores there.
    await restoreBackup(backupFile, target)
    expect(readdirSync(target.dataDir).sort()).toEqual(['provider', 'provider-jwt-secret', 'session-secret'])
  })

  it('refuses a data folder that holds data, and a folder a provider has open', async () => {
    // The provider of the first test runs on the restored folder.
    await expect(restoreBackup(backupFile, folders)).rejects.toThrow(BackupError)
    await expect(restoreBackup(backupFile, folders)).rejects.toThrow(/the data folder is not empty: it holds .*provider, .*session-secret, .*provider-jwt-secret\. A restore goes only into an empty data folder/)
    await expect(claimDataFolder(folders.providerDir, 'backup')).rejects.toThrow(DataFolderInUse)
    await expect(claimDataFolder(folders.providerDir, 'backup')).rejects.toThrow(/in use by a running provider/)
    // Stopped (a socket file left by a process that died is taken over), the command opens the folder itself.
    await stopProvider(provider)
    writeFileSync(controlSocketPath(folders.providerDir), '')
    const offline = await takeBackup(folders)
    expect(offline.manifest.taken_from).toBe('stopped data folder')
    expect(existsSync(controlSocketPath(folders.providerDir))).toBe(false)
    expect(readBackup(offline.file).manifest.database.migrations).toBe(readBackup(backupFile).manifest.database.migrations)
    provider = await startProvider()
  })

  it('puts the socket of a folder too deep for a socket path in the temp folder, and it still locks', async () => {
    const deep = join(root, 'd'.repeat(60), 'e'.repeat(60), 'provider')
    expect(controlSocketPath(deep).startsWith(tmpdir())).toBe(true)
    const claim = await claimDataFolder(deep, 'backup')
    await expect(claimDataFolder(deep, 'provider')).rejects.toThrow(/in use by npm run backup or restore/)
    await claim.release()
    expect(existsSync(controlSocketPath(deep))).toBe(false)
  })

  it('keeps every file npm start makes in the data folder', () => {
    const made = [...readFileSync(new URL('../../scripts/start.mjs', import.meta.url), 'utf8').matchAll(/persistentSecret\('([^']+)'\)/g)].map((match) => match[1])
    expect(new Set(made)).toEqual(new Set(DATA_FOLDER_FILES))
  })
})
