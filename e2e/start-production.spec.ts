import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort, waitFor } from '../scripts/lib/net.mjs'
import { expect, test } from './fixtures'

/**
 * `npm start` as an operator runs it in production (NODE_ENV=production, as the container sets):
 * the embedded provider's development stand-ins are off, and absolute URLs come from
 * APP_PUBLIC_URL (which `npm start` always passes), never from the request's Host.
 * The quick start's demo (NODE_ENV unset, stand-ins on) is what the rest of this suite runs.
 */
test.describe('npm start with NODE_ENV=production', () => {
  test.describe.configure({ mode: 'serial' })
  let child: ChildProcess
  let dataDir: string
  let appUrl: string
  let providerUrl: string

  test.beforeAll(async () => {
    // A fresh data folder: the provider migrates and seeds it first, which a loaded machine takes
    // well past the default 30 s for (waitFor below has its own 90 s).
    test.setTimeout(120_000)
    const [appPort, providerPort] = await Promise.all([freePort(), freePort()])
    dataDir = mkdtempSync(path.join(tmpdir(), 'innera-start-production-'))
    appUrl = `http://localhost:${appPort}`
    providerUrl = `http://127.0.0.1:${providerPort}`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      NO_BUILD: '1',
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
    }
    for (const name of ['FAKE_GOOGLE', 'DEV_MAILBOX', 'APP_PUBLIC_URL', 'PROVIDER_API_URL', 'GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'PROVIDER_PUBLIC_URL']) delete env[name]
    child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: 'ignore' })
    await waitFor(`${appUrl}/healthz`, { child, timeoutMs: 90_000 })
  })

  test.afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('the dev mailbox and the fake Google are off, and the sign-in page offers no Google button', async ({ page, request }) => {
    expect((await request.get(`${providerUrl}/dev/mailbox/`)).status()).toBe(404)
    expect((await request.get(`${providerUrl}/fake-google/certs`)).status()).toBe(404)
    await page.goto(`${appUrl}/auth?mode=login`)
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Entrar com Google' })).toHaveCount(0)
  })

  test('absolute URLs come from APP_PUBLIC_URL whatever Host the request names', async ({ request }) => {
    const forged = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' }
    const sitemap = await (await request.get(`${appUrl}/sitemap.xml`, { headers: forged })).text()
    expect(sitemap).toContain(`<loc>${appUrl}/</loc>`)
    expect(sitemap).not.toContain('evil.example')
    const robots = await (await request.get(`${appUrl}/robots.txt`, { headers: forged })).text()
    expect(robots).toContain(`Sitemap: ${appUrl}/sitemap.xml`)
    expect(robots).not.toContain('evil.example')
    const home = await (await request.get(`${appUrl}/`, { headers: forged })).text()
    expect(home).toContain(`href="${appUrl}/?lng=en"`)
    expect(home).not.toContain('evil.example')
  })

  test('the scripts carry no licence notice of their own: they name the one file that has them all (decision 0093)', async ({ request }) => {
    const home = await (await request.get(`${appUrl}/`)).text()
    const scripts = [...new Set([...home.matchAll(/"(\/assets\/[\w.-]+\.js)"/g)].map((match) => match[1]))]
    expect(scripts.length).toBeGreaterThan(3)
    const bodies = await Promise.all(scripts.map(async (script) => (await request.get(`${appUrl}${script}`)).text()))
    expect(bodies.filter((body) => body.includes('@license'))).toEqual([])
    expect(bodies.filter((body) => body.startsWith('/*! Licences: /third-party-licenses.txt */')).length).toBeGreaterThan(0)
    const notices = await request.get(`${appUrl}/third-party-licenses.txt`)
    expect(notices.status()).toBe(200)
    const text = await notices.text()
    for (const library of ['@license React', 'react-dom.production.min.js', '@remix-run/react', 'React Router']) expect(text).toContain(library)
  })
})
