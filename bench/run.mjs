#!/usr/bin/env node
/**
 * `npm run bench`: the performance budget of the built app, each figure against a private app +
 * embedded provider on free loopback ports, and against the real floors: bare Remix v2 apps of the
 * same versions, one with one route (bench/floor) and one with the product's route tree, every
 * module empty (issue 43), built and served by the bench (bench/lib/floor.mjs). Prints a table and writes
 * bench/results/<time>.json (and latest.json). Options: --only=js,waterfall,throughput,soak,lighthouse,freetimes,webhooks,adminusers,messages,export;
 * environment BENCH_DURATION (s, default 20), BENCH_CONNECTIONS (50), BENCH_RUNS (30),
 * BENCH_DELAY_MS (50), BENCH_LIGHTHOUSE_RUNS (3: the run with the median performance score is
 * reported), BENCH_LIGHTHOUSE_PAGES (all: home,login,dashboard,catalogue,product,lesson,booking), BENCH_THROUGHPUT_ROUNDS (3: the floor, bare and dashboard in turn; the round with the
 * median ratio is reported), BENCH_SOAK_SECONDS (60), BENCH_SOAK_CONNECTIONS (200),
 * BENCH_WEBHOOK_RATE (distinct Stripe events a second, 200), BENCH_WEBHOOK_SECONDS (10),
 * BENCH_DATABASE_URL (unset: the provider on its in-memory PGlite; a PostgreSQL server URL: the
 * provider on a throwaway database there, as a deployment past one process runs it).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureBuild } from '../scripts/lib/build.mjs'
import { appNodeArgs } from '../scripts/lib/runtime.mjs'
import { buildFloor, startFloor } from './lib/floor.mjs'
import { LOOPBACK_POSTGRES, postgresAnswers, redactedURL } from './lib/database.mjs'
import { killAll, residentMemory, root, signIn, snapshotBuild, startInstance } from './lib/instance.mjs'
import { measureFirstLoadJs } from './js-size.mjs'
import { measureLighthouse } from './lighthouse.mjs'
import { measureStageCosts, measureThroughput, memoryTrend } from './throughput.mjs'
import { measureWaterfall } from './waterfall.mjs'
import { prepareVideoRange, VIDEO_RANGE } from './video-range.mjs'
import { measureFreeTimes } from './free-times.mjs'
import { measureWebhooks } from './webhooks.mjs'
import { measureDeliveryAcrossProcesses } from './message-delivery.mjs'

const ALL = ['js', 'waterfall', 'throughput', 'soak', 'lighthouse', 'freetimes', 'webhooks', 'adminusers', 'messages', 'export']
const onlyArg = process.argv.find((arg) => arg.startsWith('--only='))
const only = onlyArg ? onlyArg.slice('--only='.length).split(',') : ALL
const unknown = only.filter((name) => !ALL.includes(name))
if (unknown.length) {
  console.error(`unknown measurement(s): ${unknown.join(', ')}; choose from ${ALL.join(', ')}`)
  process.exit(2)
}
// Lighthouse and the first-load measurement drive the full Chromium (the tests' headless shell is
// not enough): installed here when missing, as the tests install theirs, or a clear message.
if (only.some((name) => name === 'js' || name === 'lighthouse')) {
  try {
    execFileSync('bash', [path.join(root, 'scripts/ensure-chromium.sh'), '--full'], { stdio: 'inherit' })
  } catch {
    process.exit(1)
  }
}
const durationSeconds = Number(process.env.BENCH_DURATION ?? 20)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const runs = Number(process.env.BENCH_RUNS ?? 30)
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 50)
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3)
/** BENCH_LIGHTHOUSE_PAGES=home,dashboard: only these of Lighthouse's pages (home, login, dashboard, catalogue, product, lesson, booking). */
const lighthouseOnly = process.env.BENCH_LIGHTHOUSE_PAGES?.split(',')
const throughputRounds = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3)
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60)
const soakConnections = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 200)
/** Where the instances' provider keeps its data: unset, PGlite in memory; else a PostgreSQL server. */
const databaseServer = process.env.BENCH_DATABASE_URL || undefined
/** First-load JavaScript goals, as multiples of the bare Remix app's (issue 11). */
const JS_GOALS = { home: 1.25, dashboard: 1.25, login: 1.35, catalogue: 1.25, product: 1.25, lesson: 1.25, thread: 1.25 }
/** A product of the seeded catalogue (issue 24: the catalogue and product pages are measured too). */
const PRODUCT_PATH = '/produto/1'
/** A lesson of the seeded courses, a free preview any patient plays (issue 25: the lesson page is measured too). */
const LESSON_PATH = '/aula/1'
const JS_PAGES = Object.keys(JS_GOALS)
/** The app as production runs it (npm start, the container): its heap capped. */
const APP_NODE_ARGS = appNodeArgs()
const PROFESSIONAL = 'profissional@innera.local'
const PATIENT = 'paciente@innera.local'
/** Paula (the demo professional): her booking page is measured. */
const BOOKED_PROFESSIONAL_ID = 2

const log = (message) => console.error(`[bench] ${message}`)

/**
 * Issue 44: the conversation page of Pedro (the demo patient) with Paula, made on the instance if
 * it is not there yet (`/mensagens?com=` answers the redirect to it); its path.
 */
async function threadPath(baseURL, cookie) {
  const response = await fetch(`${baseURL}/mensagens?com=${BOOKED_PROFESSIONAL_ID}`, { headers: { Cookie: cookie }, redirect: 'manual', signal: AbortSignal.timeout(15_000) })
  const location = response.headers.get('location') ?? ''
  if (response.status !== 302 || !/^\/mensagens\/\d+$/.test(location)) throw new Error(`the conversation with professional ${BOOKED_PROFESSIONAL_ID} answered ${response.status} ${location}`)
  return location
}
/** The live thread's stream (server-sent events) stays open: it carries no JavaScript, and would keep the page from ever being idle. */
const LIVE_STREAM = /\/mensagens\/\d+\/eventos/
/** The private copy of the build the instances run from, and the floors' builds (removed at the end, however the run ends). */
let snapshot
let floorBuild
let sameRoutesFloorBuild
const removeBuilds = () => {
  snapshot?.remove()
  floorBuild?.remove()
  sameRoutesFloorBuild?.remove()
}
/** Throughput goals against the floors: the one-route floor (issue 23) and the floor with the product's routes (issue 43). */
const FLOOR_GOALS = { bare: 0.6, dashboard: 0.45 }
const SAME_ROUTES_GOALS = { bare: 0.8, dashboard: 0.5 }
/** Where the same-routes floor is asked: the product's own bare route, matched through the same tree. */
const SAME_ROUTES_PATH = '/bench/bare'

// Bounded in time whatever happens: the instances are killed and the run fails.
const LIMIT_MS = 20 * 60_000
const limit = setTimeout(() => {
  log(`time limit (${LIMIT_MS / 60_000} min) reached: stopping`)
  killAll()
  removeBuilds()
  process.exit(1)
}, LIMIT_MS)
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killAll()
    removeBuilds()
    process.exit(130)
  })
}

function machine() {
  const chromium = (() => {
    try {
      return execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()
    } catch {
      return null
    }
  })()
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim()
    } catch {
      return null
    }
  })()
  return {
    date: new Date().toISOString(),
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    // Other work on the machine skews every figure: the load averages at the start (and end) say how much.
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
    chromium,
    commit,
    providerDatabase: databaseServer ? `PostgreSQL (${redactedURL(databaseServer)}, a throwaway database per instance)` : 'PGlite in memory',
  }
}

const results = { machine: machine(), goals: {}, measurements: {} }
const rows = []
const row = (metric, value, goal, ok) => rows.push({ metric, value, goal: goal ?? '', ok: ok === undefined ? '' : ok ? 'yes' : 'NO' })
const fmtBytes = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`

async function main() {
  if (!ensureBuild({ log })) throw new Error('the build failed')
  snapshot = snapshotBuild()
  try {
    await measureAll(snapshot.dir)
  } finally {
    removeBuilds()
  }
}

async function measureAll(buildDir) {
  if (only.some((name) => ['js', 'throughput', 'lighthouse'].includes(name))) {
    log('building and starting the floor (a bare Remix v2 app with one route)…')
    floorBuild = buildFloor()
    const floor = await startFloor(floorBuild.dir)
    let sameRoutesFloor
    if (only.includes('throughput')) {
      log("building and starting the same-routes floor (a bare Remix v2 app with the product's route files, each empty)…")
      try {
        sameRoutesFloorBuild = buildFloor({ kind: 'same-routes' })
        sameRoutesFloor = await startFloor(sameRoutesFloorBuild.dir, { checkPath: SAME_ROUTES_PATH })
      } catch (error) {
        await floor.close()
        throw error
      }
    }
    log('starting a private instance (no provider delay, long-lived tokens, the heap capped as in production)…')
    const instance = await startInstance({
      name: 'bench',
      buildDir,
      databaseServer,
      appNodeArgs: APP_NODE_ARGS,
      providerEnv: { ACCESS_TOKEN_LIFETIME: '86400', REFRESH_TOKEN_LIFETIME: '172800' },
    }).catch(async (error) => {
      await Promise.all([floor.close(), sameRoutesFloor?.close()])
      throw error
    })
    try {
      const cookie = await signIn(instance.baseURL, PROFESSIONAL)

      if (only.includes('js')) {
        log('first-load JavaScript (Chromium)…')
        const js = await measureFirstLoadJs({
          baseURL: instance.baseURL,
          pages: [
            { name: 'floor', path: '/', baseURL: floor.baseURL },
            { name: 'bare', path: '/bench/bare' },
            { name: 'home', path: '/' },
            { name: 'login', path: '/auth?mode=login' },
            { name: 'dashboard', path: '/dashboard', cookie },
            { name: 'catalogue', path: '/solucoes' },
            { name: 'product', path: PRODUCT_PATH },
            { name: 'lesson', path: LESSON_PATH, cookie: await signIn(instance.baseURL, PATIENT) },
            ...(await (async () => {
              const patient = await signIn(instance.baseURL, PATIENT)
              return [{ name: 'thread', path: await threadPath(instance.baseURL, patient), cookie: patient, block: LIVE_STREAM }]
            })()),
          ],
        })
        const ratio = (bytes, of) => Math.round((bytes / of) * 1000) / 1000
        for (const name of JS_PAGES) {
          js[name].ratio = ratio(js[name].gzipBytes, js.floor.gzipBytes)
          js[name].ratioToInAppBare = ratio(js[name].gzipBytes, js.bare.gzipBytes)
        }
        results.measurements.firstLoadJs = js
        results.goals.firstLoadJsRatio = Object.fromEntries(JS_PAGES.map((name) => [js[name].path, `<= ${JS_GOALS[name].toFixed(2)} x the bare Remix app`]))
        row('first-load JS, bare Remix v2 app (the floor, gzip)', `${fmtBytes(js.floor.gzipBytes)} in ${js.floor.count} files`)
        row('first-load JS /bench/bare, in-app bare route (gzip)', `${fmtBytes(js.bare.gzipBytes)} in ${js.bare.count} files (${ratio(js.bare.gzipBytes, js.floor.gzipBytes).toFixed(3)} x the floor)`)
        for (const name of JS_PAGES) {
          row(
            `first-load JS ${js[name].path} (x the floor)`,
            `${js[name].ratio.toFixed(3)} (${fmtBytes(js[name].gzipBytes)}, ${js[name].count} files; ${js[name].ratioToInAppBare.toFixed(3)} x /bench/bare)`,
            `<= ${JS_GOALS[name].toFixed(2)}`,
            js[name].ratio <= JS_GOALS[name],
          )
        }
      }

      if (only.includes('lighthouse')) {
        // Issue 43: the catalogue, a product's page, a lesson and the booking page too (a patient's, signed in).
        const patient = await signIn(instance.baseURL, PATIENT)
        const lighthousePages = [
          { name: 'home', path: '/' },
          { name: 'login', path: '/auth?mode=login' },
          { name: 'dashboard', path: '/dashboard', cookie },
          { name: 'catalogue', path: '/solucoes' },
          { name: 'product', path: PRODUCT_PATH },
          { name: 'lesson', path: LESSON_PATH, cookie: patient },
          { name: 'booking', path: `/consultas/agendar/${BOOKED_PROFESSIONAL_ID}`, cookie: patient },
        ].filter((page) => !lighthouseOnly || lighthouseOnly.includes(page.name))
        log(`Lighthouse (mobile), ${lighthouseRuns} runs per page: ${lighthousePages.map((page) => page.path).join(', ')}…`)
        const lighthouse = await measureLighthouse({ baseURL: instance.baseURL, runs: lighthouseRuns, pages: lighthousePages })
        results.measurements.lighthouse = lighthouse
        results.goals.lighthouse = { performance: '>= 98', accessibility: 100, 'best-practices': 100, seo: 100 }
        const goals = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 }
        for (const result of Object.values(lighthouse)) {
          const { scores } = result
          const ok = Object.entries(goals).every(([category, goal]) => scores[category] >= goal)
          row(
            `Lighthouse ${result.path} (perf/a11y/bp/seo${lighthouseRuns > 1 ? `, median of ${lighthouseRuns}` : ''})`,
            `${scores.performance} / ${scores.accessibility} / ${scores['best-practices']} / ${scores.seo}` +
              (scores.seo < 100 && result.seoWithoutCrawlability === 100 ? ' (SEO 100 without is-crawlable)' : ''),
            '98 / 100 / 100 / 100',
            ok && result.offSiteRequests.length === 0,
          )
        }
      }

      if (only.includes('throughput')) {
        const rssBefore = residentMemory(instance.appPid)
        const pids = { app: instance.appPid, provider: instance.providerPid }
        // Measured in turn, several rounds, and the median round reported: the machine's own
        // state drifts (other work, the heap), and a drift then falls on all three alike.
        const rounds = []
        for (let round = 1; round <= throughputRounds; round += 1) {
          log(`throughput round ${round}/${throughputRounds}: the floor, the same-routes floor, /bench/bare, then /dashboard signed in, ${connections} connections, ${durationSeconds} s each…`)
          const floorRun = await measureThroughput({ url: `${floor.baseURL}/`, connections, durationSeconds, pids: { floor: floor.pid } })
          const sameRoutesRun = await measureThroughput({ url: `${sameRoutesFloor.baseURL}${SAME_ROUTES_PATH}`, connections, durationSeconds, pids: { floor: sameRoutesFloor.pid } })
          const bare = await measureThroughput({ url: `${instance.baseURL}/bench/bare`, connections, durationSeconds, pids })
          const dashboard = await measureThroughput({ url: `${instance.baseURL}/dashboard`, cookie: await signIn(instance.baseURL, PROFESSIONAL), connections, durationSeconds, pids })
          rounds.push({ floor: floorRun, sameRoutesFloor: sameRoutesRun, bare, dashboard, ratio: Math.round((dashboard.requestsPerSecond / bare.requestsPerSecond) * 1000) / 1000 })
        }
        const median = [...rounds].sort((a, b) => a.ratio - b.ratio)[Math.floor((rounds.length - 1) / 2)]
        const { bare, dashboard, ratio } = median
        const rssAfter = residentMemory(instance.appPid)
        const clean = rounds.every((r) => [r.dashboard, r.bare].every((x) => x.errors + x.non2xx === 0))
        const toFloor = (runResult, floorRun = median.floor) => Math.round((runResult.requestsPerSecond / floorRun.requestsPerSecond) * 1000) / 1000
        const toSameRoutes = (runResult) => toFloor(runResult, median.sameRoutesFloor)
        results.measurements.throughput = {
          floor: median.floor,
          sameRoutesFloor: { ...median.sameRoutesFloor, routes: sameRoutesFloorBuild.routes },
          bare,
          dashboard,
          ratio,
          ratioToFloor: toFloor(dashboard),
          toFloor: { bare: toFloor(bare), dashboard: toFloor(dashboard) },
          toSameRoutesFloor: { bare: toSameRoutes(bare), dashboard: toSameRoutes(dashboard) },
          rounds: rounds.map((r) => ({ ratio: r.ratio, toFloor: { bare: toFloor(r.bare, r.floor), dashboard: toFloor(r.dashboard, r.floor) }, toSameRoutesFloor: { bare: toFloor(r.bare, r.sameRoutesFloor), dashboard: toFloor(r.dashboard, r.sameRoutesFloor) } })),
        }
        results.measurements.memory = { appRssBeforeBytes: rssBefore, appRssAfterThroughputBytes: rssAfter }
        results.goals.throughputRatio = '>= 0.7 x /bench/bare, no errors, no non-2xx'
        results.goals.throughputToFloor = Object.fromEntries(Object.entries(FLOOR_GOALS).map(([name, goal]) => [name, `>= ${goal} x the one-route floor`]))
        results.goals.throughputToSameRoutesFloor = Object.fromEntries(Object.entries(SAME_ROUTES_GOALS).map(([name, goal]) => [name, `>= ${goal} x the same-routes floor`]))
        row('throughput bare Remix v2 app, one route (remix-serve)', describeRun(median.floor))
        row(`throughput bare Remix v2 app, the product's ${sameRoutesFloorBuild.routes} route files each empty (remix-serve), ${SAME_ROUTES_PATH}`, `${describeRun(median.sameRoutesFloor)}; ${toFloor(median.sameRoutesFloor).toFixed(3)} x the one-route floor`)
        row('throughput /bench/bare', describeRun(bare))
        row('throughput /dashboard (signed in)', describeRun(dashboard))
        row(
          `throughput ratio dashboard / bench-bare${rounds.length > 1 ? ` (median of ${rounds.length} rounds)` : ''}`,
          `${ratio.toFixed(3)}${rounds.length > 1 ? ` (rounds: ${rounds.map((r) => r.ratio.toFixed(3)).join(', ')})` : ''}; ${results.measurements.throughput.ratioToFloor.toFixed(3)} x the one-route floor`,
          '>= 0.7, 0 errors',
          ratio >= 0.7 && clean,
        )
        row('app RSS after throughput', `${(rssAfter / 2 ** 20).toFixed(1)} MiB (idle before: ${(rssBefore / 2 ** 20).toFixed(1)} MiB)`)

        // Issue 23: the app's own cost against the floors' (issue 43: the one-route floor and the
        // same-routes one), and where it goes, stage by stage.
        const perRound = (pick) => (rounds.length > 1 ? ` (rounds: ${rounds.map(pick).map((value) => value.toFixed(3)).join(', ')})` : '')
        for (const [name, runResult] of [['/bench/bare', bare], ['/dashboard', dashboard]]) {
          const key = name === '/bench/bare' ? 'bare' : 'dashboard'
          row(`throughput ${name} / the one-route floor`, toFloor(runResult).toFixed(3) + perRound((r) => toFloor(r[key], r.floor)), `>= ${FLOOR_GOALS[key]}`, toFloor(runResult) >= FLOOR_GOALS[key])
          row(`throughput ${name} / the same-routes floor`, toSameRoutes(runResult).toFixed(3) + perRound((r) => toFloor(r[key], r.sameRoutesFloor)), `>= ${SAME_ROUTES_GOALS[key]}`, toSameRoutes(runResult) >= SAME_ROUTES_GOALS[key])
        }
        // Issue 25: a 1 MB range of a video, through the app's /media proxy and the provider's
        // signed lesson media, beside the floor serving the same bytes as a static file.
        log(`a 1 MB video range: the floor's static file, then /media/lessons signed, ${durationSeconds} s each…`)
        const video = prepareVideoRange({ buildDir, floorDir: floorBuild.dir })
        const rangeConnections = Math.min(connections, 10)
        const floorRange = await measureThroughput({ url: `${floor.baseURL}${video.floorPath}`, headers: { Range: VIDEO_RANGE }, connections: rangeConnections, durationSeconds, pids: { floor: floor.pid } })
        const appRange = await measureThroughput({ url: `${instance.baseURL}${video.appPath}`, headers: { Range: VIDEO_RANGE }, connections: rangeConnections, durationSeconds, pids })
        const rangeRatio = Math.round((appRange.requestsPerSecond / floorRange.requestsPerSecond) * 1000) / 1000
        results.measurements.videoRange = { floor: floorRange, app: appRange, ratioToFloor: rangeRatio }
        const mbps = (r) => `${(r.bytesPerSecond / 2 ** 20).toFixed(0)} MiB/s`
        row('1 MB video range, the bare Remix app (static file)', `${describeRun(floorRange)}; ${mbps(floorRange)}`)
        row('1 MB video range, /media/lessons (app proxy + provider, signed)', `${describeRun(appRange)}; ${mbps(appRange)}; ${rangeRatio.toFixed(3)} x the floor`)

        log('cost per request, stage by stage: 400 sequential requests each to /bench/bare and /dashboard…')
        const costs = {
          bare: await measureStageCosts({ baseURL: instance.baseURL, path: '/bench/bare', appPid: instance.appPid }),
          dashboard: await measureStageCosts({ baseURL: instance.baseURL, path: '/dashboard', cookie: await signIn(instance.baseURL, PROFESSIONAL), appPid: instance.appPid }),
        }
        results.measurements.stageCosts = costs
        for (const cost of Object.values(costs)) {
          const stages = Object.entries(cost.stages).map(([stage, { microsPerRequest }]) => `${stage} ${microsPerRequest}`)
          row(`app CPU per request ${cost.path}, sequential (µs)`, `${cost.cpuPerRequestUs}: ${stages.join('; ')}; Remix and the page (the rest) ${cost.restUs}`)
        }
      }
    } finally {
      await Promise.all([instance.close(), floor.close(), sameRoutesFloor?.close()])
    }
  }

  if (only.includes('soak')) await soak(buildDir)

  if (only.includes('waterfall')) {
    log(`provider waterfall: PROVIDER_DELAY_MS=${delayMs}, ${runs} runs…`)
    const instance = await startInstance({
      name: 'bench-delay',
      buildDir,
      databaseServer,
      providerEnv: { PROVIDER_DELAY_MS: String(delayMs), ACCESS_TOKEN_LIFETIME: '86400' },
    })
    floorBuild ??= buildFloor()
    const floor = await startFloor(floorBuild.dir)
    try {
      const [professional, patient] = await Promise.all([signIn(instance.baseURL, PROFESSIONAL), signIn(instance.baseURL, PATIENT)])
      const conversation = await threadPath(instance.baseURL, patient)
      const waterfall = await measureWaterfall({
        instance,
        floorURL: floor.baseURL,
        pages: {
          dashboard: { path: '/dashboard', cookie: professional },
          booking: { path: `/consultas/agendar/${BOOKED_PROFESSIONAL_ID}`, cookie: patient },
          catalogue: { path: '/solucoes', cookie: patient },
          product: { path: PRODUCT_PATH, cookie: patient },
          lesson: { path: LESSON_PATH, cookie: patient },
          // Issue 44: a conversation's page (the thread and its read mark in one call, decision 0088).
          thread: { path: conversation, cookie: patient },
        },
        runs,
        delayMs,
      })
      results.measurements.waterfall = waterfall
      results.goals.waterfallRatio = '<= 1.2'
      const { dashboard, booking, catalogue, product, lesson, thread } = waterfall.pages
      row(
        `/dashboard TTFB, provider +${delayMs} ms (median of ${runs})`,
        `${dashboard.ttfbMs} ms (round trip ${waterfall.providerRoundTripMs} ms + bare ${waterfall.bareTtfbMs} ms)`,
      )
      row('waterfall ratio /dashboard', dashboard.ratio.toFixed(3), '<= 1.2', dashboard.ratio <= 1.2)
      row('provider calls per /dashboard', `${dashboard.providerCallsPerRequest.median} (${dashboard.providerCallsPerRequest.paths.join(', ')})`)
      row(
        `booking page TTFB, provider +${delayMs} ms (median of ${runs})`,
        `${booking.ttfbMs} ms (round trip ${waterfall.providerRoundTripMs} ms + the floor ${waterfall.floorTtfbMs} ms; ${booking.providerCallsPerRequest.median} calls: ${booking.providerCallsPerRequest.paths.join(', ')})`,
      )
      row('waterfall ratio booking page (x round trip + the floor)', booking.ratioToFloor.toFixed(3), '<= 1.2', booking.ratioToFloor <= 1.2)
      // Issue 24: the catalogue and a product's page, as the booking page (their calls in parallel).
      // Issue 25: the lesson page.
      for (const [label, page] of [['catalogue /solucoes', catalogue], [`product page ${PRODUCT_PATH}`, product], [`lesson page ${LESSON_PATH}`, lesson], [`conversation page ${conversation}`, thread]]) {
        row(`${label} TTFB, provider +${delayMs} ms (median of ${runs})`, `${page.ttfbMs} ms (${page.providerCallsPerRequest.median} calls: ${page.providerCallsPerRequest.paths.join(', ')})`)
        row(`waterfall ratio ${label} (x round trip + the floor)`, page.ratioToFloor.toFixed(3), '<= 1.2', page.ratioToFloor <= 1.2)
      }
    } finally {
      await Promise.all([instance.close(), floor.close()])
    }
  }

  if (only.includes('freetimes')) {
    log('free-time computation: 60 days, 200 booked appointments…')
    const freeTimes = await measureFreeTimes()
    results.measurements.freeTimes = freeTimes
    row('free times of one professional, 60-day horizon, 200 bookings (median of ' + freeTimes.runs + ')', `${freeTimes.medianMs} ms (${freeTimes.slots} free times)`, 'low ms (< 10)', freeTimes.medianMs < 10)
  }

  if (only.includes('adminusers')) {
    const users = Number(process.env.BENCH_ADMIN_USERS ?? 100_000)
    log(`admin users list over ${users} users (seeded into an in-memory PGlite)…`)
    const output = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['bench/admin-users.ts', String(users), String(runs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    const adminUsers = JSON.parse(output.toString().trim().split('\n').pop())
    results.measurements.adminUsers = adminUsers
    results.goals.adminUsers = 'a search and a page of the admin users list over 100,000 users <= 50 ms at the provider on PGlite, through an index'
    for (const result of adminUsers.results) {
      row(`admin users ${result.path} over ${adminUsers.users} users (${result.count} found; median of ${adminUsers.runs})`, `${result.medianMs} ms (p90 ${result.p90Ms})`, '<= 50 ms', result.medianMs <= 50)
    }
    const indexed = /users_search_trgm_idx/.test(adminUsers.plans.searchPage)
    row('admin users search: its page and count read the trigram index', indexed ? 'yes (plans in the JSON)' : 'no: a scan', 'an index', indexed)
  }

  if (only.includes('messages')) {
    log('a conversation of 10,000 messages and 200 deliveries to an open stream (in-memory PGlite)…')
    const output = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['bench/messages.ts', '10000', String(runs)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    const messages = JSON.parse(output.toString().trim().split('\n').pop())
    results.measurements.messages = messages
    results.goals.messages = "a thread's newest page and a page 9,000 messages back <= 20 ms at the provider, by keyset; a message's delivery to an open stream reported (median, p99)"
    for (const page of messages.pages) row(`messages: ${page.path} of ${messages.messages} (median of ${messages.runs})`, `${page.medianMs} ms (p90 ${page.p90Ms})`, '<= 20 ms', page.medianMs <= 20)
    const keyset = /Index Scan/.test(messages.plan) && !/Seq Scan|offset/i.test(messages.plan)
    row('messages: the thread reads by keyset through an index', keyset ? 'yes (plan in the JSON)' : 'no', 'an index, no offset', keyset)
    row(`messages: delivery to an open stream, ${messages.delivery.messages} messages, ${messages.delivery.processes} process`, `median ${messages.delivery.medianMs} ms, p99 ${messages.delivery.p99Ms} ms`, 'reported')
    // Across processes the bus is PostgreSQL's LISTEN/NOTIFY: BENCH_DATABASE_URL's server, else this machine's loopback one when it answers.
    const deliveryServer = databaseServer ?? (await postgresAnswers(LOOPBACK_POSTGRES) ? LOOPBACK_POSTGRES : undefined)
    if (deliveryServer) {
      log(`200 deliveries through two provider processes on one PostgreSQL (${redactedURL(deliveryServer)})…`)
      const across = await measureDeliveryAcrossProcesses({ serverURL: deliveryServer })
      results.measurements.messages.deliveryOnPostgres = across
      for (const { processes, messages: count, medianMs, p99Ms } of [across.oneProcess, across.twoProcesses]) {
        row(`messages: delivery on PostgreSQL, ${count} messages, sent on provider A, the stream on ${processes === 1 ? 'A (one process)' : 'B (two processes)'}`, `median ${medianMs} ms, p99 ${p99Ms} ms`, 'reported')
      }
    } else row('messages: delivery across two provider processes', 'skipped: no PostgreSQL (BENCH_DATABASE_URL) answers', 'reported')
  }

  if (only.includes('export')) {
    log('a patient\'s data export with 10,000 habit entries and 500 appointments…')
    const output = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['--expose-gc', 'bench/data-export.ts', '5'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
    const dataExport = JSON.parse(output.toString().trim().split('\n').pop())
    results.measurements.dataExport = dataExport
    row(
      `data export (ZIP) of a patient with ${dataExport.habitEntries} habit entries and ${dataExport.appointments} appointments, at the provider on PGlite (median of ${dataExport.runs})`,
      `${dataExport.medianMs} ms for ${dataExport.zipKiB} KiB; peak memory above the start: RSS ${dataExport.peakRssAboveMiB} MiB, heap ${dataExport.peakHeapAboveMiB} MiB`,
      'reported (bounded memory)',
    )
  }

  if (only.includes('webhooks')) {
    const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 200)
    const seconds = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10)
    const webhooks = await measureWebhooks({ buildDir, rate, seconds, log })
    results.measurements.webhooks = webhooks
    results.goals.webhooks = `${rate} distinct events/s sustained by one provider process, one in 20 delivered twice: 0 lost, 0 double grants`
    const { outcomes } = webhooks
    row(
      `Stripe webhook: ${webhooks.events} distinct events at ${rate}/s, ${webhooks.duplicatesSent} sent twice (one provider, ${databaseServer ? 'PostgreSQL' : 'PGlite'})`,
      `${webhooks.achievedPerSecond}/s over ${webhooks.elapsedSeconds} s; median ${webhooks.medianMs} ms, p99 ${webhooks.p99Ms} ms; ${outcomes.applied} applied, ${outcomes.duplicate} duplicate, ${outcomes.failed} failed; ${webhooks.purchasesPaid} paid, ${webhooks.grants} grants`,
      `>= ${rate}/s, 0 lost, 0 double grants`,
      webhooks.achievedPerSecond >= rate * 0.97 && webhooks.lost === 0 && outcomes.failed === 0 && webhooks.doubleGrants === 0 && webhooks.purchasesPaid === webhooks.events && webhooks.grants === webhooks.events,
    )
  }

  results.machine.loadAverageAtEnd = os.loadavg().map((value) => Math.round(value * 100) / 100)
  const dir = path.join(root, 'bench/results')
  mkdirSync(dir, { recursive: true })
  const json = JSON.stringify({ ...results, table: rows }, null, 2) + '\n'
  const file = path.join(dir, `${results.machine.date.replace(/[:.]/g, '-')}.json`)
  writeFileSync(file, json)
  writeFileSync(path.join(dir, 'latest.json'), json)

  const m = results.machine
  console.log(`\nInnera benchmarks · ${m.date} · ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.chromium ?? 'no Chromium'}; the provider on ${m.providerDatabase}\n`)
  const busy = Math.max(results.machine.loadAverageAtStart[0], results.machine.loadAverageAtEnd[0]) > results.machine.cpus
  console.log(`load average ${results.machine.loadAverageAtStart.join(' ')} at the start, ${results.machine.loadAverageAtEnd.join(' ')} at the end${busy ? ': the machine was busy with other work, figures are pessimistic' : ''}\n`)
  printTable(rows)
  console.log(`\nresults: ${path.relative(root, file)}`)
  const missed = rows.filter((r) => r.ok === 'NO')
  if (missed.length) console.log(`goals missed: ${missed.map((r) => r.metric).join('; ')}`)
}

function describeRun(r) {
  const cpu = Object.entries(r.cpuPerRequestMs).map(([name, ms]) => `${name} ${ms} ms`).join(', ')
  // autocannon counts a timeout (no answer within 10 s) among the errors too.
  return `${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms, ${r.errors} errors (${r.timeouts} timeouts), ${r.non2xx} non-2xx; CPU/request: ${cpu}`
}

/**
 * Memory under load: /dashboard signed in, many connections for a minute, first with the app's
 * heap uncapped, then capped as production runs it, each on a fresh instance. The capped run must
 * have no errors, keep within 10 % of the uncapped throughput, and its resident memory must level
 * off (growth over the last 30 s within 5 %).
 */
async function soak(buildDir) {
  const runs = {}
  for (const [name, nodeArgs] of [
    ['uncapped', []],
    ['capped', APP_NODE_ARGS],
  ]) {
    log(`soak, heap ${name}${nodeArgs.length ? ` (${nodeArgs.join(' ')})` : ''}: /dashboard signed in, ${soakConnections} connections, ${soakSeconds} s…`)
    const instance = await startInstance({
      name: `bench-soak-${name}`,
      buildDir,
      databaseServer,
      appNodeArgs: nodeArgs,
      providerEnv: { ACCESS_TOKEN_LIFETIME: '86400', REFRESH_TOKEN_LIFETIME: '172800' },
    })
    try {
      const cookie = await signIn(instance.baseURL, PROFESSIONAL)
      const idle = residentMemory(instance.appPid)
      const result = await measureThroughput({
        url: `${instance.baseURL}/dashboard`,
        cookie,
        connections: soakConnections,
        durationSeconds: soakSeconds,
        pids: { app: instance.appPid, provider: instance.providerPid },
        memoryOf: instance.appPid,
      })
      runs[name] = { ...result, idleRssMiB: Math.round((idle / 2 ** 20) * 10) / 10, trend: memoryTrend(result.memoryMiB) }
    } finally {
      await instance.close()
    }
  }
  const { uncapped, capped } = runs
  const throughputRatio = Math.round((capped.requestsPerSecond / uncapped.requestsPerSecond) * 1000) / 1000
  const errors = capped.errors + capped.non2xx
  results.measurements.soak = { connections: soakConnections, seconds: soakSeconds, heapArgs: APP_NODE_ARGS, uncapped, capped, throughputRatio }
  results.goals.soak = '0 errors; capped throughput >= 0.9 x uncapped; RSS growth over the last 30 s <= 5 %'
  const describeMemory = (r) => `RSS ${r.idleRssMiB} MiB idle, peak ${Math.max(...r.memoryMiB)} MiB, last 30 s ${r.trend.min}-${r.trend.max} MiB (growth ${(r.trend.growth * 100).toFixed(1)} %)`
  row(`soak ${soakConnections} conn. ${soakSeconds} s /dashboard, heap uncapped`, `${describeRun(uncapped)}; ${describeMemory(uncapped)}`)
  row(`soak ${soakConnections} conn. ${soakSeconds} s /dashboard, ${APP_NODE_ARGS.join(' ')}`, `${describeRun(capped)}; ${describeMemory(capped)}`, '0 errors', errors === 0)
  row('soak: capped / uncapped throughput', throughputRatio.toFixed(3), '>= 0.90', throughputRatio >= 0.9)
  row('soak: capped RSS growth over the last 30 s', `${(capped.trend.growth * 100).toFixed(1)} %`, '<= 5 %', capped.trend.growth <= 0.05)
}

function printTable(table) {
  const columns = ['metric', 'value', 'goal', 'ok']
  const widths = columns.map((column) => Math.max(column.length, ...table.map((r) => String(r[column]).length)))
  const line = (cells) => `| ${cells.map((cell, index) => String(cell).padEnd(widths[index])).join(' | ')} |`
  console.log(line(columns))
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const r of table) console.log(line(columns.map((column) => r[column])))
}

try {
  await main()
} catch (error) {
  log(`failed: ${error instanceof Error ? error.stack : error}`)
  killAll()
  process.exitCode = 1
} finally {
  clearTimeout(limit)
}
