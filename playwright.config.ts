import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, TEST_BROWSER_PATH } from './scripts/lib/chromium.mjs'

/** A free loopback port, asked of the OS synchronously (the config must be synchronous). */
function freePort(): string {
  return execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString()
}

// Chosen once in the runner; workers inherit them through the environment.
process.env.E2E_APP_PORT ??= freePort()
process.env.E2E_PROVIDER_PORT ??= freePort()
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'innera-e2e-'))

const appUrl = `http://localhost:${process.env.E2E_APP_PORT}`
const providerUrl = `http://127.0.0.1:${process.env.E2E_PROVIDER_PORT}`

export default defineConfig({
  testDir: './e2e',
  // Bounds against a hang, never budgets: on a busy machine a walk takes twice its quiet time.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: appUrl,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // Recording a trace of every test costs a good share of the suite's CPU; CI retries a failed
    // test once, and that retry records one.
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: TEST_BROWSER_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    // @mobile: also on a phone; @small-screen: on a phone only (the desktop project skips it).
    { name: 'chromium', use: { ...devices['Desktop Chrome'], locale: 'pt-BR' }, grepInvert: /@small-screen/ },
    { name: 'mobile', use: { ...devices['Pixel 5'], viewport: { width: 360, height: 740 }, locale: 'pt-BR' }, grep: /@mobile|@small-screen/ },
  ],
  webServer: {
    // The built app and a fresh embedded provider with a throwaway database.
    command: 'node scripts/start.mjs',
    url: `${appUrl}/healthz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: process.env.E2E_APP_PORT,
      PROVIDER_PORT: process.env.E2E_PROVIDER_PORT,
      DATA_DIR: process.env.E2E_DATA_DIR,
      APP_PUBLIC_URL: appUrl,
      PROVIDER_PUBLIC_URL: providerUrl,
      LOG_LEVEL: 'error',
      THROTTLE_DISABLED: '1',
      // Confirmations and notices reach the development mailbox within a second.
      REMINDER_TICK_MS: '1000',
      SUBSCRIPTIONS_TICK_MS: '1000',
      // Messages about one appointment collapse while they wait (decision 0035): a walk that books,
      // moves and cancels is told once, however slowly this machine runs it.
      MAIL_COLLAPSE_MS: '3600000',
    },
  },
})
