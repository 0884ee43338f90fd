/** The provider's ids are 32-bit integers: anything outside 1..2^31-1 names nothing. */
export const MAX_ID = 2_147_483_647

/** An id from a URL or a form, or undefined when it cannot name anything. */
export function parseId(raw: unknown): number | undefined {
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined
  const id = Number(raw)
  return id >= 1 && id <= MAX_ID ? id : undefined
}
