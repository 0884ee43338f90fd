import { providerJson } from './fetch.server.ts'
import { pillarListSchema, pillarSchema } from './schemas.ts'

import { type Pillar } from './schemas.ts'

/**
 * The six pillars change only with a deployment of the provider: each process keeps the list it
 * last read for five minutes, so the pages that show pillar names beside other data (booking, the
 * directory) make one provider call fewer. A failed read is not kept.
 */
const PILLARS_FRESH_MS = 5 * 60 * 1000
let pillarCache: { at: number; pillars: Promise<Pillar[]> } | undefined

export function listPillars(now = Date.now()): Promise<Pillar[]> {
  if (pillarCache && now - pillarCache.at < PILLARS_FRESH_MS) return pillarCache.pillars
  const pillars = providerJson('/pillars/', pillarListSchema)
  const entry = { at: now, pillars }
  pillarCache = entry
  pillars.catch(() => {
    if (pillarCache === entry) pillarCache = undefined
  })
  return pillars
}

/** Tests: forget the kept list. */
export function forgetPillars() {
  pillarCache = undefined
}

export function getPillar(idOrSlug: number | string) {
  return providerJson(`/pillars/${encodeURIComponent(String(idOrSlug))}/`, pillarSchema)
}
