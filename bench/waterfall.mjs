/**
 * The provider waterfall of signed-in pages (/dashboard, the booking page): time to first byte with
 * every provider response delayed, against one provider round trip plus the bare route's (or the
 * floor's) time to first byte. A page
 * whose provider calls run in parallel scores about 1; each call made in series adds about one more
 * delay. The provider logs one line per request with the request id the app forwards, so the calls
 * of each measured page are counted exactly.
 */
import http from 'node:http'

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })

/** Milliseconds until the response's first byte (status line and headers). */
export function timeToFirstByte(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const request = http.get(url, { agent, headers, timeout: 15_000 }, (response) => {
      const ttfb = performance.now() - started
      response.resume()
      response.on('end', () => resolve({ ttfb, status: response.statusCode, requestId: response.headers['x-request-id'] }))
      response.on('error', reject)
    })
    request.on('timeout', () => request.destroy(new Error(`${url}: timed out`)))
    request.on('error', reject)
  })
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** The access token inside the signed (not encrypted) session cookie. */
export function accessTokenOf(cookieHeader) {
  const session = cookieHeader.split('; ').find((pair) => pair.startsWith('__session='))
  const payload = decodeURIComponent(session.slice('__session='.length)).split('.')[0]
  return JSON.parse(Buffer.from(payload, 'base64').toString('utf8')).access
}

/**
 * @param {{ instance: object, floorURL?: string, pages: Record<string, { path: string, cookie: string }>, runs: number, delayMs: number }} options
 *   Each page's TTFB is judged against one provider round trip plus the bare route's TTFB (and, when
 *   `floorURL` is given, plus the floor's: the bare Remix app outside this one).
 */
export async function measureWaterfall({ instance, floorURL, pages, runs, delayMs }) {
  const { baseURL, providerURL } = instance
  const access = accessTokenOf(Object.values(pages)[0].cookie)
  // All are sampled in turn (not one series after another), so that a burst of load from
  // elsewhere on the machine falls on all alike.
  const targets = {
    provider: [`${providerURL}users/me/`, { Authorization: `Bearer ${access}` }],
    bare: [`${baseURL}/bench/bare`, {}],
    ...(floorURL ? { floor: [`${floorURL}/`, {}] } : {}),
    ...Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, [`${baseURL}${page.path}`, { Cookie: page.cookie }]])),
  }
  const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, { times: [], ids: [] }]))
  for (let index = -3; index < runs; index += 1) {
    for (const [name, [url, headers]] of Object.entries(targets)) {
      const { ttfb, status, requestId } = await timeToFirstByte(url, headers)
      if (status !== 200) throw new Error(`${url} answered ${status}`)
      if (index < 0) continue // warm-up
      samples[name].times.push(ttfb)
      samples[name].ids.push(requestId)
    }
  }
  const summary = ({ times, ids }) => ({ median: median(times), min: Math.min(...times), max: Math.max(...times), ids })
  const provider = summary(samples.provider)
  const bare = summary(samples.bare)
  const floor = floorURL ? summary(samples.floor) : null

  // Give the provider a moment to write its last lines, then count the calls of each page request.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const lines = instance
    .read('providerOut')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
  const callsOf = (id) => lines.filter((line) => line.msg === 'request' && line.request_id === id)
  const bareCalls = bare.ids.map((id) => callsOf(id).length)

  const measured = Object.fromEntries(
    Object.keys(pages).map((name) => {
      const page = summary(samples[name])
      const perRequest = page.ids.map((id) => callsOf(id))
      const counts = perRequest.map((calls) => calls.length)
      return [
        name,
        {
          ttfbMs: round(page.median),
          ttfbRangeMs: [round(page.min), round(page.max)],
          ratio: round(page.median / (provider.median + bare.median), 3),
          ...(floor ? { ratioToFloor: round(page.median / (provider.median + floor.median), 3) } : {}),
          providerCallsPerRequest: { median: median(counts), min: Math.min(...counts), max: Math.max(...counts), paths: [...new Set(perRequest.flat().map((call) => `${call.method} ${call.path}`))] },
        },
      ]
    }),
  )
  return {
    delayMs,
    runs,
    providerRoundTripMs: round(provider.median),
    bareTtfbMs: round(bare.median),
    ...(floor ? { floorTtfbMs: round(floor.median) } : {}),
    pages: measured,
    bareProviderCalls: Math.max(...bareCalls),
  }
}

const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits
