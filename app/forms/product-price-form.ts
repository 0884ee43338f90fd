import { z } from 'zod'
import { type Cents, MONEY_INPUT_MAX_LENGTH, parseMoney } from '#app/domain/money.ts'
import { MAX_ID } from '#app/utils/ids.ts'

/**
 * An admin's new price for a product (decision 0053): typed as people write money ("99,90",
 * "R$ 1.234,56"), from R$ 0,50 (Stripe's smallest charge in BRL) to R$ 100.000,00 (the shop's
 * largest price). Used by the server and, deferred, the browser (forms/form-validation.ts).
 */
export const MIN_PRICE_CENTS = 50
export const MAX_PRICE_CENTS = 10_000_000
const PRICE_MESSAGE = 'admin:products.validation.price'

export const productPriceSchema = z.object({
  product_id: z.coerce.number({ error: 'validation.required' }).int().positive().max(MAX_ID),
  price: z
    .string({ error: PRICE_MESSAGE })
    .max(MONEY_INPUT_MAX_LENGTH, { error: PRICE_MESSAGE })
    .transform((text, context) => {
      const cents = parseMoney(text)
      if (cents === undefined || cents < MIN_PRICE_CENTS || cents > MAX_PRICE_CENTS) {
        context.addIssue({ code: 'custom', message: PRICE_MESSAGE })
        return z.NEVER
      }
      return cents as Cents
    }),
})
