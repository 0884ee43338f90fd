/** Server-rendering throughput with autocannon: requests per second, latency, errors, memory. */
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { residentMemory } from './lib/instance.mjs'

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

/** name=value pairs of a Cookie header. */
const parseCookies = (header) => new Map(header ? header.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]) : [])

/**
 * Each connection keeps its cookies as a browser does: it starts with `cookie` and takes every
 * Set-Cookie the app answers with (a refreshed session, the stored user confirmed), so a long run
 * measures what real visitors cost, not one frozen session growing stale.
 */
function browserLikeRequests(cookie, headers = {}) {
  return [
    {
      setupRequest(request, context) {
        context.jar ??= parseCookies(cookie)
        if (context.jar.size === 0) return { ...request, headers: { ...request.headers, ...headers } }
        return { ...request, headers: { ...request.headers, ...headers, cookie: [...context.jar].map(([name, value]) => `${name}=${value}`).join('; ') } }
      },
      onResponse(_status, _body, context, headers) {
        const key = Object.keys(headers).find((name) => name.toLowerCase() === 'set-cookie')
        if (!key) return
        for (const line of [headers[key]].flat()) {
          const pair = String(line).split(';')[0]
          const index = pair.indexOf('=')
          const name = pair.slice(0, index)
          const value = pair.slice(index + 1)
          if (/max-age=0|expires=thu, 01 jan 1970/i.test(String(line))) context.jar.delete(name)
          else context.jar.set(name, value)
        }
      },
    },
  ]
}

/**
 * @param {{ url: string, cookie?: string, headers?: Record<string, string>, connections: number, durationSeconds: number,
 *   pids?: Record<string, number>, memoryOf?: number }} options `memoryOf`: a PID whose resident
 *   memory is sampled every second of the run (`memoryMiB` in the result); `headers`: sent with
 *   every request (a Range, say).
 */
export async function measureThroughput({ url, cookie, headers, connections, durationSeconds, pids = {}, memoryOf }) {
  // Signed in or not, every run goes through the same jar, so the load generator does the same
  // work per request on both sides of a ratio (with a setupRequest, autocannon rebuilds each
  // request; without one it resends a prepared buffer, which made signed-out runs look cheaper).
  const requests = browserLikeRequests(cookie ?? '', headers)
  // Warm-up: JIT, connection pools, the provider's caches.
  await run({ url, connections: Math.min(10, connections), duration: 2, requests })
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]))
  const memoryMiB = []
  const sampler = memoryOf ? setInterval(() => memoryMiB.push(Math.round((residentMemory(memoryOf) / 2 ** 20) * 10) / 10), 1_000) : null
  const result = await run({ url, connections, duration: durationSeconds, requests, timeout: 10 }).finally(() => sampler && clearInterval(sampler))
  // Where the machine's time went: CPU milliseconds each process spent per request served.
  const cpuPerRequestMs = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, Math.round(((cpuMs(pid) - before[name]) / Math.max(1, result.requests.total)) * 100) / 100]),
  )
  return {
    url: new URL(url).pathname,
    connections,
    durationSeconds,
    requestsPerSecond: result.requests.average,
    bytesPerSecond: result.throughput.average,
    requests: result.requests.total,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    cpuPerRequestMs,
    ...(memoryOf ? { memoryMiB } : {}),
  }
}

/**
 * Whether memory levelled off: the least-squares slope over the last `seconds` samples, as growth
 * over that window relative to its mean (0.05 = grew 5 %).
 */
export function memoryTrend(samples, seconds = 30) {
  const tail = samples.slice(-seconds)
  const n = tail.length
  if (n < 2) return { growth: 0, mean: tail[0] ?? 0, min: tail[0] ?? 0, max: tail[0] ?? 0 }
  const meanX = (n - 1) / 2
  const mean = tail.reduce((sum, value) => sum + value, 0) / n
  let numerator = 0
  let denominator = 0
  tail.forEach((value, x) => {
    numerator += (x - meanX) * (value - mean)
    denominator += (x - meanX) ** 2
  })
  const slopePerSecond = numerator / denominator
  return { growth: (slopePerSecond * (n - 1)) / mean, mean, min: Math.min(...tail), max: Math.max(...tail) }
}

/**
 * Where one request's time goes in the app: `amount` requests one after another (so a stage's time
 * is its CPU: nothing else runs meanwhile), the app's CPU per request, and each timed stage's mean
 * (the HTTP layer's middlewares, the nonce, locale detection, session reading: see
 * app/http/stage-costs.server.ts). What no stage names is Remix and the page's own work.
 */
export async function measureStageCosts({ baseURL, path, cookie, appPid, amount = 400 }) {
  const requests = browserLikeRequests(cookie ?? '')
  await run({ url: `${baseURL}${path}`, connections: 1, amount: 50, requests })
  await fetch(`${baseURL}/bench/costs?reset=1`)
  const before = cpuMs(appPid)
  const result = await run({ url: `${baseURL}${path}`, connections: 1, amount, requests })
  const cpuPerRequestUs = Math.round(((cpuMs(appPid) - before) * 1000) / Math.max(1, result.requests.total))
  const stages = await (await fetch(`${baseURL}/bench/costs?reset=1`)).json()
  const timed = Object.values(stages).reduce((sum, stage) => sum + (stage.microsPerRequest * stage.count) / Math.max(1, result.requests.total), 0)
  return { path, requests: result.requests.total, non2xx: result.non2xx, cpuPerRequestUs, stages, restUs: Math.max(0, Math.round(cpuPerRequestUs - timed)) }
}
