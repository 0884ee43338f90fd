import { defineConfig, devices } from '@playwright/test'

/**
 * `npm run test:faults`: the fault and security suite (e2e-faults/). Each worker runs its own
 * built app + embedded provider with a fault-injecting proxy between them (see
 * e2e-faults/support/), so it needs no web server of its own and never touches the e2e suite's.
 */
export default defineConfig({
  testDir: './e2e-faults',
  outputDir: 'test-results/faults',
  globalSetup: './e2e-faults/support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  reporter: [['list']],
  use: {
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'faults', use: { ...devices['Desktop Chrome'], locale: 'pt-BR' } }],
})
