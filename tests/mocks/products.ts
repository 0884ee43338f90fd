/**
 * Products as the provider answers them (docs/decisions/0045-products-api.md), for the route tests:
 * a course by default, any field replaced; the monthly plan; a DRF page of them.
 */
export function productAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 9,
    slug: 'curso-sono-reparador',
    product_type: 'course',
    category: 'cursos',
    pillar: null,
    pillar_id: null,
    name: { pt: 'Curso Sono reparador', en: 'Restful sleep course', es: 'Curso Sueño reparador' },
    description: { pt: 'Um curso.', en: 'A course.', es: 'Un curso.' },
    price_cents: 19700,
    currency: 'BRL',
    consultations: null,
    professional: null,
    weeks: null,
    plan_interval: null,
    trial_days: null,
    ...overrides,
  }
}

export const monthlyPlanName = { pt: 'Plano mensal', en: 'Monthly plan', es: 'Plan mensual' }

export const monthlyPlanAnswer = productAnswer({
  id: 21,
  slug: 'plano-mensal',
  product_type: 'subscription',
  category: 'assinaturas',
  name: monthlyPlanName,
  description: { pt: 'Tudo, todo mês.', en: 'Everything, monthly.', es: 'Todo, cada mes.' },
  price_cents: 8990,
  plan_interval: 'monthly',
  trial_days: 0,
})

/** A subscription as the provider answers it (decision 0052): the monthly plan by PIX, active, any field replaced. */
export function subscriptionAnswer(overrides: Record<string, unknown> = {}) {
  return {
    id: 5,
    status: 'active',
    method: 'pix',
    plan: { id: 21, slug: 'plano-mensal', name: monthlyPlanName, plan_interval: 'monthly', renews: true, trial_days: 0 },
    price_cents: 8990,
    next_price: null,
    current_period_start: '2026-11-10T15:00:00.000Z',
    current_period_end: '2026-12-10T15:00:00.000Z',
    has_access: true,
    cancel_at_period_end: false,
    pay_next_from: '2026-12-03T15:00:00.000Z',
    checkout_url: null,
    card_updatable: false,
    card_updated_at: null,
    renewal_deadline: null,
    open_payment_id: null,
    open_payment_checkout_url: null,
    payments: [{ id: 40, status: 'paid', method: 'pix', total_cents: 8990, period_start: '2026-11-10T15:00:00.000Z', period_end: '2026-12-10T15:00:00.000Z', paid_at: '2026-11-10T15:00:00.000Z' }],
    cancellation: { refund_cents: 0, reason: 'refunds.reason.subscriptionPeriodEnd', withdrawal: false, access_ends_at: '2026-12-10T15:00:00.000Z', deadline: null },
    ended_at: null,
    ended_reason: null,
    created_at: '2026-11-10T15:00:00.000Z',
    ...overrides,
  }
}

export const productPage = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results })

type Viewer = { owned: boolean; open_purchase_id: number | null } | null
/**
 * GET /products/{id}/ as the provider answers it (decision 0095): asked with a token, the caller's
 * standing beside the product (a patient's; null for anyone else); without one, the product alone.
 */
export const productAs =
  (product: Record<string, unknown>, viewer: Viewer = { owned: false, open_purchase_id: null }) =>
  ({ request }: { request: Request }) =>
    Response.json(request.headers.has('authorization') ? { ...product, viewer } : product)
