import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_FLAGS, TEST_BROWSER_PATH } from './scripts/lib/chromium.mjs'

/**
 * `npm run test:faults`: the fault and security suite (e2e-faults/). Each worker runs its own
 * built app + embedded provider with a fault-injecting proxy between them (see
 * e2e-faults/support/), so it needs no web server of its own and never touches the e2e suite's.
 */
export default defineConfig({
  testDir: './e2e-faults',
  outputDir: 'test-results/faults',
  globalSetup: './e2e-faults/support/global-setup.ts',
  // Bounds against a hang, never budgets: on a busy machine a walk takes twice its quiet time.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // As the e2e suite: one retry in CI, where the two cores are shared with everything else; the
  // list reporter names every test that needed it ("flaky"), so a flake is seen, not hidden.
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  reporter: [['list']],
  use: {
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // Recording a trace of every test costs a good share of the suite's CPU: locally only (CI's
    // machine is gone when the run ends, and its output says what failed).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: TEST_BROWSER_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [{ name: 'faults', use: { ...devices['Desktop Chrome'], locale: 'pt-BR' } }],
})
