#!/usr/bin/env node
/**
 * The compose deployment, run by a real engine (issue 45; decision 0091): `compose.yaml` with
 * podman-compose and Podman, as an operator would start it, then checked through the load
 * balancer's one published port.
 *
 *   1. the engine: podman, runc, debootstrap and podman-compose, installed with apt-get when
 *      missing (as root); the container step's base image and image (scripts/lib/podman.mjs: made
 *      and built by the same code when missing);
 *   2. the images this machine cannot pull (postgres:16, redis:7, haproxy:2.6, prom/prometheus)
 *      built from Debian's packages on that base image and tagged with the compose file's names
 *      (scripts/compose-stand-ins/; PostgreSQL is Debian bookworm's 15, Prometheus its 2.42);
 *   3. up in the order the compose file's conditions say (podman-compose 1.0 ignores them):
 *      PostgreSQL and Redis until healthy, the migration to its end (exit 0), then 2 providers,
 *      2 apps, HAProxy and Prometheus, until HAProxy counts every replica up;
 *   4. through the published port: the home page in Portuguese; a patient signs in, books a paid
 *      consultation by PIX and pays it on the fake Stripe's page; a habit is created and read back;
 *      a session signed in on one app is read by the other; beside them, Prometheus answers `up` = 1
 *      for each of the 4 replicas (found by the services' names), /metrics is not on the published
 *      port, and the habit routes' request counters (absent before) rise with the check's traffic;
 *   5. one app and one provider killed (`podman kill`) while a bounded loop of sign-ins, reads and
 *      writes runs: how long HAProxy takes to take them out, and every request after that answered
 *      by the survivors; then both started again, and every write answered is in the database
 *      exactly once, the booking and its purchase once;
 *   6. stopped (`podman-compose stop`: exit code 0 for each service), removed with its volumes.
 *
 * Where the engine cannot be installed or cannot run a container here, it says so and exits 0
 * (SKIPPED). Any failure after that exits 1. The deployment is removed at the end, also on failure
 * or Ctrl-C; the images stay (cache).
 *
 * Usage: node scripts/compose.mjs
 * Plain Node, no dependencies.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { root } from './lib/build.mjs'
import { freePort } from './lib/net.mjs'
import {
  buildImage, builtImage, cacheDir, client, DEMO_PASSWORD, dockerfileBase, ensureBaseImage, ensureEngine, envForPodmanCallers, Failure, fail, has, IMAGE, logDir, ok, PACKAGES, podman,
  podmanOrFail, portugueseHeading, reportAs, run, say, seconds, Skip, tail, timed, timings,
} from './lib/podman.mjs'

reportAs('compose')
const started = performance.now()
const COMPOSE_FILE = path.join(root, 'compose.yaml')
const STAND_INS = path.join(root, 'scripts', 'compose-stand-ins')
/** The compose file's names for the images made here, and the folder each is made from. */
const STAND_IN_IMAGES = { postgres: 'docker.io/library/postgres:16', redis: 'docker.io/library/redis:7', haproxy: 'docker.io/library/haproxy:2.6', prometheus: 'docker.io/prom/prometheus:v2.53.0' }
// This run's own project, so that two runs on one machine never touch each other's containers.
const PROJECT = `innera-compose-${process.pid}`
const RUN_IMAGE = `localhost/${PROJECT}:latest`
const container = (service, number = 1) => `${PROJECT}_${service}_${number}`
const PATIENT = 'paciente@innera.local'
const UP_LIMIT_MS = 300_000
const STOP_GRACE_S = 20 // compose.yaml's stop_grace_period

let composeEnv = process.env
let deployed = false
const cleanUps = []

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** podman-compose on this run's project, with the deployment's env file loaded as `set -a; . deploy/.env` does. */
function compose(args, { timeoutMs = 600_000 } = {}) {
  return run('podman-compose', ['--no-ansi', '-f', COMPOSE_FILE, '-p', PROJECT, ...args], { env: composeEnv, timeoutMs })
}

function composeOrFail(args, what, options) {
  const result = compose(args, options)
  if (result.status !== 0) fail(`${what}: podman-compose ${args.join(' ')} exited ${result.status}\n${result.output.split('\n').slice(-25).join('\n')}`)
  return result
}

const logsOf = (name, lines = 25) => podman(['logs', '--tail', String(lines), name]).output
const ipOf = (name) => podman(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', name]).stdout

// ---------------------------------------------------------------------------------------------
// 1 and 2. The images

/**
 * The container step's image, through the same build: its layers are cached, so after that step
 * (or with the sources unchanged) this takes seconds. Tagged with this run's own name, which the
 * compose file reads (INNERA_IMAGE): IMAGE itself may be retagged meanwhile by another
 * checkout's build on this machine.
 */
async function ensureImage() {
  const t0 = performance.now()
  await buildImage()
  podmanOrFail(['tag', builtImage, RUN_IMAGE], 'tagging the image for this run')
  cleanUps.push(() => podman(['untag', RUN_IMAGE, RUN_IMAGE]))
  ok(`the image ${builtImage.slice(0, 12)} (${IMAGE}, as the container step builds it) in ${seconds(performance.now() - t0)}, tagged ${RUN_IMAGE} for this run`)
}

/** A stand-in's fingerprint: its folder's files and the base it is made on. */
function standInHash(folder, base) {
  const hash = createHash('sha256').update(base)
  for (const file of readdirSync(folder).sort()) hash.update(file).update(readFileSync(path.join(folder, file)))
  return hash.digest('hex').slice(0, 16)
}

function ensureStandIns(base) {
  for (const [folder, name] of Object.entries(STAND_IN_IMAGES)) {
    const from = path.join(STAND_INS, folder)
    const hash = standInHash(from, base.name)
    const label = podman(['image', 'inspect', '--format', '{{index .Labels "innera.stand-in"}}', name]).stdout
    if (label === hash) {
      ok(`${name}: the stand-in made before (Debian's ${folder}, label innera.stand-in=${hash})`)
      continue
    }
    if (podman(['image', 'exists', name]).status === 0 && !label) fail(`${name} is in the image store and is not a stand-in of this script (no innera.stand-in label): not replacing it`)
    const t0 = performance.now()
    const log = path.join(logDir, `stand-in-${folder}-${process.pid}.log`)
    const result = run('podman', ['--runtime', 'runc', 'build', '--network', 'host', '--build-arg', `BASE=${base.name}`, '--label', `innera.stand-in=${hash}`, '--tag', name, from], { log, env: envForPodmanCallers(), timeoutMs: 900_000 })
    if (result.status !== 0) fail(`building the stand-in ${name} failed (exit ${result.status}); the end of ${log}:\n${tail(log)}`)
    ok(`${name}: stand-in built from Debian's packages in ${seconds(timed(`stand-in ${folder}`, performance.now() - t0))}`)
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Up

/** The deployment's env file, as the operations page makes it with openssl, plus the check's own settings. */
function deploymentEnv(port) {
  const secret = () => randomBytes(32).toString('hex')
  const publicUrl = `http://127.0.0.1:${port}`
  return {
    POSTGRES_PASSWORD: secret(),
    SESSION_SECRET: secret(),
    PROVIDER_JWT_SECRET: secret(),
    PROVIDER_FORWARDING_SECRET: secret(),
    PUBLIC_URL: publicUrl,
    INNERA_PORT: String(port),
  }
}

/** deploy/.env's optional ports: Prometheus' on the host's loopback. */
const optionalPorts = (prometheusPort) => ({ INNERA_PROMETHEUS_PORT: String(prometheusPort) })

/** deploy/provider.env and deploy/app.env: the demo's payments, the fake Stripe with its PIX page under the public address. */
const demoSettings = (port) => ({ provider: { FAKE_STRIPE: 'on' }, app: { PAYMENT_PAGES_URL: `http://127.0.0.1:${port}` } })

async function until(what, limitMs, probe) {
  const t0 = performance.now()
  let last
  while (performance.now() - t0 < limitMs) {
    try {
      last = await probe()
      if (last === true) return performance.now() - t0
    } catch (error) {
      last = error.cause?.code ?? error.message
    }
    await sleep(500)
  }
  fail(`${what}: not within ${seconds(limitMs)} (last: ${typeof last === 'string' ? last.slice(0, 300) : JSON.stringify(last)})`)
}

/** HAProxy's view of the replicas, from its stats page on the compose network: { 'apps/app1': 'UP', … } for the slots with an address. */
async function balancerView() {
  const response = await fetch(`http://${ipOf(container('lb'))}:8404/stats;csv`, { signal: AbortSignal.timeout(2_000) })
  const rows = (await response.text()).split('\n').filter((line) => line && !line.startsWith('#')).map((line) => line.split(','))
  const view = {}
  // pxname, svname, … status is column 17, addr column 73 (HAProxy 2.6's CSV).
  for (const row of rows) {
    if (!['apps', 'providers'].includes(row[0]) || ['FRONTEND', 'BACKEND'].includes(row[1])) continue
    if (row[17] === 'MAINT' && !row[73]) continue // an empty slot of server-template
    view[`${row[0]}/${row[1]}`] = `${row[17]} ${row[73] ?? ''}`.trim()
  }
  return view
}

const upCount = (view, backend) => Object.entries(view).filter(([name, state]) => name.startsWith(`${backend}/`) && state.startsWith('UP')).length

async function up() {
  let t0 = performance.now()
  composeOrFail(['up', '-d', '--no-build', 'postgres', 'redis'], 'starting PostgreSQL and Redis')
  deployed = true
  for (const service of ['postgres', 'redis']) {
    await until(`${service} healthy (its compose health check)`, 120_000, () => podman(['healthcheck', 'run', container(service)], { timeoutMs: 20_000 }).status === 0 || logsOf(container(service), 5))
  }
  ok(`PostgreSQL and Redis healthy (their compose health checks: pg_isready, redis-cli ping) in ${seconds(timed('up: PostgreSQL and Redis healthy', performance.now() - t0))}`)

  t0 = performance.now()
  composeOrFail(['up', '-d', '--no-build', '--no-deps', 'migrate'], 'starting the migration')
  const exit = podman(['wait', container('migrate')], { timeoutMs: 180_000 }).stdout
  const migrated = logsOf(container('migrate'), 5)
  if (exit !== '0') fail(`the migration exited ${exit}:\n${migrated}`)
  const line = migrated.split('\n').find((entry) => entry.includes('"msg":"migrated"')) ?? migrated
  ok(`migrate ran to its end, exit 0, in ${seconds(timed('up: migration', performance.now() - t0))}: ${line.slice(0, 160)}`)

  t0 = performance.now()
  composeOrFail(['up', '-d', '--no-build', '--no-deps', 'provider', 'app', 'lb', 'prometheus'], 'starting the providers, the apps, the load balancer and Prometheus')
  await until('HAProxy counting 2 apps and 2 providers up', UP_LIMIT_MS, async () => {
    for (const name of [container('provider', 1), container('provider', 2), container('app', 1), container('app', 2), container('lb')]) {
      if (podman(['inspect', '--format', '{{.State.Running}}', name]).stdout !== 'true') fail(`${name} is not running:\n${logsOf(name)}`)
    }
    const view = await balancerView()
    return (upCount(view, 'apps') === 2 && upCount(view, 'providers') === 2) || JSON.stringify(view)
  })
  ok(`2 providers, 2 apps, HAProxy and Prometheus up, HAProxy counting all 4 replicas up, in ${seconds(timed('up: replicas until the balancer counts them up', performance.now() - t0))}`)
}

// ---------------------------------------------------------------------------------------------
// 4. Through the published port

const decode = (text) => text.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
const attributes = (text) => Object.fromEntries([...text.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name.toLowerCase(), decode(value ?? '')]))

/**
 * The page's forms as a browser without JavaScript submits them: the action, and the fields it
 * would send (hidden and text inputs, checked radios and checkboxes, text areas, selected
 * options), with the submit buttons (name, value, text) to choose from.
 */
function formsOf(html) {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, head, body]) => {
    const form = attributes(head)
    const fields = []
    for (const [, tag] of body.matchAll(/<input\b([^>]*)>/g)) {
      const input = attributes(tag)
      const type = (input.type ?? 'text').toLowerCase()
      if (!input.name || ['submit', 'button', 'image', 'file'].includes(type)) continue
      if (['radio', 'checkbox'].includes(type) && !('checked' in input)) continue
      fields.push([input.name, input.value ?? (type === 'checkbox' ? 'on' : '')])
    }
    for (const [, head2, text] of body.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
      const area = attributes(head2)
      if (area.name) fields.push([area.name, decode(text)])
    }
    for (const [, head2, options] of body.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
      const select = attributes(head2)
      const chosen = [...options.matchAll(/<option\b([^>]*)>/g)].map(([, option]) => attributes(option)).find((option) => 'selected' in option)
      if (select.name && chosen) fields.push([select.name, chosen.value ?? ''])
    }
    const buttons = [...body.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map(([, head2, text]) => ({ ...attributes(head2), text: decode(text.replace(/<[^>]+>/g, '')).trim() }))
    const radios = [...body.matchAll(/<input\b([^>]*)>/g)].map(([, tag]) => attributes(tag)).filter((input) => input.type === 'radio')
    return { action: form.action, method: (form.method ?? 'get').toLowerCase(), fields, buttons, radios, body }
  })
}

/** Submits the form that has a button with `text`, pressing it; `change` sets fields first. */
async function submit(browser, page, pathname, text, change = {}) {
  const form = formsOf(page).find((candidate) => candidate.buttons.some((button) => button.text === text))
  if (!form) fail(`${pathname}: no form with a button "${text}" (buttons: ${formsOf(page).flatMap((candidate) => candidate.buttons.map((button) => button.text)).join(' | ')})`)
  const button = form.buttons.find((candidate) => candidate.text === text)
  const fields = form.fields.filter(([name]) => !(name in change))
  for (const [name, value] of Object.entries(change)) fields.push([name, value])
  if (button.name) fields.push([button.name, button.value ?? ''])
  const action = form.action ? new URL(form.action, `http://x${pathname}`) : new URL(`http://x${pathname}`)
  return browser.request(`${action.pathname}${action.search}`, fields)
}

async function checkHomePage(base) {
  const home = await fetch(`${base}/`, { signal: AbortSignal.timeout(60_000) })
  const html = await home.text()
  const heading = portugueseHeading()
  if (home.status !== 200 || !html.includes('lang="pt-BR"') || !html.includes(heading)) fail(`GET / through the balancer → ${home.status}, lang="pt-BR" ${html.includes('lang="pt-BR"') ? 'present' : 'missing'}, "${heading}" ${html.includes(heading) ? 'present' : 'missing'}`)
  ok(`GET / through the balancer → 200, the home page in Portuguese (lang="pt-BR", "${heading}")`)
}

async function signIn(base, email = PATIENT, options) {
  const browser = client(base, options)
  const login = await browser.request('/auth?mode=login', { email, password: DEMO_PASSWORD })
  if (![302, 303].includes(login.status)) fail(`signing in as ${email} on ${base}: POST /auth?mode=login → ${login.status}\n${login.text.slice(0, 300)}`)
  return browser
}

async function expectDashboard(browser, what) {
  const dashboard = await browser.request('/dashboard')
  if (dashboard.status !== 200 || !dashboard.text.includes('Pedro')) fail(`${what}: GET /dashboard → ${dashboard.status} ${dashboard.location ?? ''} (expected 200 with the patient's name)`)
}

/**
 * A page of the booking flow; a 503 (the app's read of the provider timed out: a cold replica on a
 * busy machine) is asked once more, and said. The loop of step 5 never asks again.
 */
async function page(browser, pathname) {
  const answer = await browser.request(pathname)
  if (answer.status !== 503) return answer
  say(`note: GET ${pathname} → 503 (the app's provider read timed out); asking once more`)
  await sleep(1_000)
  return browser.request(pathname)
}

/** Books Paula Ribeiro (a paid consultation) with PIX, pays it on the fake Stripe's page, and returns the purchase's path once it says paid. */
async function bookAndPayByPix(browser) {
  const directory = await page(browser, '/consultas/profissionais')
  const card = directory.text.split('<article').find((part) => part.includes('Paula Ribeiro'))
  const bookPath = card && /href="(\/consultas\/agendar\/\d+)"/.exec(card)?.[1]
  if (directory.status !== 200 || !bookPath) fail(`GET /consultas/profissionais → ${directory.status}, no booking link for Paula Ribeiro`)
  const booking = await page(browser, bookPath)
  const dates = [...new Set([...booking.text.matchAll(/href="[^"]*\?data=(\d{4}-\d{2}-\d{2})"/g)].map((match) => match[1]))]
  if (booking.status !== 200 || dates.length < 2) fail(`GET ${bookPath} → ${booking.status}, ${dates.length} dates offered`)
  const day = `${bookPath}?data=${dates[1]}`
  const picker = await page(browser, day)
  const times = formsOf(picker.text).flatMap((form) => form.radios).filter((radio) => radio.name === 'start_time')
  if (picker.status !== 200 || times.length === 0) fail(`GET ${day} → ${picker.status}, no time to choose`)
  const review = await submit(browser, picker.text, day, 'Continuar', { start_time: times[0].value })
  if (review.status !== 200 || !review.text.includes('Confira seu agendamento') || !review.text.includes('R$')) fail(`Continuar → ${review.status} ${review.location ?? ''} (expected the review with the price)\n${review.text.slice(0, 300)}`)
  const confirmed = await submit(browser, review.text, day, 'Confirmar agendamento')
  const purchasePath = confirmed.location && new URL(confirmed.location, 'http://x').pathname
  if (![302, 303].includes(confirmed.status) || !/^\/compras\/\d+$/.test(purchasePath ?? '')) fail(`Confirmar agendamento → ${confirmed.status} ${confirmed.location ?? ''} (expected the purchase's page)\n${confirmed.text.slice(0, 300)}`)
  const purchase = await page(browser, purchasePath)
  const pixPage = /href="([^"]*\/fake-stripe\/pix\/[^"]+)"/.exec(purchase.text)?.[1]
  if (purchase.status !== 200 || !pixPage || !purchase.text.includes('Horário reservado')) fail(`GET ${purchasePath} → ${purchase.status}, PIX page link ${pixPage ?? 'missing'}`)
  // The fake's page is the provider's, under the same public address: through the balancer too.
  const pixUrl = new URL(decode(pixPage))
  const bank = client(pixUrl.origin)
  const pix = await bank.request(`${pixUrl.pathname}${pixUrl.search}`)
  if (pix.status !== 200) fail(`the fake Stripe's PIX page ${pixUrl.pathname} through the balancer → ${pix.status}`)
  const paid = await submit(bank, pix.text, pixUrl.pathname, 'Pay this charge')
  if (paid.status >= 400) fail(`Pay this charge → ${paid.status}\n${paid.text.slice(0, 300)}`)
  await until('the purchase saying "Pagamento confirmado"', 60_000, async () => {
    let view = await browser.request(purchasePath)
    if (!view.text.includes('Pagamento confirmado') && formsOf(view.text).some((form) => form.buttons.some((button) => button.text === 'Atualizar situação do pagamento'))) {
      await submit(browser, view.text, purchasePath, 'Atualizar situação do pagamento')
      view = await browser.request(purchasePath)
    }
    return view.text.includes('Pagamento confirmado') || `${view.status}`
  })
  ok(`${PATIENT} booked Paula Ribeiro on ${dates[1]} (${purchasePath}), paid by PIX on the fake Stripe's page (${pixUrl.pathname.replace(/[^/]+$/, '…')}, through the balancer): "Pagamento confirmado"`)
  return purchasePath
}

/** POST /habitos/novo; its status (a redirect when created). */
async function createHabit(browser, name) {
  return (await browser.request('/habitos/novo', { name, pillar: 'sono', frequency: 'daily' })).status
}

/**
 * One request followed across the three (decision 0089): the catalogue (it asks the provider for the products), sent with no
 * X-Request-Id, comes back with the one HAProxy made, and that id is in the balancer's log, one
 * app's and one provider's.
 */
async function checkRequestId(base) {
  const response = await fetch(`${base}/solucoes`, { redirect: 'manual', signal: AbortSignal.timeout(60_000) })
  await response.text()
  const id = response.headers.get('x-request-id') ?? ''
  if (response.status !== 200 || !/^[0-9A-F]+(-[0-9A-F]+){5,}$/.test(id)) fail(`GET /solucoes through the balancer → ${response.status}, X-Request-Id "${id}" (not one HAProxy made)`)
  const seen = () => ({
    balancer: logsOf(container('lb'), 300).includes(id),
    app: [1, 2].some((number) => logsOf(container('app', number), 400).includes(id)),
    provider: [1, 2].some((number) => logsOf(container('provider', number), 400).includes(id)),
  })
  await until(`the request id ${id} in the three logs`, 15_000, () => Object.values(seen()).every(Boolean) || JSON.stringify(seen()))
  ok(`one request followed across the three: X-Request-Id ${id}, made by HAProxy, sent back and logged by the balancer, an app and a provider`)
}

async function flows(base) {
  const t0 = performance.now()
  await checkHomePage(base)
  await checkRequestId(base)
  const patient = await signIn(base)
  await expectDashboard(patient, `signed in as ${PATIENT} through the balancer`)
  ok(`${PATIENT} signed in through the balancer; GET /dashboard → 200 with the patient's name`)
  const purchasePath = await bookAndPayByPix(patient)
  const habit = `Compose ${Date.now().toString(36)}`
  const status = await createHabit(patient, habit)
  const list = await patient.request('/habitos')
  if (![302, 303].includes(status) || !list.text.includes(habit)) fail(`creating the habit "${habit}": POST /habitos/novo → ${status}; GET /habitos ${list.status} ${list.text.includes(habit) ? 'lists it' : 'does not list it'}`)
  ok(`habit "${habit}" created (POST /habitos/novo → ${status}) and read back (GET /habitos lists it)`)

  // Each app by its own address on the compose network: a session signed in on one is read by the other.
  const [one, two] = [1, 2].map((number) => `http://${ipOf(container('app', number))}:3000`)
  const onOne = await signIn(one)
  const onTwo = client(two)
  for (const [name, value] of onOne.cookies) onTwo.cookies.set(name, value)
  await expectDashboard(onTwo, 'the session signed in on app 1, read by app 2')
  ok(`a session signed in on ${container('app', 1)} is read by ${container('app', 2)} (GET /dashboard → 200 there)`)
  timed('flows: home, sign-in, PIX booking paid, habit, session across apps', performance.now() - t0)
  return { patient, purchasePath, habit, cookiesFromAppOne: onOne.cookies }
}

// ---------------------------------------------------------------------------------------------
// 4b. Metrics, scraped by a real Prometheus (the compose file's, deploy/prometheus.yml)

/** An instant query of the deployment's Prometheus, through its port on the host's loopback: the result vector. */
async function promQuery(prometheus, query) {
  const response = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(query)}`, { signal: AbortSignal.timeout(5_000) })
  const body = await response.json()
  if (body.status !== 'success') throw new Error(`${query}: ${body.error ?? response.status}`)
  return body.data.result
}

const sumOf = (vector) => vector.reduce((sum, sample) => sum + Number(sample.value[1]), 0)

/** The series only the check's own traffic makes: the habits' routes, on the apps and on the providers. */
const HABIT_REQUESTS = {
  app: 'sum(innera_app_http_requests_total{route=~"routes/habitos.*"})',
  provider: 'sum(innera_provider_http_requests_total{route=~".*habit.*"})',
}

/** `up` = 1 for each of the 4 replicas, each by its own address on the compose network; and no metrics through the balancer. */
async function checkScraped(prometheus, base) {
  const t0 = performance.now()
  const outside = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30_000) })
  const text = await outside.text()
  if (outside.status !== 404 || text.includes('innera_app_http_requests_total')) fail(`GET /metrics through the balancer → ${outside.status}${text.includes('innera_') ? ', with the series' : ''} (expected 404: metrics are never on the public port)`)
  const expected = [
    ...[1, 2].map((number) => `innera-app ${ipOf(container('app', number))}:9464`),
    ...[1, 2].map((number) => `innera-provider ${ipOf(container('provider', number))}:9465`),
  ]
  await until('Prometheus answering up = 1 for the 2 apps and the 2 providers', 90_000, async () => {
    const seen = Object.fromEntries((await promQuery(prometheus, 'up')).map((sample) => [`${sample.metric.job} ${sample.metric.instance}`, sample.value[1]]))
    return expected.every((target) => seen[target] === '1') || JSON.stringify(seen)
  })
  ok(`Prometheus (deploy/prometheus.yml, replicas found by the services' names) answers up = 1 for ${expected.map((target) => target.split(' ')[1]).join(', ')} in ${seconds(timed('metrics: every replica scraped', performance.now() - t0))}; GET /metrics through the balancer → 404`)
}

/** After the flows: the habit routes' request counters, absent before, counted on both sides. */
async function checkCounted(prometheus, before) {
  const t0 = performance.now()
  let now
  await until("the check's habit requests counted in Prometheus", 60_000, async () => {
    now = { app: sumOf(await promQuery(prometheus, HABIT_REQUESTS.app)), provider: sumOf(await promQuery(prometheus, HABIT_REQUESTS.provider)) }
    return (now.app >= before.app + 2 && now.provider >= before.provider + 2) || JSON.stringify(now)
  })
  ok(`the request counters rose with the check's traffic: habit routes ${before.app} → ${now.app} on the apps (innera_app_http_requests_total), ${before.provider} → ${now.provider} on the providers, read from Prometheus ${seconds(timed('metrics: the traffic counted', performance.now() - t0))} after the flows`)
}

// ---------------------------------------------------------------------------------------------
// 5. Replicas killed under load

/**
 * One app and one provider killed while a bounded loop of sign-ins, reads and writes runs (one
 * request at a time, at most LOOP_LIMIT_MS): when HAProxy takes each out, and whether every request
 * sent after that was answered by the survivors.
 */
const LOOP_LIMIT_MS = 45_000
const SIGN_INS = 10
const SIGN_IN_ACCOUNTS = ['paciente2@innera.local', 'nutricionista@innera.local']
const AFTER_NOTICED_MS = 12_000

async function failover(base, { cookiesFromAppOne }, ips) {
  const reader = client(base)
  for (const [name, value] of cookiesFromAppOne) reader.cookies.set(name, value)
  const writer = await signIn(base)
  const requests = []
  const written = []
  let stop = false
  let signIns = 0
  const loop = (async () => {
    const loopStart = performance.now()
    for (let index = 0; !stop && performance.now() - loopStart < LOOP_LIMIT_MS; index += 1) {
      const at = performance.now()
      let what
      let good
      try {
        if (index % 4 === 0) {
          what = 'GET /dashboard (the session made on app 1)'
          const page = await reader.request('/dashboard')
          good = page.status === 200 && page.text.includes('Pedro')
          what += ` → ${page.status}`
        } else if (index % 4 === 1) {
          what = 'POST /habitos/novo'
          const name = `Falha ${index} ${Date.now().toString(36)}`
          const status = await createHabit(writer, name)
          what += ` → ${status}`
          good = [302, 303].includes(status)
          written.push({ name, answered: good })
        } else if (index % 4 === 2 && signIns < SIGN_INS) {
          // Two accounts in turn, within the login throttles (10 per e-mail, 30 per address in 5 minutes).
          const email = SIGN_IN_ACCOUNTS[signIns % SIGN_IN_ACCOUNTS.length]
          signIns += 1
          const login = await client(base).request('/auth?mode=login', { email, password: DEMO_PASSWORD })
          what = `POST /auth?mode=login (${email}) → ${login.status}`
          good = [302, 303].includes(login.status)
        } else {
          what = 'GET /habitos'
          const page = await writer.request('/habitos')
          what += ` → ${page.status}`
          good = page.status === 200 && page.text.includes('Compose ')
        }
      } catch (error) {
        good = false
        what = `${what}: ${error.cause?.code ?? error.message}`
      }
      requests.push({ at, done: performance.now(), what, good })
      await sleep(100)
    }
  })()

  await sleep(2_000)
  const victims = [container('app', 1), container('provider', 1)]
  const killedAt = performance.now()
  for (const name of victims) podmanOrFail(['kill', name], `killing ${name}`)
  say(`killed ${victims.join(' and ')} (podman kill) with the loop running`)
  const noticed = await until('HAProxy taking the killed app and provider out', 30_000, async () => {
    const view = await balancerView()
    const stillUp = Object.entries(view).filter(([name, state]) => state.startsWith('UP') && ((name.startsWith('apps/') && state.includes(`${ips.apps}:`)) || (name.startsWith('providers/') && state.includes(`${ips.providers}:`))))
    return (stillUp.length === 0 && upCount(view, 'apps') === 1 && upCount(view, 'providers') === 1) || JSON.stringify(view)
  })
  const noticedAt = killedAt + noticed
  ok(`HAProxy took the killed app and provider out ${seconds(noticed)} after podman kill (checks every 1 s, out after 2 failed)`)
  await sleep(AFTER_NOTICED_MS)
  stop = true
  await loop
  const restarted = victims.filter((name) => podman(['inspect', '--format', '{{.State.Running}}', name]).stdout === 'true')
  if (restarted.length) say(`note: ${restarted.join(', ')} restarted by the engine before the loop ended (restart: unless-stopped)`)

  const before = requests.filter((request) => request.at < killedAt)
  const window = requests.filter((request) => request.at >= killedAt && request.at < noticedAt)
  const after = requests.filter((request) => request.at >= noticedAt)
  const failedAfter = after.filter((request) => !request.good)
  if (before.some((request) => !request.good)) fail(`before the kill, ${before.filter((request) => !request.good).length} of ${before.length} requests failed: ${before.find((request) => !request.good).what}`)
  if (after.length < 10 || failedAfter.length) fail(`after HAProxy noticed, ${failedAfter.length} of ${after.length} requests failed: ${failedAfter.slice(0, 5).map((request) => request.what).join('; ')}`)
  ok(`the loop: ${requests.length} requests (${signIns} sign-ins); before the kill ${before.length} all answered; while HAProxy had not noticed ${window.length}, ${window.filter((request) => !request.good).length} failed; after it noticed ${after.length}, every one answered by the survivors`)
  ok(`the session signed in on ${container('app', 1)} was read by the survivor after the kill (${after.filter((request) => request.what.startsWith('GET /dashboard')).length} dashboards)`)
  timed('failover: the loop with the kill', performance.now() - killedAt + 2_000)

  // Back: both started again, and counted up.
  const t0 = performance.now()
  for (const name of victims) podman(['start', name])
  // HAProxy's count alone is not enough: a slot that DNS gives the restarted container's address can
  // show UP before that container's first check (a run once stopped a provider still starting). Each
  // restarted replica's own readiness answers too.
  const readyPath = (name) => (name.includes('_provider_') ? `http://${ipOf(name)}:8000/readyz/` : `http://${ipOf(name)}:3000/readyz`)
  const readyz = (name) => fetch(readyPath(name), { signal: AbortSignal.timeout(2_000) }).then((response) => response.status, () => 0)
  await until('HAProxy counting the restarted replicas up again, and each of them ready', 120_000, async () => {
    const view = await balancerView()
    const ready = await Promise.all(victims.map(readyz))
    return (upCount(view, 'apps') === 2 && upCount(view, 'providers') === 2 && ready.every((status) => status === 200)) || `${JSON.stringify(view)}; readyz ${victims.map((name, index) => `${name} ${ready[index]}`).join(', ')}`
  })
  ok(`${victims.join(' and ')} started again, each ready (its own /readyz 200) and counted up by HAProxy, in ${seconds(timed('failover: killed replicas back', performance.now() - t0))}`)
  return { written }
}

/** SQL in the PostgreSQL container, as the deployment's own user. */
function sql(query) {
  return podmanOrFail(['exec', container('postgres'), 'psql', '-U', 'innera', '-d', 'innera', '-At', '-c', query], `psql: ${query}`)
}

async function exactlyOnce({ patient, purchasePath, habit }, { written }) {
  const names = [habit, ...written.map((entry) => entry.name)]
  const quoted = names.map((name) => `'${name.replace(/'/g, "''")}'`).join(',')
  const counts = Object.fromEntries(sql(`select name, count(*) from habits where name in (${quoted}) group by name`).split('\n').filter(Boolean).map((line) => line.split('|')).map(([name, count]) => [name, Number(count)]))
  const twice = names.filter((name) => (counts[name] ?? 0) > 1)
  const lost = [habit, ...written.filter((entry) => entry.answered).map((entry) => entry.name)].filter((name) => !counts[name])
  if (twice.length || lost.length) fail(`habits in the database: ${twice.length} twice (${twice.join(', ')}), ${lost.length} answered but missing (${lost.join(', ')})`)
  const unanswered = written.filter((entry) => !entry.answered)
  const purchaseId = purchasePath.split('/').at(-1)
  const userId = sql(`select id from users where email = '${PATIENT}'`)
  const appointments = sql(`select count(*) from appointments where patient_id = ${userId}`)
  const purchases = sql(`select count(*), string_agg(status, ',') from purchases where user_id = ${userId}`)
  if (appointments !== '1' || purchases !== '1|paid') fail(`the patient has ${appointments} appointments and purchases ${purchases} (count|statuses; expected one booking and its one purchase, paid)`)
  ok(`in the database: each of the ${names.length} habits once (${written.filter((entry) => entry.answered).length} answered during the loop, none missing; ${unanswered.length} unanswered, ${unanswered.filter((entry) => counts[entry.name]).length} of them applied anyway); one appointment, one purchase (#${purchaseId}, ${purchases.split('|')[1]})`)
  // And read back through the balancer, whichever replicas answer.
  const list = await patient.request('/habitos')
  const missing = names.filter((name) => (counts[name] ?? 0) === 1 && !list.text.includes(name))
  if (list.status !== 200 || missing.length) fail(`GET /habitos after the replicas came back → ${list.status}, ${missing.length} habits not listed`)
  const purchase = await patient.request(purchasePath)
  if (!purchase.text.includes('Pagamento confirmado')) fail(`GET ${purchasePath} after the replicas came back does not say "Pagamento confirmado"`)
  ok(`read back through the balancer with all replicas up: every habit listed, the purchase still paid`)
}

// ---------------------------------------------------------------------------------------------
// 6. Down

async function down() {
  const t0 = performance.now()
  const names = JSON.parse(podman(['ps', '--all', '--filter', `label=io.podman.compose.project=${PROJECT}`, '--format', 'json']).stdout || '[]').map((entry) => entry.Names[0])
  composeOrFail(['stop', '-t', String(STOP_GRACE_S)], 'stopping the deployment', { timeoutMs: 300_000 })
  const codes = names.map((name) => [name, podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout])
  const unclean = codes.filter(([name, code]) => code !== '0' && !name.endsWith('_migrate_1'))
  const stopMs = timed('down: stop', performance.now() - t0)
  // What an unclean stop looked like, read before down -v removes the containers: when the process
  // started and ended, and whether it logged its shutdown (it heard SIGTERM) and how far it got.
  const evidence = unclean.map(([name]) => {
    const state = podman(['inspect', '--format', 'started {{.State.StartedAt}}, finished {{.State.FinishedAt}}, OOM killed {{.State.OOMKilled}}, error "{{.State.Error}}"', name]).stdout
    return `--- ${name}: ${state}\n${logsOf(name, 40)}`
  })
  composeOrFail(['down', '-v'], 'removing the deployment', { timeoutMs: 300_000 })
  podman(['network', 'rm', `${PROJECT}_default`])
  deployed = false
  const left = podman(['ps', '--all', '--filter', `label=io.podman.compose.project=${PROJECT}`, '--format', '{{.Names}}']).stdout
  const volumes = podman(['volume', 'ls', '--format', '{{.Name}}']).stdout.split('\n').filter((name) => name.startsWith(PROJECT))
  if (unclean.length) fail(`after podman-compose stop (SIGTERM, ${STOP_GRACE_S} s grace), exit codes: ${unclean.map(([name, code]) => `${name} ${code}`).join(', ')} (expected 0)\n${evidence.join('\n')}`)
  if (left || volumes.length) fail(`after podman-compose down -v: containers ${left || 'none'}, volumes ${volumes.join(', ') || 'none'}`)
  ok(`podman-compose stop: the ${codes.length} containers ended with exit code 0 in ${seconds(stopMs)}; down -v: no container, volume or network left`)
  timed('down: stop and remove', performance.now() - t0)
}

/** What earlier runs left behind when they were killed before their cleanup: their process is gone. */
function removeLeftovers() {
  const alive = (pid) => {
    try {
      process.kill(pid, 0)
      return true
    } catch (error) {
      return error.code === 'EPERM'
    }
  }
  const stale = (name) => {
    const pid = /^innera-compose-(\d+)(?:[_:]|$)/.exec(name)?.[1]
    return pid !== undefined && Number(pid) !== process.pid && !alive(Number(pid))
  }
  const lines = (args) => podman(args).stdout.split('\n').map((line) => line.trim()).filter(stale)
  const containers = lines(['ps', '--all', '--format', '{{.Names}}'])
  for (const name of containers) podman(['rm', '--force', '--time', '0', name])
  const volumes = lines(['volume', 'ls', '--format', '{{.Name}}'])
  for (const name of volumes) podman(['volume', 'rm', '--force', name])
  const networks = lines(['network', 'ls', '--format', '{{.Name}}'])
  for (const name of networks) podman(['network', 'rm', '--force', name])
  const images = podman(['images', '--format', '{{.Repository}}:{{.Tag}}']).stdout.split('\n').map((line) => line.replace(/^localhost\//, '')).filter(stale)
  for (const name of images) podman(['untag', `localhost/${name}`, `localhost/${name}`])
  const count = containers.length + volumes.length + networks.length + images.length
  if (count) say(`removed what killed runs left: ${[...containers, ...volumes, ...networks, ...images].join(', ')}`)
}

function removeDeployment() {
  if (!deployed) return
  compose(['down', '-v', '-t', '1'], { timeoutMs: 120_000 })
  podman(['network', 'rm', `${PROJECT}_default`])
  deployed = false
}

// ---------------------------------------------------------------------------------------------

async function main() {
  say(`compose.yaml run by podman-compose and Podman (cache: ${cacheDir})`)
  mkdirSync(logDir, { recursive: true })
  ensureEngine([...PACKAGES, 'podman-compose'])
  say(`${run('podman', ['--version']).stdout}, ${run('podman-compose', ['--version']).output.split('\n').find((line) => line.startsWith('podman-composer') || line.includes('podman-compose')) ?? 'podman-compose'}`)
  let t0 = performance.now()
  const base = dockerfileBase()
  ensureBaseImage(base)
  await ensureImage()
  ensureStandIns(base)
  timed('images (base, image, stand-ins)', performance.now() - t0)

  removeLeftovers()
  const port = await freePort()
  const prometheusPort = await freePort()
  const prometheus = `http://127.0.0.1:${prometheusPort}`
  const publicUrl = `http://127.0.0.1:${port}`
  // deploy/.env as the operations page makes it, in a folder of this run's own: its values are
  // podman-compose's environment for the compose file's variables (as `set -a; . deploy/.env`
  // does); provider.env and app.env beside it, named by INNERA_PROVIDER_ENV_FILE and INNERA_APP_ENV_FILE.
  const settings = deploymentEnv(port)
  const envFolder = mkdtempSync(path.join(os.tmpdir(), 'innera-compose-'))
  cleanUps.push(() => rmSync(envFolder, { recursive: true, force: true }))
  const envFile = (name, values) => {
    const file = path.join(envFolder, name)
    writeFileSync(file, Object.entries(values).map(([key, value]) => `${key}=${value}\n`).join(''), { mode: 0o600 })
    return file
  }
  envFile('.env', { ...settings, ...optionalPorts(prometheusPort) })
  const demo = demoSettings(port)
  composeEnv = {
    ...envForPodmanCallers(),
    ...settings,
    ...optionalPorts(prometheusPort),
    INNERA_PROVIDER_ENV_FILE: envFile('provider.env', demo.provider),
    INNERA_APP_ENV_FILE: envFile('app.env', demo.app),
    INNERA_IMAGE: RUN_IMAGE,
  }
  await up()
  const ips = { apps: ipOf(container('app', 1)), providers: ipOf(container('provider', 1)) }
  // Prometheus' first scrapes while the flows run; the counters of the habit routes before them.
  const before = { app: sumOf(await promQuery(prometheus, HABIT_REQUESTS.app).catch(() => [])), provider: sumOf(await promQuery(prometheus, HABIT_REQUESTS.provider).catch(() => [])) }
  const [state] = await Promise.all([flows(publicUrl), checkScraped(prometheus, publicUrl)])
  await checkCounted(prometheus, before)
  const loop = await failover(publicUrl, state, ips)
  await exactlyOnce(state, loop)
  await down()
  say(`passed in ${seconds(performance.now() - started)}`)
  for (const line of timings) say(`  ${line}`)
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`[compose] ${signal}: removing the deployment`)
    removeDeployment()
    for (const cleanUp of cleanUps) cleanUp()
    process.exit(130)
  })
}

try {
  await main()
} catch (error) {
  if (error instanceof Skip) {
    console.log(`[compose] SKIPPED: ${error.message}`)
  } else {
    console.error(`[compose] FAILED: ${error instanceof Failure ? error.message : (error?.stack ?? error)}`)
    if (deployed) for (const name of [container('migrate'), container('provider', 1), container('provider', 2), container('app', 1), container('app', 2), container('lb'), container('prometheus')]) console.error(`--- ${name} ---\n${logsOf(name, 15)}`)
    process.exitCode = 1
  }
} finally {
  if (has('podman-compose')) removeDeployment()
  for (const cleanUp of cleanUps) cleanUp()
}
