import { type Readable } from 'node:stream'

/** A form is text: a megabyte is far more than any of ours holds. */
export const MAX_FORM_BYTES = 1024 * 1024
/** The profile form carries a photo: the provider takes up to 2 MB, plus multipart's overhead. */
export const MAX_UPLOAD_BYTES = 6 * 1024 * 1024

/** A message's send form carries up to five files of 10 MB (decision 0086), plus the form around them. */
export const MAX_MESSAGE_UPLOAD_BYTES = 51 * 1024 * 1024

// The profile page, as a document POST and as a single-fetch data request; a conversation's thread likewise.
const UPLOAD_PATHS = /^\/perfil(?:\.data|\/)?$/
const MESSAGE_UPLOAD_PATHS = /^\/mensagens\/[0-9]{1,10}(?:\.data|\/)?$/

/** The largest body the app reads for a request to this path. */
export function bodyLimitFor(pathname: string): number {
  if (MESSAGE_UPLOAD_PATHS.test(pathname)) return MAX_MESSAGE_UPLOAD_BYTES
  return UPLOAD_PATHS.test(pathname) ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES
}

/**
 * A declared body at most this many times the limit is read on into nothing after the refusal, the
 * connection kept: every client, including those that send the whole body before they read an
 * answer, then sees the 413 instead of a broken pipe. Anything larger is refused and cut off.
 */
export const DRAIN_FACTOR = 4

/** A declared Content-Length over the limit: refused before a byte of the body is read. */
export function declaresTooMuch(contentLength: string | undefined, limit: number): boolean {
  if (contentLength === undefined) return false
  const declared = Number(contentLength)
  return Number.isFinite(declared) && declared > limit
}

/** How the body of a request came in, before the request may take a render slot. */
type ReceivedBody =
  | { kind: 'complete'; body: Buffer }
  /** `drain`: the rest of the body is being read into nothing, so the connection may stay open. */
  | { kind: 'too-large'; drain: boolean }
  | { kind: 'too-slow' }
  | { kind: 'busy' }
  | { kind: 'gone' }

/**
 * The bytes of request bodies the app holds at once, across all requests: bodies wait whole in
 * memory before they are admitted, so their sum is bounded, well under the heap cap (decision 0020).
 */
export class BodyBudget {
  #used = 0
  constructor(readonly max: number) {}
  get used() {
    return this.#used
  }
  take(bytes: number): boolean {
    if (this.#used + bytes > this.max) return false
    this.#used += bytes
    return true
  }
  release(bytes: number) {
    this.#used = Math.max(0, this.#used - bytes)
  }
}

/**
 * Reads a request's whole body, at most `limit` bytes within `timeoutMs`, before the request is
 * admitted to render (decision 0038): a visitor who trickles a body holds a socket, never a render
 * slot. A declared length over the limit is refused before a byte is kept (up to DRAIN_FACTOR
 * times the limit it is read on into nothing); past the limit (a chunked body declares none) the
 * rest is read on into nothing while the answer is written. The time runs from the end of the headers. Every byte kept is taken from `budget`;
 * a complete body's bytes stay taken until the caller releases them (once the answer is out), any
 * other outcome gives them back at once.
 */
export function receiveBody(
  source: Readable,
  { limit, timeoutMs, declaredLength, budget }: { limit: number; timeoutMs: number; declaredLength?: string; budget: BodyBudget },
): Promise<ReceivedBody> {
  if (declaresTooMuch(declaredLength, limit)) {
    const drain = !declaresTooMuch(declaredLength, limit * DRAIN_FACTOR)
    // Read on and drop: no memory kept, and the client's upload ends before it reads the answer.
    if (drain) source.resume()
    return Promise.resolve({ kind: 'too-large', drain })
  }
  if (source.readableEnded) return Promise.resolve({ kind: 'complete', body: Buffer.alloc(0) })
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let received = 0
    const finish = (result: ReceivedBody) => {
      clearTimeout(timer)
      if (result.kind !== 'complete') budget.release(received)
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onGone)
      source.off('close', onGone)
      resolve(result)
    }
    const onData = (chunk: Buffer) => {
      if (received + chunk.byteLength > limit) {
        // A body of unknown length past the limit: read on and drop while the answer is written
        // (no memory kept), then the connection closes.
        finish({ kind: 'too-large', drain: false })
        source.resume()
        return
      }
      if (!budget.take(chunk.byteLength)) {
        finish({ kind: 'busy' })
        source.resume()
        return
      }
      received += chunk.byteLength
      chunks.push(chunk)
    }
    const onEnd = () => finish({ kind: 'complete', body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received) })
    const onGone = () => finish({ kind: 'gone' })
    const timer = setTimeout(() => finish({ kind: 'too-slow' }), timeoutMs)
    source.on('data', onData)
    source.once('end', onEnd)
    source.once('error', onGone)
    source.once('close', onGone)
  })
}

/** The time a body of this path's size may take to arrive: `formTimeoutMs` per megabyte it may carry. */
export function bodyTimeoutFor(pathname: string, formTimeoutMs: number): number {
  return Math.ceil(bodyLimitFor(pathname) / MAX_FORM_BYTES) * formTimeoutMs
}

/** The longest time any body may take (a message's files): the whole request's backstop sits above it. */
export const longestBodyTimeout = (formTimeoutMs: number) => Math.ceil(MAX_MESSAGE_UPLOAD_BYTES / MAX_FORM_BYTES) * formTimeoutMs
