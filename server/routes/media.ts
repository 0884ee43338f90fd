import { eq } from 'drizzle-orm'
import { photos } from '#server/db/schema.ts'
import { pathParam, type Api } from '#server/http/api.ts'
import { notFound } from '#server/http/errors.ts'
import type { Services } from '#server/services.ts'

/**
 * Profile photos, public like Django's MEDIA_URL. Names are random and never reused (a new
 * upload gets a new name), so responses can be cached for a year.
 */
export function registerMediaRoutes(api: Api, { db }: Services): void {
  api.endpoint('/media/photos/:name{[0-9a-f]{32}\\.(?:jpg|png|webp)}', {
    GET: async (c) => {
      const name = pathParam(c, 'name')
      const etag = `"${name}"`
      if (c.req.header('if-none-match') === etag) return c.body(null, 304, { ETag: etag })
      const [photo] = await db.select().from(photos).where(eq(photos.name, name))
      if (!photo) throw notFound()
      return c.body(new Uint8Array(photo.bytes), 200, {
        'Content-Type': photo.contentType,
        'Content-Length': String(photo.size),
        'Cache-Control': 'public, max-age=31536000, immutable',
        ETag: etag,
        'Content-Security-Policy': "default-src 'none'",
      })
    },
  })
}
