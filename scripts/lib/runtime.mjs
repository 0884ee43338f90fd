/**
 * How the app's process runs in production (npm start, the container, the benchmarks): its V8
 * heap capped, so that memory stays bounded under load and the garbage collector works before the
 * machine runs short, not after. APP_HEAP_MB sets the cap (default 256; the soak in `npm run bench`
 * shows it holds 200 connections).
 */
export const DEFAULT_APP_HEAP_MB = 256

/** @param {Record<string, string | undefined>} env */
export function appNodeArgs(env = process.env) {
  const value = env.APP_HEAP_MB ?? String(DEFAULT_APP_HEAP_MB)
  if (!/^\d+$/.test(value) || Number(value) < 64 || Number(value) > 65_536) {
    throw new Error(`APP_HEAP_MB must be a whole number of megabytes between 64 and 65536 (got '${value}')`)
  }
  return [`--max-old-space-size=${value}`]
}
