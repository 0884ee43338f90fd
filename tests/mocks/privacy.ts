/**
 * The provider's privacy answers (docs/decisions/0060-lgpd-self-service.md) for the route tests:
 * the consent record of a patient who accepted the terms at sign-up and chose cookies, two
 * professionals who see their results, and what a deletion would do. Any field replaced.
 */

export function consentRecord(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    document: 'terms',
    version: '1.0',
    granted: true,
    source: 'signup',
    categories: null,
    recorded_at: '2026-03-18T15:00:00.000Z',
    ...overrides,
  }
}

export function consentsAnswer(overrides: { current?: Record<string, unknown>; history?: Record<string, unknown>[] } = {}) {
  const terms = consentRecord()
  const cookies = consentRecord({ id: 3, document: 'cookies', source: 'cookie-banner', categories: { preferences: true, analytics: false, marketing: false }, recorded_at: '2026-03-19T12:00:00.000Z' })
  const marketing = consentRecord({ id: 4, document: 'marketing', source: 'settings', recorded_at: '2026-04-01T12:00:00.000Z' })
  const history = overrides.history ?? [marketing, cookies, consentRecord({ id: 2, document: 'privacy' }), terms]
  return {
    current: { terms, privacy: null, cookies, marketing, ...overrides.current },
    history: { count: history.length, next: null, previous: null, results: history },
  }
}

export function viewersAnswer() {
  return [
    {
      professional: { id: 2, first_name: 'Paula', last_name: 'Ribeiro', photo: null, profession: 'Médica' },
      results: [
        { id: 12, submitted_at: '2026-05-01T12:00:00.000Z', shared_at: '2026-05-02T12:00:00.000Z' },
        { id: 9, submitted_at: '2026-02-01T12:00:00.000Z', shared_at: '2026-02-02T12:00:00.000Z' },
      ],
      care_link_since: '2026-01-10T12:00:00.000Z',
    },
    { professional: { id: 3, first_name: 'Nina', last_name: 'Costa', photo: null, profession: 'Nutricionista' }, results: [{ id: 12, submitted_at: '2026-05-01T12:00:00.000Z', shared_at: '2026-05-03T12:00:00.000Z' }], care_link_since: null },
  ]
}

export function deletionPlanAnswer(overrides: Record<string, unknown> = {}) {
  return {
    requires_password: true,
    removed_now: ['profile', 'photo', 'assessments', 'habits', 'message_attachments'],
    removed_counts: { message_attachments: 3 },
    cancelled_now: {
      appointments: 2,
      live_subscriptions: 1,
      upcoming: [
        { id: 31, start_time: '2026-12-10T13:00:00.000Z', status: 'scheduled', role: 'patient', refund: 'full', refund_cents: 25000, credit_returned: false },
        { id: 32, start_time: '2026-12-01T13:00:00.000Z', status: 'confirmed', role: 'patient', refund: 'none', refund_cents: 0, credit_returned: false },
      ],
    },
    kept: [
      { what: 'payment_records', basis: 'tax_law', until: '2031-12-31' },
      { what: 'consent_records', basis: 'proof_of_consent', until: '2031-11-27' },
      { what: 'technical_logs', basis: 'security', until: '2027-11-27' },
      { what: 'anonymised_records', basis: 'anonymised', until: null },
      { what: 'something_new', basis: 'x', until: null },
    ],
    ...overrides,
  }
}
