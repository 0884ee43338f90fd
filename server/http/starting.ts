/** Where a provider process is in its start (main.ts): its database being opened, then migrated. */
export type StartingStage = 'opening database' | 'migrating'

/**
 * What the provider answers before it serves: the port listens from the start, so a load balancer
 * or HEALTHCHECK asking /readyz/ hears "not ready" (and why) while the migrations run, rather than a
 * refused connection it cannot tell from a dead process. Every path gets the same 503.
 */
export function notReadyResponse(stage: StartingStage): Response {
  return Response.json({ status: 'not ready', reason: stage }, { status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '5' } })
}
