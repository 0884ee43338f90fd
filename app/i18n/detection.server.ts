import { createCookie } from '@remix-run/node'
import { LanguageDetector } from 'remix-i18next/server'
import { getEnv } from '../env.server.ts'
import { type Language, defaultLanguage, isLanguage, supportedLanguages } from './config'

/**
 * How a request's language is chosen: `?lng=`, then the language cookie, then Accept-Language,
 * else Portuguese. Apart from i18next.server.ts (which bundles every translation through Vite) so
 * that the HTTP server in front of Remix (app/http/server.ts) chooses it the same way.
 */

const ONE_YEAR = 60 * 60 * 24 * 365

let cookie: ReturnType<typeof createCookie> | undefined
export function languageCookie() {
  cookie ??= createCookie('lng', {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: getEnv().SESSION_COOKIE_SECURE,
    maxAge: ONE_YEAR,
  })
  return cookie
}

/** remix-i18next's detection options, for i18nServer() and the detector below alike. */
export function languageDetection() {
  return {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage: defaultLanguage,
    cookie: languageCookie(),
    order: ['searchParams', 'cookie', 'header'] as ('searchParams' | 'cookie' | 'header')[],
  }
}

let detector: LanguageDetector | undefined
/** The request's language, as the pages choose it. */
export async function detectLanguage(request: Request): Promise<Language> {
  detector ??= new LanguageDetector(languageDetection())
  const locale = await detector.detect(request)
  return isLanguage(locale) ? locale : defaultLanguage
}
