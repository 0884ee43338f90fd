/**
 * Reads a JWT's claims without verifying it: the provider verifies; the app only needs `exp` to
 * know when to refresh. Pure, and safe in the browser too (though tokens never go there).
 */
export function decodeClaims(token: string | null | undefined): Record<string, unknown> | null {
  if (!token) return null
  // A request reads the same tokens several times (start, refresh schedule, role): decoded once.
  if (decoded.has(token)) return decoded.get(token)!
  if (decoded.size >= DECODED_MAX) decoded.clear()
  const claims = decode(token)
  decoded.set(token, claims)
  return claims
}

const DECODED_MAX = 1_000
const decoded = new Map<string, Record<string, unknown> | null>()

function decode(token: string): Record<string, unknown> | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='))
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))
    const claims = JSON.parse(json) as unknown
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The token's expiry in seconds since the epoch, or null when it has none. */
export function expiryOf(token: string | null | undefined): number | null {
  const exp = decodeClaims(token)?.exp
  return typeof exp === 'number' && Number.isFinite(exp) ? exp : null
}

/**
 * Expired, or about to be within `marginSeconds` (a request that starts with a token about to
 * expire would otherwise fail on its way). A token without a readable exp counts as expired.
 */
export function isExpired(token: string | null | undefined, nowMs: number, marginSeconds = 0): boolean {
  const exp = expiryOf(token)
  return exp === null || exp * 1000 <= nowMs + marginSeconds * 1000
}
