import { createHash, timingSafeEqual } from 'node:crypto'

type AddressSources = {
  /** X-Forwarded-For as received. */
  forwardedFor: string | undefined | null
  /** X-Forwarding-Secret as received. */
  forwardingSecret: string | undefined | null
  /** The socket's peer address (absent when the app is called in-process). */
  socketAddress: string | undefined
}

/**
 * The address a request came from, for per-address throttling. The app calls us server-side,
 * so the socket's peer is the app; it names its visitor in X-Forwarded-For and proves it is
 * the app with X-Forwarding-Secret (PROVIDER_FORWARDING_SECRET). From anyone else the header is
 * ignored: otherwise every request could claim a fresh address and never be throttled.
 */
export function clientAddress({ forwardedFor, forwardingSecret, socketAddress }: AddressSources, configuredSecret: string | undefined): string {
  if (configuredSecret && forwardingSecret && sameSecret(forwardingSecret, configuredSecret)) {
    const firstHop = forwardedFor?.split(',')[0]?.trim()
    if (firstHop) return firstHop
  }
  return socketAddress || 'unknown'
}

// Digests first: timingSafeEqual needs equal lengths, and comparing digests leaks no length.
const digest = (text: string) => createHash('sha256').update(text).digest()

function sameSecret(received: string, expected: string): boolean {
  return timingSafeEqual(digest(received), digest(expected))
}
