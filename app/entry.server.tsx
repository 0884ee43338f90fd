import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { getEnv } from './env.server.ts'
import { documentContentSecurityPolicy, formActionOriginsOf } from './http/security.server.ts'
import { timeStage, timeStageAsync } from './http/stage-costs.server.ts'
import { languageOf, translationsFor } from './i18n/i18next.server.ts'
import { TranslationsProvider } from './i18n/react.tsx'
import { mediaOrigins } from './utils/media.ts'
import { NonceProvider } from './utils/nonce.tsx'

// Validate the environment when the build loads, so a bad variable stops the start, not a request.
getEnv()

export const streamTimeout = 5_000

export default async function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const env = getEnv()
  const nonce = timeStage('nonce', () => randomBytes(16).toString('base64'))
  const translations = translationsFor(await timeStageAsync('locale detection', () => languageOf(request)))

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <TranslationsProvider value={translations}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </TranslationsProvider>
      </NonceProvider>,
      {
        nonce,
        // Pages defer nothing: the whole document is ready at once, for people and bots alike.
        onAllReady() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          responseHeaders.set(
            'Content-Security-Policy',
            documentContentSecurityPolicy({
              nonce,
              development: env.NODE_ENV === 'development',
              // The sign-in form's redirect to Google's consent page is a form navigation too, and so
              // are the checkout's redirect to the card payment's page and a live class's to its meeting.
              formActionOrigins: formActionOriginsOf(env),
              mediaOrigins: mediaOrigins(env.MEDIA_BASE_URL),
            }),
          )
          responseHeaders.append('Vary', 'Cookie, Accept-Language, Accept-Encoding')
          // The whole document is ready, so it leaves in one piece: one write to the socket instead
          // of one per chunk React hands over. Compressed in one go, a page (tens of kilobytes) is
          // out about 8 ms sooner than through the compression middleware's many small asynchronous
          // steps (bench/: TTFB, throughput); the middleware leaves a response that already has a
          // Content-Encoding alone.
          const gzip = /\bgzip\b/.test(request.headers.get('Accept-Encoding') ?? '')
          const chunks: Buffer[] = []
          body.on('data', (chunk: Buffer) => chunks.push(chunk))
          body.on('end', () => {
            clearTimeout(abortTimer)
            if (gzip) responseHeaders.set('Content-Encoding', 'gzip')
            const document = Buffer.concat(chunks)
            resolve(new Response(gzip ? gzipSync(document) : document, { headers: responseHeaders, status: responseStatusCode }))
          })
          body.on('error', reject)
          pipe(body)
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors while streaming after the shell are logged here; before it, Remix logs them.
          if (shellRendered) console.error(error)
        },
      },
    )
    // A render that never completes is abandoned; one that completed clears this (no stray abort later).
    const abortTimer = setTimeout(abort, streamTimeout + 1_000)
  })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (error instanceof Error) console.error(JSON.stringify({ level: 'error', type: 'route-error', message: error.message, stack: error.stack }))
  else console.error(JSON.stringify({ level: 'error', type: 'route-error', message: String(error) }))
}
