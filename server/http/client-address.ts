/**
 * The address a request came from, for per-address throttling: the first hop of
 * X-Forwarded-For (the app forwards its visitor's address when it calls us server-side),
 * else the socket's peer address. The header is trusted as-is because the provider is meant
 * to listen on a private interface behind the app; per-account limits still apply when a
 * client forges it.
 */
export function clientAddress(forwardedFor: string | undefined | null, socketAddress: string | undefined): string {
  const firstHop = forwardedFor?.split(',')[0]?.trim()
  if (firstHop) return firstHop
  return socketAddress || 'unknown'
}
