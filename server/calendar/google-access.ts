import { GoogleApiError, type GoogleCalendarSession, type GoogleTokens } from '#server/google/calendar-api.ts'
import type { Services } from '#server/services.ts'
import { markTokenInvalid, saveTokens, type CalendarConnection } from '#server/calendar/connections.ts'
import { calendarReconnect } from '#server/calendar/errors.ts'
import { UnreadableTokenError } from '#server/calendar/token-sealing.ts'

/**
 * Runs calls on a connected calendar: opens its sealed tokens, keeps whatever tokens Google
 * hands out meanwhile (sealed again), and turns Google's invalid_grant (the professional revoked
 * Innera's access, or the grant expired) into `token_valid: false` and the calendar_reconnect
 * answer. Any other failure is the caller's to answer.
 */
export async function withCalendar<T>(
  services: Services,
  connection: CalendarConnection,
  work: (session: GoogleCalendarSession, calendarId: string) => Promise<T>,
): Promise<T> {
  const { db, tokenSealer, googleCalendar } = services
  let refreshToken: string
  try {
    refreshToken = tokenSealer.open(connection.refreshTokenSealed)
  } catch (error) {
    // Sealed under another PROVIDER_JWT_SECRET: as good as revoked.
    if (!(error instanceof UnreadableTokenError)) throw error
    await markTokenInvalid(db, connection.userId)
    throw calendarReconnect()
  }
  let accessToken: string | undefined
  try {
    accessToken = connection.accessTokenSealed ? tokenSealer.open(connection.accessTokenSealed) : undefined
  } catch {
    // A cached access token that cannot be read is simply not used: the refresh token gets another.
  }

  const saving: Promise<void>[] = []
  const keep = (tokens: GoogleTokens) => {
    if (!tokens.accessToken) return
    saving.push(
      saveTokens(db, connection.userId, {
        accessTokenSealed: tokenSealer.seal(tokens.accessToken),
        accessTokenExpiresAt: tokens.expiresAt ? new Date(tokens.expiresAt) : null,
        ...(tokens.refreshToken && tokens.refreshToken !== refreshToken && { refreshTokenSealed: tokenSealer.seal(tokens.refreshToken) }),
      }),
    )
  }
  const session = googleCalendar.session({ accessToken, refreshToken, expiresAt: connection.accessTokenExpiresAt?.getTime() }, keep)
  try {
    return await work(session, connection.primaryCalendarId ?? 'primary')
  } catch (error) {
    if (error instanceof GoogleApiError && error.failure === 'invalid_grant') {
      await Promise.allSettled(saving)
      await markTokenInvalid(db, connection.userId)
      throw calendarReconnect()
    }
    throw error
  } finally {
    await Promise.allSettled(saving)
  }
}
