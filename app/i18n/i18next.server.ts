import { createCookie } from '@remix-run/node'
import { RemixI18Next } from 'remix-i18next/server'
import { getEnv } from '#app/env.server.ts'
import { defaultLanguage, i18nOptions, supportedLanguages } from './config'
import { namespaces, resources } from './resources.server'

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

let server: RemixI18Next | undefined
export function i18nServer() {
  server ??= new RemixI18Next({
    detection: {
      supportedLanguages: [...supportedLanguages],
      fallbackLanguage: defaultLanguage,
      cookie: languageCookie(),
      order: ['searchParams', 'cookie', 'header'],
    },
    i18next: { ...i18nOptions, resources, ns: namespaces },
  })
  return server
}
