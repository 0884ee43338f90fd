/** Server-rendering throughput with autocannon: requests per second, latency, errors. */
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc/PID/stat. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND
}

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

export async function measureThroughput({ url, cookie, connections, durationSeconds, pids = {} }) {
  const headers = cookie ? { cookie } : {}
  // Warm-up: JIT, connection pools, the provider's caches.
  await run({ url, connections: Math.min(10, connections), duration: 2, headers })
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]))
  const result = await run({ url, connections, duration: durationSeconds, headers, timeout: 10 })
  // Where the machine's time went: CPU milliseconds each process spent per request served.
  const cpuPerRequestMs = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuMs(pid) - before[name]) / Math.max(1, result.requests.total)) * 100) / 100]),
  )
  return {
    url: new URL(url).pathname,
    connections,
    durationSeconds,
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpuPerRequestMs,
  }
}
