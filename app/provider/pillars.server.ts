import { providerJson } from './fetch.server.ts'
import { pillarListSchema, pillarSchema } from './schemas.ts'

export function listPillars() {
  return providerJson('/pillars/', pillarListSchema)
}

export function getPillar(idOrSlug: number | string) {
  return providerJson(`/pillars/${encodeURIComponent(String(idOrSlug))}/`, pillarSchema)
}
