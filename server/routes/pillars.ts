import { asc, eq } from 'drizzle-orm'
import { pillars } from '#server/db/schema.ts'
import { pathParam, type Api } from '#server/http/api.ts'
import { notFound } from '#server/http/errors.ts'
import type { Database } from '#server/db/client.ts'
import type { Services } from '#server/services.ts'

type PillarRow = typeof pillars.$inferSelect

/** A pillar as `/pillars/{id or slug}/` names it: a number is an id, anything else a slug. */
export async function findPillarByKey(db: Database, key: string): Promise<PillarRow | undefined> {
  // Numeric ids beyond int4 cannot exist; treat them as unknown rather than a database error.
  const byId = /^\d{1,9}$/.test(key)
  const [pillar] = await db
    .select()
    .from(pillars)
    .where(byId ? eq(pillars.id, Number(key)) : eq(pillars.slug, key.toLowerCase()))
  return pillar
}

const serializePillar = (pillar: PillarRow) => ({
  id: pillar.id,
  slug: pillar.slug,
  order: pillar.order,
  icon: pillar.icon,
  position: pillar.position,
  // jsonb stores keys in its own order; answer in the product's language order.
  name: { pt: pillar.name.pt, en: pillar.name.en, es: pillar.name.es },
  description: { pt: pillar.description.pt, en: pillar.description.en, es: pillar.description.es },
})

/** The six health pillars: public content, no authentication. */
export function registerPillarRoutes(api: Api, { db }: Services): void {
  api.endpoint('/pillars/', {
    GET: async (c) => c.json((await db.select().from(pillars).orderBy(asc(pillars.order), asc(pillars.id))).map(serializePillar)),
  })

  api.endpoint('/pillars/:key/', {
    GET: async (c) => {
      const pillar = await findPillarByKey(db, pathParam(c, 'key'))
      if (!pillar) throw notFound()
      return c.json(serializePillar(pillar))
    },
  })
}
