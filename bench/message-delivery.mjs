/**
 * Issue 44: a message's delivery to an open stream across provider processes. Two built providers
 * (build/provider/index.js) on one throwaway PostgreSQL database: the patient sends through
 * provider A, the professional's stream (GET /messages/stream/) is held on provider A (one
 * process) or on provider B (two: the event crosses PostgreSQL's LISTEN/NOTIFY). From the send's
 * start to its event read on the stream, median and p99 over `count` messages each, sent one after
 * the other. bench/messages.ts measures the embedded single process (PGlite) the same way.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readEvents } from '../scripts/lib/sse.mjs'
import { throwawayDatabase } from './lib/database.mjs'
import { startProvider, stopChild } from './lib/instance.mjs'

const DEMO_PASSWORD = 'innera-demo-2025'

/** A provider of its own on the shared database; its errors kept in `dir` for the message when it does not start. */
async function startDeliveryProvider(label, databaseURL, dir) {
  const errors = path.join(dir, `${label}.err.log`)
  const fd = openSync(errors, 'a')
  try {
    const { url, child } = await startProvider({ env: { DATABASE_URL: databaseURL, ACCESS_TOKEN_LIFETIME: '86400', LOG_LEVEL: 'error' }, stderr: fd })
    return { url: url.replace(/\/$/, ''), stop: async () => { await stopChild(child); closeSync(fd) } }
  } catch (error) {
    closeSync(fd)
    throw new Error(`provider ${label} did not start: ${error.message}\n${readFileSync(errors, 'utf8').slice(-2000)}`)
  }
}

async function json(url, { token, body } = {}) {
  const response = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
  })
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
  return response.json()
}

const login = (provider, email) => json(`${provider.url}/authentication/custom-login/`, { body: { email, password: DEMO_PASSWORD } })

/** The stream's `message` events, by text, with the time each was read. */
function openStream(provider, token) {
  const controller = new AbortController()
  const arrivals = new Map()
  const answered = fetch(`${provider.url}/messages/stream/`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal }).then((response) => {
    if (!response.ok) throw new Error(`stream: ${response.status}`)
    return response
  })
  const reading = answered.then((response) =>
    readEvents(response.body, ({ event, data }) => {
      if (event === 'message' && data) arrivals.set(JSON.parse(data).text, performance.now())
    }),
  )
  return {
    arrivals,
    // The stream answers its headers once it listens.
    opened: answered.then(() => undefined),
    async close() {
      controller.abort()
      await reading.catch(() => undefined)
    },
  }
}

const round = (value) => Math.round(value * 10) / 10
const median = (times) => round([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)])
const percentile = (times, p) => round([...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * p))])

async function deliveries({ sender, senderToken, stream, conversationId, count, label }) {
  // The stream answers its headers once it listens; a first message proves the path before timing.
  await stream.opened
  const times = []
  for (let index = -5; index < count; index += 1) {
    const text = `${label} ${index}`
    const started = performance.now()
    await json(`${sender.url}/messages/conversations/${conversationId}/messages/`, { token: senderToken, body: { text } })
    const deadline = started + 10_000
    while (!stream.arrivals.has(text)) {
      if (performance.now() > deadline) throw new Error(`${label}: message ${index} never reached the stream`)
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    if (index >= 0) times.push(stream.arrivals.get(text) - started)
  }
  return { messages: count, medianMs: median(times), p99Ms: percentile(times, 0.99) }
}

/** @param {{ serverURL: string, count?: number }} options */
export async function measureDeliveryAcrossProcesses({ serverURL, count = 200 }) {
  const database = await throwawayDatabase(serverURL)
  const dir = mkdtempSync(path.join(tmpdir(), 'innera-delivery-'))
  const started = []
  try {
    // A first, alone: it migrates and seeds the empty database; B then finds it ready.
    started.push(await startDeliveryProvider('a', database.url, dir))
    started.push(await startDeliveryProvider('b', database.url, dir))
    const [a, b] = started
    const patient = await login(a, 'paciente@innera.local')
    const professional = await login(b, 'profissional@innera.local')
    const conversation = await json(`${a.url}/messages/conversations/`, { token: patient.access, body: { with: professional.user_id } })
    const results = {}
    for (const [key, holder, processes] of [['oneProcess', a, 1], ['twoProcesses', b, 2]]) {
      const stream = openStream(holder, professional.access)
      try {
        results[key] = { processes, ...(await deliveries({ sender: a, senderToken: patient.access, stream, conversationId: conversation.id, count, label: key })) }
      } finally {
        await stream.close()
      }
    }
    return results
  } finally {
    await Promise.all(started.map((provider) => provider.stop()))
    rmSync(dir, { recursive: true, force: true })
    await database.drop()
  }
}
