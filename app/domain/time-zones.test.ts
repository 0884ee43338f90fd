import { describe, expect, it } from 'vitest'
import { COMMON_TIME_ZONES, cityOf, isTimeZone, offsetLabel, timeZoneChoices } from './time-zones'

describe('time zones', () => {
  it('lists only zones the runtime knows', () => {
    for (const zone of COMMON_TIME_ZONES) expect(isTimeZone(zone), zone).toBe(true)
  })

  it.each(['Mars/Olympus', 'America/Sao Paulo', '', '../etc/passwd', 'America/Sao_Paulo\u0000'])('refuses %j', (zone) => expect(isTimeZone(zone)).toBe(false))

  it('names the city and the offset at that instant, daylight saving included', () => {
    expect(cityOf('America/Argentina/Buenos_Aires')).toBe('Buenos Aires')
    expect(offsetLabel('America/Sao_Paulo', new Date('2026-07-01T12:00:00Z'))).toBe('GMT-03:00')
    expect(offsetLabel('Europe/Lisbon', new Date('2026-01-15T12:00:00Z'))).toBe('GMT+00:00')
    expect(offsetLabel('Europe/Lisbon', new Date('2026-07-01T12:00:00Z'))).toBe('GMT+01:00')
    expect(offsetLabel('America/New_York', new Date('2026-11-02T12:00:00Z'))).toBe('GMT-05:00')
  })

  it('keeps a saved zone that is not among the common ones', () => {
    const at = new Date('2026-07-01T12:00:00Z')
    expect(timeZoneChoices('Asia/Kolkata', at)[0]).toEqual({ value: 'Asia/Kolkata', label: 'Kolkata (GMT+05:30)' })
    expect(timeZoneChoices('Europe/Lisbon', at)).toHaveLength(COMMON_TIME_ZONES.length)
  })
})
