/**
 * Time zones people choose from (profile, availability): Brazil's first, then the places patients
 * and professionals of a Brazilian service most often live in. Any other valid IANA zone already
 * saved is kept and shown too (`timeZoneChoices`).
 */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo'

export const COMMON_TIME_ZONES = [
  'America/Sao_Paulo',
  'America/Bahia',
  'America/Fortaleza',
  'America/Recife',
  'America/Belem',
  'America/Maceio',
  'America/Araguaina',
  'America/Santarem',
  'America/Manaus',
  'America/Cuiaba',
  'America/Campo_Grande',
  'America/Porto_Velho',
  'America/Boa_Vista',
  'America/Rio_Branco',
  'America/Eirunepe',
  'America/Noronha',
  'Europe/Lisbon',
  'Atlantic/Azores',
  'Atlantic/Madeira',
  'Europe/London',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Rome',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'America/Toronto',
  'America/Mexico_City',
  'America/Bogota',
  'America/Lima',
  'America/Santiago',
  'America/Argentina/Buenos_Aires',
  'America/Montevideo',
  'America/Asuncion',
  'Asia/Tokyo',
  'Australia/Sydney',
  'UTC',
] as const

let known: Set<string> | undefined
/** A zone the runtime knows (its IANA database), so every conversion with it works. */
export function isTimeZone(value: string): boolean {
  known ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])
  if (known.has(value)) return true
  try {
    // Aliases such as America/Buenos_Aires are valid without being listed.
    new Intl.DateTimeFormat('en', { timeZone: value })
    return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(value)
  } catch {
    return false
  }
}

/** "America/Argentina/Buenos_Aires" → "Buenos Aires". */
export function cityOf(timeZone: string): string {
  return (timeZone.split('/').at(-1) ?? timeZone).replaceAll('_', ' ')
}

/** The zone's offset from UTC at that instant, as "GMT-03:00" (and "GMT+00:00", whatever ICU says). */
export function offsetLabel(timeZone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((item) => item.type === 'timeZoneName')
  const value = part?.value ?? 'GMT'
  return value === 'GMT' ? 'GMT+00:00' : value
}

/** The options of a time-zone select: the common ones, plus the current value when it is another. */
export function timeZoneChoices(current: string | undefined, at: Date): { value: string; label: string }[] {
  const zones: string[] = [...COMMON_TIME_ZONES]
  if (current && !zones.includes(current) && isTimeZone(current)) zones.unshift(current)
  return zones.map((zone) => ({ value: zone, label: `${cityOf(zone)} (${offsetLabel(zone, at)})` }))
}
