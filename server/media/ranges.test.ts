import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fileETag, fileResponse, type FileOnDisk, type FileRequest } from '#server/media/ranges.ts'

// 1000 known bytes: byte i is i % 251 (a prime, so no run repeats along a power of two).
const SIZE = 1000
const bytes = Buffer.from(Array.from({ length: SIZE }, (_, index) => index % 251))
const directory = mkdtempSync(join(tmpdir(), 'innera-ranges-'))
const path = join(directory, 'lesson.mp4')
writeFileSync(path, bytes)
const { mtimeMs } = statSync(path)
const file: FileOnDisk = { path, size: SIZE, mtimeMs, contentType: 'video/mp4' }
const ETAG = fileETag(SIZE, mtimeMs)
afterAll(() => rmSync(directory, { recursive: true, force: true }))

const HEADERS = { 'Cache-Control': 'private, max-age=60' }

async function get(request: Partial<FileRequest> = {}, onDisk: FileOnDisk = file) {
  const response = fileResponse({ method: 'GET', ...request }, onDisk, HEADERS)
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : null
  return { status: response.status, headers: response.headers, body }
}

const range = (value: string) => get({ range: value })

describe('the whole file', () => {
  it('is a 200 with its length, type, validators and the given headers', async () => {
    const { status, headers, body } = await get()
    expect(status).toBe(200)
    expect(body!.equals(bytes)).toBe(true)
    expect(headers.get('Content-Length')).toBe(String(SIZE))
    expect(headers.get('Content-Type')).toBe('video/mp4')
    expect(headers.get('Accept-Ranges')).toBe('bytes')
    expect(headers.get('ETag')).toBe(`"3e8-${Math.floor(mtimeMs).toString(16)}"`)
    expect(headers.get('Last-Modified')).toBe(new Date(mtimeMs).toUTCString())
    expect(headers.get('Cache-Control')).toBe('private, max-age=60')
    expect(headers.get('Content-Range')).toBeNull()
  })

  it('HEAD: the same headers, no body', async () => {
    const response = fileResponse({ method: 'HEAD' }, file, HEADERS)
    expect(response.status).toBe(200)
    expect(response.body).toBeNull()
    expect(response.headers.get('Content-Length')).toBe(String(SIZE))
    expect(response.headers.get('ETag')).toBe(ETAG)
  })

  it('HEAD ignores Range (range handling is defined for GET only)', async () => {
    const response = fileResponse({ method: 'HEAD', range: 'bytes=0-99' }, file, HEADERS)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Length')).toBe(String(SIZE))
  })
})

describe('one range', () => {
  it('0-99 → 206 with the first 100 bytes', async () => {
    const { status, headers, body } = await range('bytes=0-99')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 0-99/${SIZE}`)
    expect(headers.get('Content-Length')).toBe('100')
    expect(headers.get('Content-Type')).toBe('video/mp4')
    expect(headers.get('ETag')).toBe(ETAG)
    expect(body!.equals(bytes.subarray(0, 100))).toBe(true)
  })

  it('100- → 206 from byte 100 to the end', async () => {
    const { status, headers, body } = await range('bytes=100-')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 100-999/${SIZE}`)
    expect(body!.equals(bytes.subarray(100))).toBe(true)
  })

  it('-50 → 206 with the last 50 bytes', async () => {
    const { status, headers, body } = await range('bytes=-50')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 950-999/${SIZE}`)
    expect(body!.equals(bytes.subarray(950))).toBe(true)
  })

  it('a last position past the end is clamped to the end (0-99999999999 → 206)', async () => {
    const { status, headers, body } = await range('bytes=0-99999999999')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 0-999/${SIZE}`)
    expect(headers.get('Content-Length')).toBe(String(SIZE))
    expect(body!.equals(bytes)).toBe(true)
  })

  it('a suffix longer than the file is the whole file, as a 206', async () => {
    const { status, headers } = await range('bytes=-5000')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 0-999/${SIZE}`)
  })

  it('the last byte alone, and the unit in capitals', async () => {
    const { status, headers, body } = await range('Bytes=999-999')
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 999-999/${SIZE}`)
    expect([...body!]).toEqual([999 % 251])
  })
})

describe('several ranges', () => {
  it('disjoint ones → the whole file, 200 (RFC 9110 lets a server ignore a Range)', async () => {
    const { status, headers, body } = await range('bytes=0-9,500-509')
    expect(status).toBe(200)
    expect(headers.get('Content-Range')).toBeNull()
    expect(body!.equals(bytes)).toBe(true)
  })

  it('touching or overlapping ones → merged into one, 206', async () => {
    const touching = await range('bytes=0-49,50-99')
    expect(touching.status).toBe(206)
    expect(touching.headers.get('Content-Range')).toBe(`bytes 0-99/${SIZE}`)
    expect(touching.body!.equals(bytes.subarray(0, 100))).toBe(true)
    const overlapping = await range('bytes=10-60, 40-120, 100-110')
    expect(overlapping.status).toBe(206)
    expect(overlapping.headers.get('Content-Range')).toBe(`bytes 10-120/${SIZE}`)
  })
})

describe('nothing to satisfy: 416 with the size', () => {
  it('a range starting at or beyond the end', async () => {
    for (const value of [`bytes=${SIZE}-`, `bytes=${SIZE + 500}-${SIZE + 600}`, 'bytes=-0']) {
      const { status, headers, body } = await range(value)
      expect(status, value).toBe(416)
      expect(headers.get('Content-Range')).toBe(`bytes */${SIZE}`)
      expect(headers.get('ETag')).toBe(ETAG)
      expect(body).toBeNull()
    }
  })

  it('a reversed range ("bytes=5-2"): invalid per RFC 9110 §14.1.1, which a server may reject; rejected like send does', async () => {
    const { status, headers } = await range('bytes=5-2')
    expect(status).toBe(416)
    expect(headers.get('Content-Range')).toBe(`bytes */${SIZE}`)
  })

  it('but one satisfiable range among unsatisfiable ones is served', async () => {
    const { status, headers } = await range(`bytes=${SIZE + 1}-,0-9`)
    expect(status).toBe(206)
    expect(headers.get('Content-Range')).toBe(`bytes 0-9/${SIZE}`)
  })
})

describe('ignored: the whole file, 200', () => {
  it('garbage, another unit, no "=", an empty set', async () => {
    for (const value of ['bytes=abc', 'bytes=1-x', 'bytes=0-1,', 'items=0-1', 'bytes 0-1', 'bytes=', '=0-1', '']) {
      const { status, headers, body } = await range(value)
      expect(status, value).toBe(200)
      expect(headers.get('Content-Range')).toBeNull()
      expect(body!.equals(bytes)).toBe(true)
    }
  })

  it('another unit even when its range would be unsatisfiable (an unknown unit must be ignored)', async () => {
    expect((await range('items=5000-')).status).toBe(200)
  })

  it('a Range header longer than 1000 characters', async () => {
    const long = `bytes=0-9,${'0-9,'.repeat(300)}0-9`
    expect(long.length).toBeGreaterThan(1000)
    expect((await range(long)).status).toBe(200)
    const padded = `bytes=0-9${' '.repeat(1000)}`
    expect((await range(padded)).status).toBe(200)
  })
})

describe('conditions', () => {
  it('If-Range with the current ETag: the range; with another, a weak one or a date: the whole file', async () => {
    expect((await get({ range: 'bytes=0-99', ifRange: ETAG })).status).toBe(206)
    for (const ifRange of ['"other"', `W/${ETAG}`, new Date(mtimeMs).toUTCString()]) {
      const { status, body } = await get({ range: 'bytes=0-99', ifRange })
      expect(status, ifRange).toBe(200)
      expect(body!.equals(bytes)).toBe(true)
    }
  })

  it('If-Range mismatch turns even an unsatisfiable range into the whole file', async () => {
    expect((await get({ range: `bytes=${SIZE}-`, ifRange: '"old"' })).status).toBe(200)
  })

  it('If-None-Match with the ETag (weakly, in a list, or *) → 304 without a body, with the validators', async () => {
    for (const ifNoneMatch of [ETAG, `W/${ETAG}`, `"old", ${ETAG}`, '*']) {
      const { status, headers, body } = await get({ ifNoneMatch, range: 'bytes=0-99' })
      expect(status, ifNoneMatch).toBe(304)
      expect(body).toBeNull()
      expect(headers.get('ETag')).toBe(ETAG)
      expect(headers.get('Cache-Control')).toBe('private, max-age=60')
    }
    expect(fileResponse({ method: 'HEAD', ifNoneMatch: ETAG }, file).status).toBe(304)
  })

  it('If-None-Match with another ETag: answered as if absent', async () => {
    expect((await get({ ifNoneMatch: '"old"' })).status).toBe(200)
    expect((await get({ ifNoneMatch: '"old"', range: 'bytes=0-0' })).status).toBe(206)
  })

  it('the ETag changes with the size or the modification time', () => {
    expect(fileETag(SIZE, mtimeMs + 1000)).not.toBe(ETAG)
    expect(fileETag(SIZE + 1, mtimeMs)).not.toBe(ETAG)
    expect(fileETag(255, 4096)).toBe('"ff-1000"')
  })
})

describe('an empty file', () => {
  it('is a 200 of nothing; any range of it is unsatisfiable', async () => {
    const empty = join(directory, 'empty.vtt')
    writeFileSync(empty, '')
    const onDisk = { path: empty, size: 0, mtimeMs, contentType: 'text/vtt; charset=utf-8' }
    const whole = await get({}, onDisk)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('Content-Length')).toBe('0')
    expect((await get({ range: 'bytes=0-' }, onDisk)).status).toBe(416)
  })
})
