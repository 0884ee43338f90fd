/**
 * Live classes as the provider answers them (decision 0058), for the route tests: Tuesday's sleep
 * class (members, 19:00 in São Paulo, 50 minutes, 12 seats left), any field replaced.
 */
export function liveClassAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 7,
    slug: 'yoga-para-dormir-2026-12-01',
    pillar: 'sono',
    pillar_id: 4,
    title: { pt: 'Yoga para dormir melhor', en: 'Yoga for better sleep', es: 'Yoga para dormir mejor' },
    description: { pt: 'Posturas suaves.', en: 'Gentle poses.', es: 'Posturas suaves.' },
    teacher: { id: 2, first_name: 'Paula', last_name: 'Ribeiro', photo: null, profession: 'Fisioterapeuta' },
    starts_at: '2026-12-01T22:00:00.000Z',
    ends_at: '2026-12-01T22:50:00.000Z',
    duration_minutes: 50,
    seats: 30,
    seats_left: 12,
    access: 'members',
    can_join_now: false,
    join_opens_at: '2026-12-01T21:50:00.000Z',
    reserved: false,
    locked: false,
    cancelled: false,
    ...overrides,
  }
}

export const liveClassPage = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results })
