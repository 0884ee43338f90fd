/**
 * Error responses shaped like Django REST Framework's, so the app cannot tell this provider
 * from the Django one: `{"detail": "..."}` for general errors, `{"field": ["message"]}` for
 * validation errors.
 */
export type ErrorBody = Record<string, unknown>
export type FieldErrors = Record<string, string[]>

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`)
    this.name = 'ApiError'
  }
}

export const apiError = (status: number, detail: string, extra: ErrorBody = {}, headers?: Record<string, string>) =>
  new ApiError(status, { detail, ...extra }, headers)

export const validationError = (errors: FieldErrors) => new ApiError(400, errors)

export const fieldError = (field: string, ...messages: string[]) => validationError({ [field]: messages })

export const notFound = () => apiError(404, 'Not found.')

export const permissionDenied = () => apiError(403, 'You do not have permission to perform this action.')

// DRF sends WWW-Authenticate with every 401 when the authenticator defines a header (simplejwt does).
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' }

export const notAuthenticated = () => apiError(401, 'Authentication credentials were not provided.', {}, BEARER_CHALLENGE)

/** simplejwt's answer to a Bearer token that fails verification. */
export const invalidBearerToken = (reason = 'Token is invalid or expired') =>
  apiError(
    401,
    'Given token not valid for any token type',
    {
      code: 'token_not_valid',
      messages: [{ token_class: 'AccessToken', token_type: 'access', message: reason }],
    },
    BEARER_CHALLENGE,
  )

/** simplejwt's answer to a bad token posted to the refresh or verify endpoints. */
export const tokenNotValid = () => apiError(401, 'Token is invalid or expired', { code: 'token_not_valid' }, BEARER_CHALLENGE)

export const methodNotAllowed = (method: string, allowed: string[]) =>
  apiError(405, `Method "${method}" not allowed.`, {}, { Allow: allowed.join(', ') })

export function throttled(waitSeconds: number) {
  const seconds = Math.max(1, Math.ceil(waitSeconds))
  const unit = seconds === 1 ? 'second' : 'seconds'
  return apiError(429, `Request was throttled. Expected available in ${seconds} ${unit}.`, {}, { 'Retry-After': String(seconds) })
}

export function errorResponse(error: ApiError): Response {
  const headers = error.status === 401 ? { ...BEARER_CHALLENGE, ...error.headers } : error.headers
  return Response.json(error.body, { status: error.status, headers })
}
