import { providerJson } from './fetch.server.ts'
import { type Pillar, pillarListSchema } from './schemas.ts'

export function listPillars() {
  return providerJson('/pillars/', pillarListSchema)
}

/**
 * How long a process reuses the pillar list for decorations (docs/decisions/0030): the names and
 * icons beside a professional. Pillars are the same public content for every visitor and change
 * seldom; a page about one professional should not wait on a second provider call for them.
 */
export const PILLAR_DISPLAY_TTL_MS = 60_000

let kept: { pillars: Pillar[]; at: number } | null = null
let reading: Promise<Pillar[]> | null = null

function readPillars(): Promise<Pillar[]> {
  reading ??= listPillars()
    .then((pillars) => {
      kept = { pillars, at: Date.now() }
      return pillars
    })
    .finally(() => {
      reading = null
    })
  return reading
}

/**
 * The pillar list for names and icons beside other content. A fresh copy is answered at once; a
 * stale one too, while one read (shared by concurrent requests) refreshes it behind; with none,
 * the request waits for that read and gets its failure. Pages about the pillars themselves (home,
 * /pilares) read them with `listPillars`, so a failing provider shows there.
 */
export async function pillarsForDisplay(): Promise<Pillar[]> {
  if (kept && Date.now() - kept.at < PILLAR_DISPLAY_TTL_MS) return kept.pillars
  const refresh = readPillars()
  if (!kept) return refresh
  refresh.catch(() => undefined) // a failed refresh keeps the stale copy; the next request tries again
  return kept.pillars
}

/** Tests: forget the kept list (msw answers differ between tests sharing the module). */
export function forgetPillarsForDisplay() {
  kept = null
  reading = null
}
