/**
 * What can go wrong when the app talks to the provider, and the message (docs/product.md §8) each case shows.
 * Pure: no I/O, shared by loaders, actions and the error boundary.
 */
type ProviderFailure =
  | { kind: 'network'; during?: 'refresh' }
  | {
      kind: 'http'
      status: number
      detail?: string
      fieldErrors?: Record<string, string[]>
      retryAfterSeconds?: number
      /** The provider's machine-readable `code` beside the detail (e.g. `calendar_not_connected`). */
      code?: string
      /** The products a refusal names (`product_ids`, e.g. with `already_owned`). */
      productIds?: number[]
      /** The purchase a refusal names (`purchase_id`: the open checkout of `already_in_checkout`). */
      purchaseId?: number
      /** The subscription a refusal names (`subscription_id`: the live plan of `already_subscribed`, `another_plan_live`). */
      subscriptionId?: number
      /** The file a refusal of a message's attachments names (`attachment`: its place among those sent, from 0; decision 0086). */
      attachmentIndex?: number
    }

export class ProviderError extends Error {
  readonly failure: ProviderFailure
  constructor(failure: ProviderFailure) {
    super(failure.kind === 'network' ? 'provider unreachable' : `provider answered ${failure.status}`)
    this.name = 'ProviderError'
    this.failure = failure
  }
  get status() {
    return this.failure.kind === 'http' ? this.failure.status : undefined
  }
  get isNetwork() {
    return this.failure.kind === 'network'
  }
  get code() {
    return this.failure.kind === 'http' ? this.failure.code : undefined
  }
}

/** The `reason` of the data a loader throws when the provider could not be reached (responses.server.ts), read by the error page (utils/error-page.ts). */
export const NETWORK_ERROR_REASON = 'network'

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError
}

/** A message as a translation key with its values, or a text the server wrote (shown as is). */
export type Message = { key: string; values?: Record<string, string | number> } | { text: string }

export function messageForFailure(failure: ProviderFailure): Message {
  if (failure.kind === 'network') {
    return { key: failure.during === 'refresh' ? 'errors.networkRefresh' : 'errors.network' }
  }
  switch (failure.status) {
    case 400:
      return failure.detail ? { text: failure.detail } : { key: 'errors.badRequest' }
    case 401:
      return { key: 'errors.unauthorized' }
    case 403:
      return { key: 'errors.forbidden' }
    case 404:
      return { key: 'errors.notFound' }
    case 429:
      return throttledMessage(failure.retryAfterSeconds ?? 60)
    case 500:
      return { key: 'errors.server' }
    default:
      return {
        key: 'errors.otherStatus',
        values: { status: failure.status, message: failure.detail ?? statusText(failure.status) },
      }
  }
}

/** The wait of a throttled request in words a person reads: seconds up to 90, then whole minutes. */
function throttledMessage(seconds: number): Message {
  if (seconds <= 90) return { key: 'errors.tooManyRequests', values: { count: Math.max(1, seconds) } }
  return { key: 'errors.tooManyRequestsMinutes', values: { count: Math.ceil(seconds / 60) } }
}

const STATUS_TEXTS: Record<number, string> = {
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
}

function statusText(status: number) {
  return STATUS_TEXTS[status] ?? 'Unexpected response'
}

/** The `code` of an error body (`{"detail": ..., "code": "sync_in_progress"}`), when it is a short word. */
export function errorCode(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const code = (body as Record<string, unknown>).code
  return typeof code === 'string' && /^[a-z0-9_]{1,64}$/i.test(code) ? code : undefined
}

/** An id the provider names: 1 to 2^31-1 (its serial columns). */
const isProviderId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= 2_147_483_647

/** The `product_ids` of an error body: at most 20 ids of 1 to 2^31-1, else none. */
export function errorProductIds(body: unknown): number[] | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const ids = (body as Record<string, unknown>).product_ids
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20) return undefined
  return ids.every(isProviderId) ? (ids as number[]) : undefined
}

/** An id a refusal names (`purchase_id`, `subscription_id`): 1 to 2^31-1, else none. */
export function errorObjectId(body: unknown, field: 'purchase_id' | 'subscription_id'): number | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const id = (body as Record<string, unknown>)[field]
  return isProviderId(id) ? id : undefined
}

/** The file a refusal of a message's attachments names (`attachment`, 0 to 4), else none. */
export function errorAttachmentIndex(body: unknown): number | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined
  const index = (body as Record<string, unknown>).attachment
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < 5 ? index : undefined
}

/** Reads a DRF error body: `{"detail": "..."}` or `{"field": ["message"]}`. */
export function parseErrorBody(body: unknown): { detail?: string; fieldErrors?: Record<string, string[]> } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {}
  const record = body as Record<string, unknown>
  const detail =
    typeof record.detail === 'string'
      ? record.detail
      : typeof record.display_message === 'string'
        ? record.display_message
        : typeof record.message === 'string'
          ? record.message
          : undefined
  const fieldErrors: Record<string, string[]> = {}
  for (const [field, value] of Object.entries(record)) {
    if (['detail', 'code', 'success', 'display_message', 'product_ids', 'attachment'].includes(field)) continue
    // `message` is a text beside the result in some answers (Google sign-in), but a field's errors when a list.
    if (field === 'message' && typeof value === 'string') continue
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) fieldErrors[field] = value
    else if (typeof value === 'string') fieldErrors[field] = [value]
    // Nested serializers (e.g. {"answers": {"sono_duration": [...]}}) become dotted keys.
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, messages] of Object.entries(value as Record<string, unknown>)) {
        if (Array.isArray(messages) && messages.every((item) => typeof item === 'string')) fieldErrors[`${field}.${inner}`] = messages
      }
    }
  }
  if (!detail && Array.isArray(record.non_field_errors)) {
    return { detail: String(record.non_field_errors[0]), fieldErrors }
  }
  return { detail, fieldErrors: Object.keys(fieldErrors).length ? fieldErrors : undefined }
}
