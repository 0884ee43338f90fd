import { Authenticator } from 'remix-auth'
import { type GoogleProfile, GoogleStrategy } from 'remix-auth-google'
import { getEnv } from '#app/env.server.ts'
import { sessionStorage } from './session.server.ts'

/** What the Google flow hands back: the id_token that the provider's /auth/google/ verifies. */
type GoogleCredential = { idToken: string }

/**
 * remix-auth-google hard-codes Google's URLs; this subclass takes them from configuration so
 * development and tests can use the embedded provider's fake Google, and production Google's.
 */
class ConfigurableGoogleStrategy extends GoogleStrategy<GoogleCredential> {
  constructor(...args: ConstructorParameters<typeof GoogleStrategy<GoogleCredential>>) {
    super(...args)
    const env = getEnv()
    this.authorizationURL = env.GOOGLE_AUTHORIZATION_URL
    this.tokenURL = env.GOOGLE_TOKEN_URL
  }

  // The userinfo URL is private in the parent class; the profile is read from our own URL.
  protected override async userProfile(accessToken: string): Promise<GoogleProfile> {
    const response = await fetch(getEnv().GOOGLE_USERINFO_URL, {
      headers: { Authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(getEnv().PROVIDER_TIMEOUT_MS),
    })
    if (!response.ok) throw new Error(`userinfo answered ${response.status}`)
    const raw = (await response.json()) as Record<string, string>
    return {
      provider: 'google',
      id: raw.sub ?? '',
      displayName: raw.name ?? '',
      name: { familyName: raw.family_name ?? '', givenName: raw.given_name ?? '' },
      emails: [{ value: raw.email ?? '' }],
      photos: [{ value: raw.picture ?? '' }],
      _json: raw as never,
    } as GoogleProfile
  }
}

let authenticator: Authenticator<GoogleCredential> | undefined

export function googleAuthenticator() {
  if (!authenticator) {
    const env = getEnv()
    if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) throw new Response('Not found', { status: 404 })
    authenticator = new Authenticator<GoogleCredential>(sessionStorage() as never, {
      sessionKey: 'googleCredential',
      throwOnError: true,
    })
    authenticator.use(
      new ConfigurableGoogleStrategy(
        {
          clientID: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          // Absolute: a relative one would be resolved against the request's (forgeable) Host.
          callbackURL: new URL('/auth/google/callback', env.APP_PUBLIC_URL).toString(),
          prompt: 'select_account',
        },
        async ({ extraParams }) => {
          const idToken = (extraParams as { id_token?: string }).id_token
          if (!idToken) throw new Error('Google sent no id_token')
          return { idToken }
        },
      ),
      'google',
    )
  }
  return authenticator
}
