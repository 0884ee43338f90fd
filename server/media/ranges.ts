import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import parseRange from 'range-parser'

/**
 * A file from disk as an HTTP answer, with range requests per RFC 9110 (§13 conditional requests,
 * §14 ranges; decision 0057), for the lessons' videos: the browser's player asks for pieces.
 *
 * - `If-None-Match` matching the ETag (weak comparison, `*` too) → 304.
 * - Range is honoured on GET only (§14.2: HEAD and the rest ignore it), and only when `If-Range`,
 *   if sent, is the current ETag (strong comparison; an HTTP-date, which needs the
 *   Last-Modified's strength worked out, is never a match): else the whole file, 200.
 * - Only the `bytes` unit (case-insensitive); another unit, a malformed header, or one longer than
 *   1000 characters is ignored (§14.2): the whole file, 200.
 * - One range → 206 with `Content-Range`. Several are merged when they overlap or touch
 *   (range-parser's `combine`); still several → the whole file, 200 (a server may ignore a Range
 *   header, §14.2; multipart/byteranges is not worth it for a video player, which never asks for it).
 * - A suffix longer than the file ("bytes=-5000" of 1000 bytes) is the whole file, 206 (§14.1.2;
 *   range-parser would call it unsatisfiable).
 * - No satisfiable range → 416 with `Content-Range: bytes *\/{size}`. That includes a range whose
 *   last position is before its first ("bytes=5-2"): RFC 9110 calls it invalid (§14.1.1) and lets
 *   a server ignore or reject it (§14.2, §15.5.17); range-parser answers -1 for it, and we reject
 *   it with 416 as Express's `send` does, rather than special-casing it into a 200.
 */

export type FileRequest = {
  method: string
  range?: string | undefined
  ifRange?: string | undefined
  ifNoneMatch?: string | undefined
}

export type FileOnDisk = { path: string; size: number; mtimeMs: number; contentType: string }

/** Longer Range headers are ignored: no player needs one, and parsing them costs (§14.2). */
const MAX_RANGE_HEADER_LENGTH = 1000

/** A strong ETag from the file's size and modification time (both in hex), so If-Range can use it. */
export function fileETag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`
}

type Selection = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' }

/** Which part of a file of `size` bytes a GET asks for (see the module's comment). */
function selectRange(size: number, range: string | undefined, ifRange: string | undefined, etag: string): Selection {
  if (range === undefined || range.length > MAX_RANGE_HEADER_LENGTH) return { kind: 'whole' }
  // Strong comparison: the same opaque tag, neither weak. A date is no match.
  if (ifRange !== undefined && ifRange.trim() !== etag) return { kind: 'whole' }
  const equals = range.indexOf('=')
  if (equals === -1 || range.slice(0, equals).trim().toLowerCase() !== 'bytes') return { kind: 'whole' }
  // "-N" with N beyond the size means the whole file (RFC 9110 §14.1.2), which range-parser refuses.
  const specs = range
    .slice(equals + 1)
    .split(',')
    .map((spec) => {
      const suffix = /^\s*-\s*(\d+)\s*$/.exec(spec)
      return suffix && Number(suffix[1]) > size ? '0-' : spec
    })
  const ranges = parseRange(size, `bytes=${specs.join(',')}`, { combine: true })
  if (ranges === -2) return { kind: 'whole' }
  if (ranges === -1) return { kind: 'unsatisfiable' }
  const [only] = ranges
  if (ranges.length !== 1 || !only) return { kind: 'whole' }
  return { kind: 'part', start: only.start, end: only.end }
}

/** If-None-Match's weak comparison: `*`, or any listed tag equal to ours once "W/" is set aside. */
function noneMatch(header: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return header.trim() === '*' || header.split(',').some((tag) => opaque(tag) === opaque(etag))
}

/**
 * The answer to a GET or HEAD of `file` (its size and mtime from a stat just made): the body
 * streamed from disk (none for HEAD, 304 and 416), `headers` (caching, security) added to each.
 */
export function fileResponse(request: FileRequest, file: FileOnDisk, headers: Record<string, string> = {}): Response {
  const etag = fileETag(file.size, file.mtimeMs)
  const validators = { ...headers, ETag: etag, 'Last-Modified': new Date(file.mtimeMs).toUTCString(), 'Accept-Ranges': 'bytes' }
  if (request.ifNoneMatch !== undefined && noneMatch(request.ifNoneMatch, etag)) return new Response(null, { status: 304, headers: validators })

  const selection: Selection = request.method === 'GET' ? selectRange(file.size, request.range, request.ifRange, etag) : { kind: 'whole' }
  if (selection.kind === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...validators, 'Content-Range': `bytes */${file.size}`, 'Content-Length': '0' } })
  }
  const { start, end } = selection.kind === 'part' ? selection : { start: 0, end: file.size - 1 }
  const length = end - start + 1
  const responseHeaders: Record<string, string> = { ...validators, 'Content-Type': file.contentType, 'Content-Length': String(length) }
  if (selection.kind === 'part') responseHeaders['Content-Range'] = `bytes ${start}-${end}/${file.size}`
  // HEAD opens nothing: a stream nobody reads would hold the file open.
  const body = request.method === 'HEAD' || length === 0 ? null : (Readable.toWeb(createReadStream(file.path, { start, end })) as ReadableStream<Uint8Array>)
  return new Response(body, { status: selection.kind === 'part' ? 206 : 200, headers: responseHeaders })
}
