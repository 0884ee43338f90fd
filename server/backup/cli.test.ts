import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { controlSocketPath } from '#server/backup/control.ts'
import { openDatabase } from '#server/db/client.ts'
import { createMemoryDatabase } from '#server/testing/harness.ts'

/**
 * `npm run backup` and `npm run restore` as an operator runs them (scripts/backup.mjs), against
 * the provider process itself (server/main.ts): its control socket, the folder's lock, the
 * messages and exit codes (decision 0090).
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const folder = mkdtempSync(join(tmpdir(), 'innera-backup-cli-'))
const dataDir = join(folder, 'data')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** A process to its end: exit code and everything it wrote. */
function finish(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => resolve({ code, output }))
  })
}
const npmRun = (args: string[], env: Record<string, string> = {}) => finish(process.execPath, ['scripts/backup.mjs', ...args], env)

describe('npm run backup and npm run restore', () => {
  it('back up the running provider, keep a second one off its folder, and restore only a whole file into an empty folder', async () => {
    // The install's folder, from the tests' seeded snapshot.
    const seeded = await createMemoryDatabase()
    const snapshot = await seeded.snapshot!()
    await seeded.close()
    await (await openDatabase({ dataDir: join(dataDir, 'provider'), snapshot })).close()
    writeFileSync(join(dataDir, 'provider-jwt-secret'), 'cli-test-jwt-secret-0123456789abcdef\n', { mode: 0o600 })

    const env = { PROVIDER_DATA_DIR: join(dataDir, 'provider'), PROVIDER_PORT: String(await freePort()), PROVIDER_JWT_SECRET: 'cli-test-jwt-secret-0123456789abcdef' }
    const provider = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    provider.stdout.on('data', (chunk) => (output += chunk))
    provider.stderr.on('data', (chunk) => (output += chunk))
    const exited = new Promise<number | null>((resolve) => provider.once('exit', resolve))
    try {
      await new Promise<void>((resolve, reject) => {
        provider.stdout.on('data', () => output.includes('provider listening on ') && resolve())
        void exited.then((code) => reject(new Error(`provider exited with ${code}: ${output}`)))
      })
      const second = await finish(process.execPath, ['--import', 'tsx', 'server/main.ts'], { ...env, PROVIDER_PORT: String(await freePort()) })
      expect(second.code).toBe(1)
      expect(second.output).toContain('is in use by a running provider')

      const backup = await npmRun(['backup', '--out', join(folder, 'kept', 'one.innera-backup')], { DATA_DIR: dataDir })
      expect(backup.code, backup.output).toBe(0)
      expect(backup.output).toMatch(/backup of .* \(from the running provider, database at migration \d+\): database, provider-jwt-secret; [\d.]+ MB in [\d.]+ s/)
      expect((await npmRun(['backup', '--out', join(folder, 'kept', 'one.innera-backup')], { DATA_DIR: dataDir })).output).toContain('already exists')
    } finally {
      provider.kill('SIGTERM')
      await exited
    }
    expect(existsSync(controlSocketPath(join(dataDir, 'provider')))).toBe(false)

    const file = readFileSync(join(folder, 'kept', 'one.innera-backup'))
    writeFileSync(join(folder, 'cut.innera-backup'), file.subarray(0, file.byteLength - 100))
    const cut = await npmRun(['restore', join(folder, 'cut.innera-backup'), '--data-dir', join(folder, 'restored')])
    expect(cut.code).toBe(1)
    expect(cut.output).toMatch(/restore refused: .*cut\.innera-backup is not a whole Innera backup: it is cut short: .*\. Nothing was restored\./)
    expect(existsSync(join(folder, 'restored'))).toBe(false)

    const restore = await npmRun(['restore', join(folder, 'kept', 'one.innera-backup'), '--data-dir', join(folder, 'restored')])
    expect(restore.code, restore.output).toBe(0)
    expect(restore.output).toMatch(/restored the backup of \S+ into .*restored: the database \(\d+ users, .*\) and provider-jwt-secret/)
    expect(readFileSync(join(folder, 'restored', 'provider-jwt-secret'), 'utf8')).toBe('cli-test-jwt-secret-0123456789abcdef\n')

    const postgres = await npmRun(['backup', '--out', join(folder, 'pg.innera-backup')], { DATABASE_URL: 'postgres://someone@db.example/innera' })
    expect(postgres.code).toBe(1)
    expect(postgres.output).toContain('back it up with pg_dump')
    expect((await npmRun(['backup'])).code).toBe(2)
  })
})
