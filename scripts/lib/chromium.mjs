import { existsSync } from 'node:fs'

/**
 * Debian's Chromium as every browser run here starts it (Playwright suites, benchmarks): as root,
 * headless, and with nothing that reaches for the network this machine does not have.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * The browser the Playwright suites drive: Debian's chromium-headless-shell, the same Blink and V8
 * as Chromium without the desktop browser around them (what Playwright itself runs headless). The
 * browsers are most of the suites' CPU; with the shell and axe's lighter options the e2e suite took
 * 701 s instead of 1238 and the fault suite 275 s instead of 669 (decision 0069). CHROMIUM_PATH,
 * when set, wins; without the shell the full Chromium is used.
 */
const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell'
export const TEST_BROWSER_PATH = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH)

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
