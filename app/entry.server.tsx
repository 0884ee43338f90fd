import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { type EntryContext, createReadableStreamFromReadable } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { createInstance } from 'i18next'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { getEnv } from './env.server.ts'
import { documentContentSecurityPolicy } from './http/security.server.ts'
import { i18nOptions } from './i18n/config.ts'
import { i18nServer } from './i18n/i18next.server.ts'
import { namespaces, resources } from './i18n/resources.server.ts'
import { NonceProvider } from './utils/nonce.tsx'

// Validate the environment when the build loads, so a bad variable stops the start, not a request.
getEnv()

export const streamTimeout = 5_000

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const env = getEnv()
  const nonce = randomBytes(16).toString('base64')
  const lng = await i18nServer().getLocale(request)
  const i18n = createInstance()
  await i18n.use(initReactI18next).init({ ...i18nOptions, lng, ns: namespaces, resources })

  const readyEvent = isbot(request.headers.get('user-agent')) || remixContext.isSpaMode ? 'onAllReady' : 'onShellReady'

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          responseHeaders.set(
            'Content-Security-Policy',
            documentContentSecurityPolicy({
              nonce,
              development: env.NODE_ENV === 'development',
              // The sign-in form's redirect to Google's consent page is a form navigation too.
              formActionOrigins: env.GOOGLE_CLIENT_ID ? [new URL(env.GOOGLE_AUTHORIZATION_URL).origin] : [],
            }),
          )
          responseHeaders.append('Vary', 'Cookie, Accept-Language')
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors while streaming after the shell are logged here; before it, Remix logs them.
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, streamTimeout + 1_000)
  })
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (error instanceof Error) console.error(JSON.stringify({ level: 'error', type: 'route-error', message: error.message, stack: error.stack }))
  else console.error(JSON.stringify({ level: 'error', type: 'route-error', message: String(error) }))
}
