/**
 * Lighthouse 12.8.2 with its default (mobile) configuration on Debian's Chromium. The browser can
 * reach only the loopback app: every host name resolves to nothing and any other address goes to a
 * proxy that does not exist (loopback bypasses proxies).
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../scripts/lib/chromium.mjs'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']

export async function measureLighthouse({ baseURL, pages, runs = 1, attempts = 3 }) {
  const results = {}
  for (const page of pages) {
    const all = []
    for (let run = 0; run < runs; run += 1) {
      // A run can fail to record its trace on a busy machine (NO_NAVSTART, NO_FCP): try again, a few times.
      for (let attempt = 1; ; attempt += 1) {
        try {
          all.push(await audit(baseURL, page))
          break
        } catch (error) {
          if (attempt >= attempts) throw error
          console.error(`[bench] Lighthouse ${page.path}: ${error.message}; trying again`)
        }
      }
    }
    // The performance score moves with the machine's load: keep the run with the median one.
    const sorted = [...all].sort((a, b) => a.scores.performance - b.scores.performance)
    results[page.name] = { ...sorted[Math.floor((sorted.length - 1) / 2)], runs: all.map((result) => result.scores) }
  }
  return results
}

async function audit(baseURL, { path, cookie }) {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', '--proxy-server=http://127.0.0.1:9'],
    logLevel: 'silent',
  })
  try {
    const runnerResult = await lighthouse(
      `${baseURL}${path}`,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, extraHeaders: cookie ? { Cookie: cookie } : undefined },
      undefined,
    )
    const lhr = runnerResult.lhr
    if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
    const scores = Object.fromEntries(CATEGORIES.map((category) => [category, Math.round((lhr.categories[category].score ?? 0) * 100)]))
    // Every audit that cost points, to say why a goal was missed.
    const failing = []
    for (const category of CATEGORIES) {
      for (const ref of lhr.categories[category].auditRefs) {
        const audit = lhr.audits[ref.id]
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
          failing.push({ category, id: ref.id, score: audit.score, weight: ref.weight, displayValue: audit.displayValue, title: audit.title, items: itemsOf(audit) })
        }
      }
    }
    // A signed-in page is kept out of search engines on purpose (robots.txt): its SEO score without that audit.
    const seo = lhr.categories.seo.auditRefs.filter((ref) => ref.weight > 0 && ref.id !== 'is-crawlable' && lhr.audits[ref.id].score !== null)
    const seoWithoutCrawlability = Math.round((seo.reduce((sum, ref) => sum + ref.weight * lhr.audits[ref.id].score, 0) / seo.reduce((sum, ref) => sum + ref.weight, 0)) * 100)
    const metrics = Object.fromEntries(
      ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map((id) => [id, lhr.audits[id]?.displayValue]),
    )
    const requested = lhr.audits['network-requests']?.details?.items?.map((item) => item.url) ?? []
    const offSite = requested.filter((url) => !url.startsWith(baseURL) && !url.startsWith('data:'))
    return { path, finalUrl: lhr.finalDisplayedUrl, scores, seoWithoutCrawlability, metrics, failing, offSiteRequests: offSite, warnings: lhr.runWarnings }
  } finally {
    await chrome.kill()
  }
}

/** What an audit found, short enough to read in the results file. */
function itemsOf(audit) {
  const items = audit.details?.items ?? []
  return JSON.parse(
    JSON.stringify(items.slice(0, 8), (key, value) => {
      if (key === 'boundingRect' || key === 'lhId' || key === 'path') return undefined
      return typeof value === 'string' && value.length > 300 ? `${value.slice(0, 300)}…` : value
    }),
  )
}
