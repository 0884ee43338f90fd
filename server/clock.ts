/** Milliseconds since the Unix epoch. Injected so token lifetimes and throttles can be tested without waiting. */
export type Clock = () => number

export const systemClock: Clock = () => Date.now()

export const toSeconds = (milliseconds: number) => Math.floor(milliseconds / 1000)
