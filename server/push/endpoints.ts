/**
 * Which push endpoints the provider posts to (decision 0087). A subscription's endpoint comes from
 * the browser through the user, so it is an address the provider would be made to call: only the
 * browsers' own push services are taken (https, on their hosts), and, with FAKE_PUSH, the embedded
 * fake's `/fake-push/` under the provider's own address. Pure.
 */

/** The push services of the browsers that have one: Chrome and Edge (FCM), Firefox (Mozilla), Edge's WNS, Safari (Apple). */
export const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'android.googleapis.com', '.push.services.mozilla.com', '.notify.windows.com', '.push.apple.com'] as const

/** Where the embedded fake push service (server/fakes/push/) takes pushes, under the provider's address: taken with FAKE_PUSH only. */
export const FAKE_PUSH_PATH = '/fake-push/send'

/** At most this long (the column's bound): real endpoints are a few hundred characters. */
export const ENDPOINT_MAX_LENGTH = 1024

const hostAllowed = (host: string) => PUSH_SERVICE_HOSTS.some((allowed) => (allowed.startsWith('.') ? host.endsWith(allowed) && host.length > allowed.length : host === allowed))

/** Why the endpoint is not taken, or null. `fakeBase`: the fake push service's address when it is on. */
export function endpointProblem(endpoint: string, { fakeBase }: { fakeBase?: string } = {}): string | null {
  if (endpoint.length > ENDPOINT_MAX_LENGTH) return `Ensure this field has no more than ${ENDPOINT_MAX_LENGTH} characters.`
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return 'Enter a valid URL.'
  }
  if (url.username || url.password) return 'Enter a valid URL.'
  if (fakeBase && endpoint.startsWith(`${fakeBase}/`)) return null
  if (url.protocol !== 'https:' || url.port !== '' || !hostAllowed(url.hostname)) return "This is not a browser's push service."
  return null
}

/** The push service's host, for logs and lists: never the whole endpoint, which is a capability. */
export function serviceOf(endpoint: string): string {
  try {
    return new URL(endpoint).host
  } catch {
    return ''
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The byte length a base64url text decodes to, or -1 when it is not base64url (padding not taken). */
export function base64UrlLength(text: string): number {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return -1
  return Math.floor((text.length * 3) / 4)
}
