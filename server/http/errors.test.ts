import { describe, expect, it } from 'vitest'
import { ApiError, errorResponse, fieldError, invalidBearerToken, methodNotAllowed, notAuthenticated, throttled } from '#server/http/errors.ts'

describe('DRF-shaped errors', () => {
  it('renders field errors as lists of messages', async () => {
    const response = errorResponse(fieldError('email', 'This field is required.'))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ email: ['This field is required.'] })
  })

  it('adds a Bearer challenge to 401 responses', async () => {
    const response = errorResponse(notAuthenticated())
    expect(response.status).toBe(401)
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="api"')
    expect(await response.json()).toEqual({ detail: 'Authentication credentials were not provided.' })
  })

  it('explains an invalid bearer token like simplejwt', () => {
    const error = invalidBearerToken()
    expect(error.body).toMatchObject({ detail: 'Given token not valid for any token type', code: 'token_not_valid' })
  })

  it('lists the allowed methods on 405', () => {
    const error = methodNotAllowed('DELETE', ['GET', 'POST'])
    expect(error.body).toEqual({ detail: 'Method "DELETE" not allowed.' })
    expect(error.headers.Allow).toBe('GET, POST')
  })

  it('rounds the throttle wait up and uses the singular for one second', () => {
    expect(throttled(0.2).body.detail).toBe('Request was throttled. Expected available in 1 second.')
    const error = throttled(41.3)
    expect(error.body.detail).toBe('Request was throttled. Expected available in 42 seconds.')
    expect(error.headers['Retry-After']).toBe('42')
    expect(error).toBeInstanceOf(ApiError)
  })
})
