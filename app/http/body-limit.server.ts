import { type Readable } from 'node:stream'

/** A form is text: a megabyte is far more than any of ours holds. */
export const MAX_FORM_BYTES = 1024 * 1024
/** The profile form carries a photo: the provider takes up to 2 MB, plus multipart's overhead. */
export const MAX_UPLOAD_BYTES = 6 * 1024 * 1024

// The profile page, as a document POST and as a single-fetch data request.
const UPLOAD_PATHS = /^\/perfil(?:\.data|\/)?$/

/** The largest body the app reads for a request to this path. */
export function bodyLimitFor(pathname: string): number {
  return UPLOAD_PATHS.test(pathname) ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES
}

/** A declared Content-Length over the limit: refused before a byte of the body is read. */
export function declaresTooMuch(contentLength: string | undefined, limit: number): boolean {
  if (contentLength === undefined) return false
  const declared = Number(contentLength)
  return Number.isFinite(declared) && declared > limit
}

export class BodyTooLargeError extends Error {
  constructor() {
    super('request body over the size limit')
  }
}

/**
 * The request body as a web stream that errors as soon as more than `limit` bytes have arrived
 * (a chunked body declares no length). Nothing is read until someone reads the stream; after the
 * limit the rest is drained without being kept, so the connection can still carry the answer.
 */
export function limitedBody(source: Readable, limit: number, onTooLarge: () => void): ReadableStream<Uint8Array> {
  let received = 0
  let attached = false
  let detach = () => {}
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!attached) {
          attached = true
          const onData = (chunk: Buffer) => {
            received += chunk.byteLength
            if (received > limit) {
              detach()
              // Read on and drop: no memory kept, and the answer is not cut off mid-upload.
              source.resume()
              onTooLarge()
              controller.error(new BodyTooLargeError())
              return
            }
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
            if ((controller.desiredSize ?? 0) <= 0) source.pause()
          }
          const onEnd = () => {
            detach()
            controller.close()
          }
          const onError = (error: Error) => {
            detach()
            controller.error(error)
          }
          // The visitor went away mid-upload.
          const onClose = () => onError(new Error('the request body ended early'))
          detach = () => {
            source.off('data', onData)
            source.off('end', onEnd)
            source.off('error', onError)
            source.off('close', onClose)
          }
          source.on('data', onData)
          source.once('end', onEnd)
          source.once('error', onError)
          source.once('close', onClose)
        }
        source.resume()
      },
      cancel() {
        detach()
        source.resume()
      },
    },
    // No read ahead: nothing is pulled from the socket until a reader asks (an action may never read).
    { highWaterMark: 0 },
  )
}
