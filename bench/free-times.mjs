/**
 * The provider's free-time computation (server/appointments/free-times.ts) for one professional over
 * the 60-day horizon with 200 booked appointments: the module is bundled as it ships (esbuild, as
 * `npm run build:provider` does) and called directly, so the figure is the computation alone.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { root } from './lib/instance.mjs'
import { median } from './waterfall.mjs'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

export async function measureFreeTimes({ runs = 200, bookings = 200 } = {}) {
  const dir = path.join(root, 'node_modules/.cache/innera-bench')
  mkdirSync(dir, { recursive: true })
  const outfile = path.join(dir, 'free-times.mjs')
  await build({ entryPoints: [path.join(root, 'server/appointments/free-times.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'warning' })
  const { freeTimes } = await import(`${pathToFileURL(outfile).href}?${Date.now()}`)

  const day = (enabled, slots) => ({ enabled, slots })
  const weekday = day(true, [{ start: '08:00', end: '12:00' }, { start: '13:00', end: '18:00' }])
  const schedule = {
    timeZone: 'America/Sao_Paulo',
    consultationMinutes: 50,
    bufferMinutes: 10,
    minimumNoticeHours: 12,
    horizonDays: 60,
    availability: { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday, saturday: day(true, [{ start: '09:00', end: '12:00' }]), sunday: day(false, []) },
  }
  const now = Date.parse('2026-03-02T12:00:00Z')
  // 200 bookings on free times spread over the horizon (every other free time until there are enough).
  const all = freeTimes({ schedule, exceptions: [], booked: [], now })
  const step = Math.max(1, Math.floor(all.length / bookings))
  const booked = all.filter((_, index) => index % step === 0).slice(0, bookings).map((start, id) => ({ id, start, blockedUntil: start + 60 * MINUTE }))
  const exceptions = [{ date: '2026-03-20', slots: [] }, { date: '2026-04-03', slots: [{ start: '10:00', end: '14:00' }] }]

  const times = []
  let slots = 0
  for (let index = -20; index < runs; index += 1) {
    const started = performance.now()
    slots = freeTimes({ schedule, exceptions, booked, now, window: { start: now, end: now + 60 * DAY } }).length
    if (index >= 0) times.push(performance.now() - started)
  }
  return { runs, bookings: booked.length, slots, medianMs: Math.round(median(times) * 1000) / 1000, maxMs: Math.round(Math.max(...times) * 1000) / 1000 }
}
