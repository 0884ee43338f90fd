import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProviderApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import type { DatabaseHandle } from '#server/db/client.ts'
import { Api, type AppEnv } from '#server/http/api.ts'
import { ApiError, errorResponse } from '#server/http/errors.ts'
import { RouteTable } from '#server/http/route-table.ts'
import { mediaSigningKey, signedMediaUrl, signMediaPath } from '#server/media/signed-urls.ts'
import { createMemoryDatabase, fakeClock, PUBLIC_URL, testApp } from '#server/testing/harness.ts'
import { findLessonsDir } from '#server/courses/seed.ts'
import { registerMediaRoutes } from '#server/routes/media.ts'

// Tuesday 2026-03-10, 14:20 UTC: URLs signed now expire at 18:00.
const NOW = Date.parse('2026-03-10T14:20:00Z')
const time = fakeClock(NOW)

// A lesson's files with known bytes, in a folder of the test's own.
const SLUG = 'sono-1-teste'
const VIDEO = Buffer.from(Array.from({ length: 2000 }, (_, index) => index % 251))
const POSTER = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9])
const CAPTIONS = 'WEBVTT\n\n00:00.000 --> 00:02.000\nOlá\n'
const directory = mkdtempSync(join(tmpdir(), 'innera-lessons-'))
writeFileSync(join(directory, `${SLUG}.mp4`), VIDEO)
writeFileSync(join(directory, `${SLUG}.jpg`), POSTER)
writeFileSync(join(directory, `${SLUG}.pt.vtt`), CAPTIONS)
// A folder named like a file, and a file beside the folder that must stay out of reach.
mkdirSync(join(directory, 'pasta.mp4'))
writeFileSync(join(directory, '..', 'innera-secret.mp4'), 'secret')

let database: DatabaseHandle
/** The whole provider, serving the real server/media/lessons. */
let app: ProviderApp
/** The media routes alone, serving the test's folder, with the services of `app`. */
let media: Hono<AppEnv>

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock })
  media = new Hono<AppEnv>()
  registerMediaRoutes(new Api(media, new RouteTable()), app.services, { lessonsDir: directory })
  media.onError((error) => (error instanceof ApiError ? errorResponse(error) : Response.json({ detail: String(error) }, { status: 500 })))
})
afterAll(async () => {
  await database.close()
  rmSync(directory, { recursive: true, force: true })
  rmSync(join(directory, '..', 'innera-secret.mp4'), { force: true })
})

const key = () => mediaSigningKey(app.services.config.jwtSecret)
/** The path and query of a signed URL for `file`, signed at `at`. */
const signed = (file: string, at = NOW) => signedMediaUrl('', `/media/lessons/${file}`, key(), at)

async function request(path: string, { method = 'GET', headers = {}, on = media }: { method?: string; headers?: Record<string, string>; on?: Hono<AppEnv> } = {}) {
  const response = await on.request(`${PUBLIC_URL}${path}`, { method, headers })
  const body = Buffer.from(await response.arrayBuffer())
  return { status: response.status, headers: response.headers, body, json: () => JSON.parse(body.toString()) as { detail: string } }
}

describe('a signed video', () => {
  it('is served whole: 200, its type, length, validators, private caching until the expiry and the security headers', async () => {
    const { status, headers, body } = await request(signed(`${SLUG}.mp4`))
    expect(status).toBe(200)
    expect(body.equals(VIDEO)).toBe(true)
    expect(headers.get('Content-Type')).toBe('video/mp4')
    expect(headers.get('Content-Length')).toBe('2000')
    expect(headers.get('Accept-Ranges')).toBe('bytes')
    expect(headers.get('ETag')).toMatch(/^"7d0-[0-9a-f]+"$/)
    expect(headers.get('Last-Modified')).toMatch(/ GMT$/)
    // 14:20 → 18:00 is 3 h 40 min: at most 3 h.
    expect(headers.get('Cache-Control')).toBe('private, max-age=10800')
    expect(headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(headers.get('Content-Security-Policy')).toBe("default-src 'none'")
  })

  it('caches no longer than the URL lives', async () => {
    const url = signed(`${SLUG}.mp4`)
    time.set(Date.parse('2026-03-10T17:30:00Z'))
    try {
      expect((await request(url)).headers.get('Cache-Control')).toBe('private, max-age=1800')
    } finally {
      time.set(NOW)
    }
  })

  it('answers one range with 206 and Content-Range', async () => {
    const { status, headers, body } = await request(signed(`${SLUG}.mp4`), { headers: { Range: 'bytes=100-199' } })
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe('bytes 100-199/2000')
    expect(headers.get('Content-Length')).toBe('100')
    expect(body.equals(VIDEO.subarray(100, 200))).toBe(true)
    expect(headers.get('Cache-Control')).toBe('private, max-age=10800')
  })

  it('answers an unsatisfiable range with 416 and the size', async () => {
    const { status, headers } = await request(signed(`${SLUG}.mp4`), { headers: { Range: 'bytes=5000-' } })
    expect(status).toBe(416)
    expect(headers.get('Content-Range')).toBe('bytes */2000')
  })

  it('answers If-None-Match with its ETag with 304, and If-Range with another with the whole file', async () => {
    const url = signed(`${SLUG}.mp4`)
    const etag = (await request(url)).headers.get('ETag')!
    expect((await request(url, { headers: { 'If-None-Match': etag } })).status).toBe(304)
    expect((await request(url, { headers: { Range: 'bytes=0-9', 'If-Range': etag } })).status).toBe(206)
    expect((await request(url, { headers: { Range: 'bytes=0-9', 'If-Range': '"old"' } })).status).toBe(200)
  })

  it('HEAD: the headers of the GET, no body', async () => {
    const { status, headers, body } = await request(signed(`${SLUG}.mp4`), { method: 'HEAD' })
    expect(status).toBe(200)
    expect(headers.get('Content-Length')).toBe('2000')
    expect(headers.get('Content-Type')).toBe('video/mp4')
    expect(body).toHaveLength(0)
  })

  it('captions too, as text/vtt in UTF-8', async () => {
    const { status, headers, body } = await request(signed(`${SLUG}.pt.vtt`))
    expect(status).toBe(200)
    expect(headers.get('Content-Type')).toBe('text/vtt; charset=utf-8')
    expect(body.toString()).toBe(CAPTIONS)
  })
})

describe('refused: 403', () => {
  it('without a signature, expired, or tampered', async () => {
    const url = signed(`${SLUG}.mp4`)
    const { expires, signature } = signMediaPath(key(), `/media/lessons/${SLUG}.mp4`, NOW)
    const refused = [
      `/media/lessons/${SLUG}.mp4`,
      `/media/lessons/${SLUG}.mp4?expires=${expires}`,
      `/media/lessons/${SLUG}.mp4?signature=${signature}`,
      // Signed yesterday: expired.
      signed(`${SLUG}.mp4`, NOW - 24 * 3600 * 1000),
      // Another file's signature, another expiry, another signature.
      `/media/lessons/${SLUG}.mp4?expires=${expires}&signature=${signMediaPath(key(), `/media/lessons/${SLUG}.pt.vtt`, NOW).signature}`,
      `/media/lessons/${SLUG}.mp4?expires=${expires + 3600}&signature=${signature}`,
      url.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'a' ? 'b' : 'a'}`),
      `/media/lessons/${SLUG}.pt.vtt`,
    ]
    for (const path of refused) {
      const { status, json } = await request(path)
      expect(status, path).toBe(403)
      expect(json().detail).toBe('This media link is not valid or has expired.')
    }
  })

  it('signed under another secret', async () => {
    const other = signedMediaUrl('', `/media/lessons/${SLUG}.mp4`, mediaSigningKey('another-secret'), NOW)
    expect((await request(other)).status).toBe(403)
  })

  it('before the file is looked for: an unsigned request cannot tell which files exist', async () => {
    expect((await request('/media/lessons/no-such-lesson.mp4')).status).toBe(403)
  })
})

describe('posters', () => {
  it('are public, cached for a day', async () => {
    const { status, headers, body } = await request(`/media/lessons/${SLUG}.jpg`)
    expect(status).toBe(200)
    expect(body.equals(POSTER)).toBe(true)
    expect(headers.get('Content-Type')).toBe('image/jpeg')
    expect(headers.get('Cache-Control')).toBe('public, max-age=86400')
    expect(headers.get('X-Content-Type-Options')).toBe('nosniff')
  })
})

describe('not found: 404', () => {
  it('a signed URL of a file that does not exist, or of a folder', async () => {
    expect((await request(signed('no-such-lesson.mp4'))).status).toBe(404)
    expect((await request(signed('pasta.mp4'))).status).toBe(404)
    expect((await request('/media/lessons/no-such-lesson.jpg')).status).toBe(404)
  })

  it('names outside the pattern, and attempts to leave the folder', async () => {
    const attempts = [
      '/media/lessons/Sono-1.mp4',
      '/media/lessons/sono_1.mp4',
      '/media/lessons/.mp4',
      '/media/lessons/sono-1.fr.vtt',
      '/media/lessons/sono-1.vtt',
      '/media/lessons/sono-1.mp4.txt',
      '/media/lessons/sono-1.png',
      '/media/lessons/..%2finnera-secret.mp4',
      '/media/lessons/%2e%2e%2finnera-secret.mp4',
      '/media/lessons/%2E%2E/innera-secret.mp4',
      '/media/lessons/..%5cinnera-secret.mp4',
      '/media/lessons/sub/innera-secret.mp4',
      '/media/lessons/',
    ]
    for (const path of attempts) {
      for (const on of [media, app]) expect((await request(path, { on })).status, path).toBe(404)
      // Signed or not, the same.
      const signature = signedMediaUrl('', path, key(), NOW).slice(path.length)
      expect((await request(`${path}${signature}`)).status, path).toBe(404)
    }
    // "../" itself never reaches the provider: the URL is normalised first.
    expect((await request(signed('../innera-secret.mp4'))).status).toBe(404)
  })
})

describe('the provider app', () => {
  it('serves the route from server/media/lessons, the folder found from the migrations', async () => {
    expect(findLessonsDir()).toMatch(/server[/\\]media[/\\]lessons$/)
    expect((await request('/media/lessons/no-such-lesson.jpg', { on: app })).status).toBe(404)
    const unsigned = await request('/media/lessons/no-such-lesson.mp4', { on: app })
    expect(unsigned.status).toBe(403)
    expect(unsigned.json().detail).toBe('This media link is not valid or has expired.')
    const missing = await request(signed('no-such-lesson.mp4'), { on: app })
    expect(missing.status).toBe(404)
    // Only GET (and HEAD): a POST is a 405.
    expect((await request('/media/lessons/no-such-lesson.jpg', { on: app, method: 'POST' })).status).toBe(405)
  })

  // The lessons are committed (scripts/make-lessons.mjs); until they are, there is nothing to serve.
  const realVideo = existsSync(findLessonsDir()) ? readdirSync(findLessonsDir()).find((name) => name.endsWith('.mp4')) : undefined
  it.skipIf(!realVideo)('serves a real lesson video, signed, in ranges', async () => {
    const size = statSync(join(findLessonsDir(), realVideo!)).size
    const { status, headers, body } = await request(signed(realVideo!), { on: app, headers: { Range: 'bytes=0-1023' } })
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 0-1023/${size}`)
    expect(headers.get('Content-Type')).toBe('video/mp4')
    // An MP4 starts with a box of type "ftyp".
    expect(body.subarray(4, 8).toString('latin1')).toBe('ftyp')
    expect((await request(`/media/lessons/${realVideo!}`, { on: app })).status).toBe(403)
  })

  it('answers HEAD like GET', async () => {
    const { status, body } = await request('/media/lessons/no-such-lesson.mp4', { on: app, method: 'HEAD' })
    expect(status).toBe(403)
    expect(body).toHaveLength(0)
  })
})

describe('MEDIA_BASE_URL', () => {
  it('is optional, an http(s) URL with no query; its trailing slash is dropped', () => {
    expect(loadConfig({}).mediaBaseUrl).toBeUndefined()
    expect(loadConfig({ MEDIA_BASE_URL: '' }).mediaBaseUrl).toBeUndefined()
    expect(loadConfig({ MEDIA_BASE_URL: 'https://cdn.example.com/innera/' }).mediaBaseUrl).toBe('https://cdn.example.com/innera')
    expect(loadConfig({ MEDIA_BASE_URL: 'http://127.0.0.1:9000' }).mediaBaseUrl).toBe('http://127.0.0.1:9000')
    for (const bad of ['ftp://cdn.example.com', 'cdn.example.com', 'https://cdn.example.com/?a=1', 'https://user:pass@cdn.example.com']) {
      expect(() => loadConfig({ MEDIA_BASE_URL: bad }), bad).toThrow(/MEDIA_BASE_URL must be an http\(s\) URL/)
    }
  })
})
