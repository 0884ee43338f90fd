import { describe, expect, it } from 'vitest'
import { GoogleApiError, toGoogleApiError } from '#server/google/calendar-api.ts'

const gaxiosError = (status: number, data: unknown) => Object.assign(new Error('Request failed'), { response: { status, data } })
const apiError = (status: number, reason: string) => gaxiosError(status, { error: { code: status, errors: [{ reason }] } })

describe('toGoogleApiError', () => {
  it('tells a refused grant, an expired sync token, a missing and a deleted event apart', () => {
    expect(toGoogleApiError(gaxiosError(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }))).toMatchObject({ failure: 'invalid_grant', status: 400 })
    expect(toGoogleApiError(apiError(410, 'fullSyncRequired'))).toMatchObject({ failure: 'full_sync_required', status: 410 })
    expect(toGoogleApiError(apiError(410, 'deleted'))).toMatchObject({ failure: 'gone', reason: 'deleted' })
    expect(toGoogleApiError(apiError(404, 'notFound'))).toMatchObject({ failure: 'not_found' })
  })

  it('keeps anything else as "other", without the request in its message', () => {
    const error = toGoogleApiError(gaxiosError(400, { error: 'redirect_uri_mismatch' }))
    expect(error).toMatchObject({ failure: 'other', status: 400, reason: 'redirect_uri_mismatch' })
    expect(error.message).toBe('Google other (HTTP 400, redirect_uri_mismatch)')
    expect(toGoogleApiError(new Error('socket hang up'))).toMatchObject({ failure: 'other', status: undefined, reason: 'no response' })
    const same = new GoogleApiError('gone', 410, 'deleted')
    expect(toGoogleApiError(same)).toBe(same)
  })
})
