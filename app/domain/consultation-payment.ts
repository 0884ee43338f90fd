/**
 * How a consultation with a price is paid (docs/product.md §9, decision 0051): a credit of a
 * package the patient owns, or a payment by PIX or card that holds the time until it is paid.
 * Pure: the booking page's review step offers these, and the provider decides.
 */

export const CONSULTATION_PAYMENTS = ['credit', 'pix', 'card'] as const
export type ConsultationPayment = (typeof CONSULTATION_PAYMENTS)[number]

/**
 * The ways on offer: none for a free consultation; a credit only while the patient has one that
 * books this professional; PIX and card always.
 */
export function paymentOptions({ priceCents, credits }: { priceCents: number; credits: number }): ConsultationPayment[] {
  if (priceCents <= 0) return []
  return credits > 0 ? ['credit', 'pix', 'card'] : ['pix', 'card']
}

/**
 * The way checked first: the one chosen before (kept through a failure) while it is on offer, else
 * a credit (already paid for), else PIX (settled in seconds, no card needed).
 */
export function defaultPayment(options: readonly ConsultationPayment[], previous: string | undefined): ConsultationPayment | undefined {
  return options.find((option) => option === previous) ?? options[0]
}
