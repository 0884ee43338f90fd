/**
 * How the app's process runs in production (npm start, the container, the benchmarks): its V8
 * heap capped, so that memory stays bounded under load and the garbage collector works before the
 * machine runs short, not after. APP_HEAP_MB sets the cap (default 256; the soak in `npm run bench`
 * shows it holds 200 connections). The young generation gets an eighth of it (at least 16 MB, V8's
 * own default): a page render allocates a lot that dies young, and with the old space capped, a
 * small young generation promotes it and makes the collector work for every request.
 */
export const DEFAULT_APP_HEAP_MB = 256

/** @param {Record<string, string | undefined>} env */
export function appNodeArgs(env = process.env) {
  const value = env.APP_HEAP_MB ?? String(DEFAULT_APP_HEAP_MB)
  if (!/^\d+$/.test(value) || Number(value) < 64 || Number(value) > 65_536) {
    throw new Error(`APP_HEAP_MB must be a whole number of megabytes between 64 and 65536 (got '${value}')`)
  }
  return [`--max-old-space-size=${value}`, `--max-semi-space-size=${Math.max(16, Math.floor(Number(value) / 8))}`]
}
