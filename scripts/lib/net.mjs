/** Loopback helpers for the private app + provider pairs of the test suites and benchmarks. */
import { createServer } from 'node:net'

/** A port nothing listens on right now, on 127.0.0.1. */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
      server.close(() => resolve(port))
    })
  })
}

/**
 * Waits until `url` answers 2xx; fails early when `child` (the process that should answer) exits.
 * @param {string} url
 * @param {{ child?: import('node:child_process').ChildProcess, timeoutMs?: number }} [options]
 */
export async function waitFor(url, { child, timeoutMs = 90_000 } = {}) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode}) before answering`)
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok) return
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}
