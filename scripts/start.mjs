#!/usr/bin/env node
/**
 * `npm start`: builds when the build is missing or older than the sources, starts the embedded
 * provider when PROVIDER_API_URL is unset, then serves the app. `npm run dev` (--dev) runs both
 * from source with hot reload. Ctrl-C (or SIGTERM) stops both; if either dies, the other is stopped.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { BUILD_OUTPUTS, ensureBuild, root } from './lib/build.mjs'
import { appNodeArgs } from './lib/runtime.mjs'
const dev = process.argv.includes('--dev')
// A .env file beside package.json is read when present; the real environment wins over it.
if (existsSync(path.join(root, '.env'))) {
  const fromProcess = { ...process.env }
  process.loadEnvFile(path.join(root, '.env'))
  Object.assign(process.env, fromProcess)
}
const env = { ...process.env }
// An empty value (as .env.example writes them) means unset, for this script and both processes.
for (const [name, value] of Object.entries(env)) if (value === '') delete env[name]
const say = (message) => console.log(`[innera] ${message}`)
const fail = (message) => {
  console.error(`[innera] ${message}`)
  process.exit(1)
}

/** The provider's reading of an on/off variable (server/config.ts). */
const isOn = (value) => ['on', 'true', '1', 'yes'].includes(String(value ?? '').toLowerCase())

const dataDir = path.resolve(root, env.DATA_DIR ?? 'data')

/** A secret kept in the data folder, so sessions and tokens survive restarts without configuration. */
function persistentSecret(name) {
  const file = path.join(dataDir, name)
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  say(`generated ${path.relative(root, file)} (set the variable to manage it yourself)`)
  return secret
}

function buildIfNeeded() {
  // In the container (NO_BUILD=1) there are no build tools: the build must already be there.
  if (env.NO_BUILD === '1') {
    const missing = BUILD_OUTPUTS.filter((output) => !existsSync(path.join(root, output)))
    if (missing.length > 0) fail(`NO_BUILD=1 but the build is incomplete (missing ${missing.join(', ')}); run npm run build first.`)
    return
  }
  if (!ensureBuild({ log: say, env })) fail('the build failed; see above.')
}

const children = new Set()
let stopping = false
let providerReady = false

function run(name, command, args, childEnv) {
  const child = spawn(command, args, { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] })
  children.add(child)
  child.stdout.on('data', (chunk) => process.stdout.write(chunk))
  child.on('exit', (code, signal) => {
    children.delete(child)
    if (stopping) {
      if (children.size === 0) process.exit(0)
      return
    }
    const how = signal ?? `exit code ${code}`
    if (name === 'the embedded provider' && !providerReady) {
      console.error(`[innera] the embedded provider failed to start (${how}); its message is above. If its port is taken, set PROVIDER_PORT.`)
    } else {
      console.error(`[innera] ${name} stopped unexpectedly (${how}); stopping everything.`)
    }
    stopAll(1)
  })
  return child
}

function stopAll(exitCode = 0) {
  stopping = true
  if (children.size === 0) process.exit(exitCode)
  for (const child of children) child.kill('SIGTERM')
  setTimeout(() => {
    for (const child of children) child.kill('SIGKILL')
    process.exit(exitCode)
  }, 15_000).unref()
  process.exitCode = exitCode
}

process.on('SIGINT', () => stopAll(0))
process.on('SIGTERM', () => stopAll(0))

async function waitForProvider(child, url) {
  const deadline = Date.now() + 90_000
  let exited = null
  child.once('exit', (code, signal) => (exited = signal ?? `exit code ${code}`))
  while (Date.now() < deadline) {
    if (exited) fail(`the embedded provider failed to start (${exited}); see its output above.`)
    try {
      const response = await fetch(new URL('healthz/', url), { signal: AbortSignal.timeout(2_000) })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill('SIGTERM')
  fail(`the embedded provider did not answer ${url}healthz/ within 90 s.`)
}

async function main() {
  if (!dev) buildIfNeeded()
  let heapArgs
  try {
    heapArgs = appNodeArgs(env)
  } catch (error) {
    fail(error.message)
  }
  // An operator who says NODE_ENV=production (the container does) runs the real thing: the
  // embedded provider's stand-ins (dev mailbox, fake Google, fake Stripe) stay off unless turned on by name.
  // Without it, `npm start` is the demo of the quick start, and they are on (docs/decisions/0012).
  const operatorProduction = env.NODE_ENV === 'production'
  env.NODE_ENV ??= dev ? 'development' : 'production'
  env.PORT ??= '3000'
  // Absolute URLs (sitemap, hreflang, Google's redirect_uri, e-mail links) come from here, never from a request's Host.
  env.APP_PUBLIC_URL ??= `http://localhost:${env.PORT}`
  if (!env.SESSION_SECRET && env.NODE_ENV === 'production') env.SESSION_SECRET = persistentSecret('session-secret')

  if (!env.PROVIDER_API_URL) {
    const port = env.PROVIDER_PORT ?? '8000'
    const host = env.PROVIDER_HOST ?? '127.0.0.1'
    const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/`
    // The provider believes the visitor address the app forwards only with this shared secret.
    env.PROVIDER_FORWARDING_SECRET ??= persistentSecret('provider-forwarding-secret')
    const standIns = operatorProduction ? 'off' : 'on'
    const providerEnv = {
      ...env,
      PROVIDER_PORT: port,
      PROVIDER_HOST: host,
      PROVIDER_DATA_DIR: env.PROVIDER_DATA_DIR ?? path.join(dataDir, 'provider'),
      FAKE_GOOGLE: env.FAKE_GOOGLE ?? standIns,
      DEV_MAILBOX: env.DEV_MAILBOX ?? standIns,
      // The demo pays with the fake Stripe; an operator's Stripe key means real Stripe (decision 0046).
      ...(env.FAKE_STRIPE === undefined && !env.STRIPE_SECRET_KEY && { FAKE_STRIPE: standIns }),
      // The live classes' meetings come from the fake Zoom; an operator's Zoom app means real Zoom (decision 0058).
      ...(env.FAKE_ZOOM === undefined && !env.ZOOM_CLIENT_ID && { FAKE_ZOOM: standIns }),
      // Browsers' own subscriptions reach the real push services; the fake push service is for tests and an offline demo (decision 0087).
      FAKE_PUSH: env.FAKE_PUSH ?? standIns,
      PROVIDER_JWT_SECRET: env.PROVIDER_JWT_SECRET ?? persistentSecret('provider-jwt-secret'),
    }
    // Sign-in with Google goes to the embedded provider's fake Google unless configured otherwise.
    // The fake checks the client's secret as Google does, so the app and the provider get the same
    // one: this install's own, kept in the data folder, never a constant (decision 0073). The
    // provider keeps its other fakes' secrets (Stripe's, Zoom's) in its database itself.
    const appUsesFakeGoogle = !env.GOOGLE_CLIENT_ID && isOn(providerEnv.FAKE_GOOGLE)
    const fakeGoogleSecret = appUsesFakeGoogle ? (env.FAKE_GOOGLE_CLIENT_SECRET ?? env.GOOGLE_CLIENT_SECRET ?? persistentSecret('fake-google-client-secret')) : undefined
    if (fakeGoogleSecret) providerEnv.FAKE_GOOGLE_CLIENT_SECRET = fakeGoogleSecret
    say(`starting the embedded provider on ${url}`)
    const on = [
      isOn(providerEnv.DEV_MAILBOX) && `the development mailbox (${url}dev/mailbox/)`,
      isOn(providerEnv.FAKE_GOOGLE) && 'the fake Google sign-in',
      isOn(providerEnv.FAKE_STRIPE) && "the fake Stripe (Stripe's test cards, PIX paid from its page)",
      isOn(providerEnv.FAKE_ZOOM) && 'the fake Zoom (the live classes\' meetings)',
      isOn(providerEnv.FAKE_PUSH) && `the fake push service (${url}fake-push/)`,
    ].filter(Boolean)
    if (on.length > 0 && !operatorProduction) {
      const list = on.length > 1 ? `${on.slice(0, -1).join(', ')} and ${on.at(-1)}` : on[0]
      say(`demo mode: ${list} ${on.length > 1 ? 'are' : 'is'} on. With NODE_ENV=production they are off unless FAKE_GOOGLE=on, DEV_MAILBOX=on, FAKE_STRIPE=on, FAKE_ZOOM=on or FAKE_PUSH=on.`)
    }
    const provider = dev
      ? run('the embedded provider', process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'], providerEnv)
      : run('the embedded provider', process.execPath, ['build/provider/index.js'], providerEnv)
    await waitForProvider(provider, url)
    providerReady = true
    env.PROVIDER_API_URL = url
    if (fakeGoogleSecret) {
      const fakeGoogle = `${(env.PROVIDER_PUBLIC_URL ?? url).replace(/\/$/, '')}/fake-google`
      env.GOOGLE_CLIENT_ID = 'innera-dev-client'
      env.GOOGLE_CLIENT_SECRET = fakeGoogleSecret
      env.GOOGLE_AUTHORIZATION_URL ??= `${fakeGoogle}/authorize`
      env.GOOGLE_TOKEN_URL ??= `${url}fake-google/token`
      env.GOOGLE_USERINFO_URL ??= `${url}fake-google/userinfo`
    }
    // A card payment's page is the fake Stripe's, under the provider's public address.
    if (isOn(providerEnv.FAKE_STRIPE)) env.PAYMENT_PAGES_URL ??= env.PROVIDER_PUBLIC_URL ?? url
  } else {
    say(`using the provider at ${env.PROVIDER_API_URL}`)
  }

  if (dev) run('the app', process.execPath, ['node_modules/tsx/dist/cli.mjs', 'app/http/server.ts'], env)
  else run('the app', process.execPath, [...heapArgs, 'build/http/server.js'], env)
}

await main()
