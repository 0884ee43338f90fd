import { type Request as ExpressRequest, type RequestHandler } from 'express'
import { detectLanguage } from '../i18n/detection.server.ts'
import { type Language, defaultLanguage } from '../i18n/config.ts'
// Named, so the bundle carries the errors alone and not the whole namespace.
import { errors as en } from '../../locales/en/common.json'
import { errors as es } from '../../locales/es/common.json'
import { errors as pt } from '../../locales/pt/common.json'
import { log } from './log.server.ts'
import { currentRequestContext } from './request-context.server.ts'
import { isCrossSiteWrite } from './security.server.ts'

/** The error catalogue's 403 (docs/product.md §8), the text the error page shows for it. */
const FORBIDDEN: Record<Language, string> = { pt: pt.forbidden, en: en.forbidden, es: es.forbidden }

/** Longer values are cut in the log line: the Origin is the visitor's to write. */
const LOGGED_LENGTH = 200

/**
 * The cross-site write check (security.server.ts isCrossSiteWrite), in front of Remix: a write
 * another site started is answered 403 with the error catalogue's text in the visitor's language
 * (chosen as the pages choose it), plain text, before any action runs; one info line says which
 * Origin and host disagreed, as a proxy that rewrites Host without saying the public one would
 * otherwise refuse every form with no reason given. `requestHost` is the host the visitor asked
 * for (a trusted proxy's X-Forwarded-Host, else Host).
 */
export function refuseCrossSiteWrites({ publicOrigin, requestHost }: { publicOrigin: string; requestHost: (req: ExpressRequest) => string | undefined }): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin')
    const host = requestHost(req)
    // As Remix reads it from the headers it is handed (server.ts passes them all on).
    const remixHost = req.get('x-forwarded-host')?.split(',')[0]?.trim() || req.get('host')
    if (!isCrossSiteWrite({ method: req.method, origin, host, remixHost, publicOrigin, secFetchSite: req.get('sec-fetch-site') })) return next()
    const cut = (value: string | undefined) => value?.slice(0, LOGGED_LENGTH)
    log('info', {
      type: 'cross-site-refused',
      request_id: currentRequestContext()?.requestId,
      origin: cut(origin),
      host: cut(host),
      remix_host: cut(remixHost),
      sec_fetch_site: cut(req.get('sec-fetch-site')),
    })
    void languageOf(req).then((language) => res.status(403).type('text/plain; charset=utf-8').send(FORBIDDEN[language]))
  }
}

/** The visitor's language from the URL's `lng`, the cookie and Accept-Language; Portuguese when they say nothing usable. */
async function languageOf(req: ExpressRequest): Promise<Language> {
  try {
    const request = new Request(new URL(req.originalUrl, 'http://app.invalid'), { headers: { cookie: req.get('cookie') ?? '', 'accept-language': req.get('accept-language') ?? '' } })
    return await detectLanguage(request)
  } catch {
    return defaultLanguage
  }
}
