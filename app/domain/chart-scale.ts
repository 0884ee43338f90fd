/**
 * The vertical scale of the server-drawn bar charts (the admin dashboard's, decision 0062). Pure.
 */

// Even multipliers: half the axis' top, its middle line, is then a whole number too.
const MULTIPLIERS = [2, 4, 6, 8, 10]

/**
 * The top of a chart's axis: the smallest of 2, 4, 6, 8 or 10 times a power of ten (from 2 up)
 * that is not below the largest value. Nothing to show (0, or no value) gives 2: an empty chart
 * still has an axis.
 */
export function chartTop(max: number): number {
  if (!Number.isFinite(max) || max <= 2) return 2
  let magnitude = 1
  while (magnitude * 10 < max) magnitude *= 10
  return MULTIPLIERS.map((multiplier) => multiplier * magnitude).find((top) => top >= max)!
}

/** A bar's height as a share (0-100) of the axis; a value above 0 stays visible (at least 1). */
export function barHeight(value: number, top: number): number {
  if (value <= 0 || top <= 0) return 0
  return Math.max(1, Math.min(100, (value / top) * 100))
}
