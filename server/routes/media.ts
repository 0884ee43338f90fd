import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { findLessonsDir } from '#server/courses/seed.ts'
import { photos } from '#server/db/schema.ts'
import { pathParam, type Api } from '#server/http/api.ts'
import { apiError, notFound } from '#server/http/errors.ts'
import { fileResponse } from '#server/media/ranges.ts'
import { ATTACHMENT_LINK_LIFE, ATTACHMENT_MEDIA_PREFIX, LESSON_MEDIA_PREFIX, mediaMaxAgeSeconds, mediaSigningKey, verifyMediaSignature } from '#server/media/signed-urls.ts'
import { findAttachmentToServe } from '#server/messages/repository.ts'
import type { Services } from '#server/services.ts'
import { findUserById } from '#server/users/repository.ts'

/** A lesson's files (decision 0057): `{slug}.mp4`, `{slug}.jpg` (its poster), `{slug}.{pt,en,es}.vtt`. */
const LESSON_FILE_PATTERN = '[a-z0-9]+(?:-[a-z0-9]+)*\\.(?:mp4|jpg|pt\\.vtt|en\\.vtt|es\\.vtt)'
const LESSON_FILE = new RegExp(`^${LESSON_FILE_PATTERN}$`)

const CONTENT_TYPES: Record<string, string> = { mp4: 'video/mp4', jpg: 'image/jpeg', vtt: 'text/vtt; charset=utf-8' }
const POSTER_CACHE = 'public, max-age=86400'
const SIGNATURE_REFUSED = 'This media link is not valid or has expired.'

/**
 * How an attachment is handed over: an image shown in the page, a PDF saved (never opened on this
 * site, where a document's scripts would run beside the pages). The name in plain ASCII for old
 * clients and in UTF-8 (RFC 6266) for the rest.
 */
export function attachmentDisposition(contentType: string, name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  // RFC 8187's attr-char leaves out ' ( ) * too, which encodeURIComponent keeps.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
  return `${contentType === 'application/pdf' ? 'attachment' : 'inline'}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

type MediaRouteOptions = {
  /**
   * Where the lessons' files are; unset, server/media/lessons found beside the migrations (from the
   * bundle too: the image copies it there), courses/seed.ts's findLessonsDir(). Tests give their own.
   */
  lessonsDir?: string
}

export function registerMediaRoutes(api: Api, { db, config, clock }: Services, options: MediaRouteOptions = {}): void {
  /**
   * Profile photos, public like Django's MEDIA_URL. Names are random and never reused (a new
   * upload gets a new name), so responses can be cached for a year.
   */
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

  /**
   * The lessons' videos and captions, only through a signed, unexpired URL
   * (server/media/signed-urls.ts), and their posters, public. Ranges, ETag and HEAD: media/ranges.ts
   * (Hono answers HEAD with the GET handler and drops the body; the handler sees "HEAD" and opens
   * no file). The signature is checked before the file is looked for, so an unsigned request
   * cannot tell which files exist.
   */
  const key = mediaSigningKey(config.jwtSecret)

  /**
   * A message's attachment (decision 0086), only through a link signed for one viewer, unexpired
   * (30 to 35 minutes), and only while that viewer is still one of the conversation's two with an
   * open account and the message is not deleted. Anything else is 403 (the link) or 404 (the file),
   * the signature checked first. Never cached by anything shared.
   */
  api.endpoint(`${ATTACHMENT_MEDIA_PREFIX}:attachment{[0-9]{1,15}}/:viewer{[0-9]{1,10}}`, {
    GET: async (c) => {
      const attachmentId = Number(pathParam(c, 'attachment'))
      const viewerId = Number(pathParam(c, 'viewer'))
      const now = clock()
      const expires = c.req.query('expires')
      if (!verifyMediaSignature(key, `${ATTACHMENT_MEDIA_PREFIX}${attachmentId}/${viewerId}`, expires, c.req.query('signature'), now, ATTACHMENT_LINK_LIFE)) throw apiError(403, SIGNATURE_REFUSED)
      const found = await findAttachmentToServe(db, attachmentId)
      if (!found || found.deletedAt !== null || (found.patientId !== viewerId && found.professionalId !== viewerId)) throw notFound()
      const viewer = await findUserById(db, viewerId)
      if (!viewer?.isActive) throw notFound()
      const { attachment } = found
      return c.body(new Uint8Array(attachment.bytes), 200, {
        'Content-Type': attachment.contentType,
        'Content-Length': String(attachment.size),
        'Content-Disposition': attachmentDisposition(attachment.contentType, attachment.name),
        'Cache-Control': `private, max-age=${mediaMaxAgeSeconds(Number(expires), now, ATTACHMENT_LINK_LIFE)}`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      })
    },
  })

  let lessonsDir = options.lessonsDir
  api.endpoint(`${LESSON_MEDIA_PREFIX}:file{${LESSON_FILE_PATTERN}}`, {
    GET: async (c) => {
      const file = pathParam(c, 'file')
      // The route's pattern already says so; checked again here, where the path is joined.
      if (!LESSON_FILE.test(file)) throw notFound()
      const extension = file.slice(file.lastIndexOf('.') + 1)
      let cacheControl = POSTER_CACHE
      if (extension !== 'jpg') {
        const now = clock()
        const expires = c.req.query('expires')
        if (!verifyMediaSignature(key, `${LESSON_MEDIA_PREFIX}${file}`, expires, c.req.query('signature'), now)) throw apiError(403, SIGNATURE_REFUSED)
        cacheControl = `private, max-age=${mediaMaxAgeSeconds(Number(expires), now)}`
      }
      lessonsDir ??= findLessonsDir()
      const path = join(lessonsDir, file)
      const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined
        throw error
      })
      if (!stats?.isFile()) throw notFound()
      return fileResponse(
        { method: c.req.method, range: c.req.header('range'), ifRange: c.req.header('if-range'), ifNoneMatch: c.req.header('if-none-match') },
        { path, size: stats.size, mtimeMs: stats.mtimeMs, contentType: CONTENT_TYPES[extension]! },
        { 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'" },
      )
    },
  })
}
