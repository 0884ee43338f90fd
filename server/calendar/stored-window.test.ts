import { describe, expect, it } from 'vitest'
import { distanceFromNow, eventsToKeep, MAX_STORED_EVENTS, storedWindow } from '#server/calendar/stored-window.ts'

const NOW = Date.parse('2026-03-02T12:00:00Z')
const HOUR = 3600_000
const DAY = 24 * HOUR
const at = (offset: number, length = HOUR, id = String(offset)) => ({ id, startAt: new Date(NOW + offset), endAt: new Date(NOW + offset + length) })

describe('the stored copy’s window and limit (decision 0036)', () => {
  it('spans 30 days back to a year and a day ahead', () => {
    expect(storedWindow(NOW)).toEqual({ from: NOW - 30 * DAY, to: NOW + 366 * DAY })
    expect(MAX_STORED_EVENTS).toBe(2000)
  })

  it('measures how far an event is from now, 0 while it runs', () => {
    expect(distanceFromNow(at(2 * HOUR), NOW)).toBe(2 * HOUR)
    expect(distanceFromNow(at(-3 * HOUR), NOW)).toBe(2 * HOUR)
    expect(distanceFromNow(at(-HOUR / 2), NOW)).toBe(0)
  })

  it('keeps what overlaps the window; beyond the limit, the nearest to now, past or ahead', () => {
    const old = at(-31 * DAY)
    const far = at(367 * DAY)
    const events = [at(5 * DAY), at(-2 * DAY), at(HOUR), at(-HOUR / 2), at(10 * DAY), old, far]
    expect(eventsToKeep(events, NOW)).toEqual({ kept: events.slice(0, 5), outside: [old, far], beyondLimit: [] })
    const limited = eventsToKeep(events, NOW, 3)
    expect(limited.kept.map((event) => event.id)).toEqual([at(-HOUR / 2).id, at(HOUR).id, at(-2 * DAY).id])
    expect(limited.beyondLimit.map((event) => event.id)).toEqual([at(5 * DAY).id, at(10 * DAY).id])
  })
})
