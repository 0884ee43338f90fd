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

export const productPage = (results: unknown[], count = results.length) => ({ count, next: null, previous: null, results })
