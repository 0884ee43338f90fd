/** How a purchase or a subscription is paid (decision 0048). Pure, no imports: the payment form's browser code uses it. */
export const PAYMENT_METHODS = ['pix', 'card'] as const
export type PaymentMethod = (typeof PAYMENT_METHODS)[number]
