import { z } from 'zod'

/**
 * The account deletion's form (docs/decisions/0060-lgpd-self-service.md): the password when the
 * account has one, and the confirmation ticked. Validated in the browser (form-validation.ts) as on
 * the server; its own module, so zod stays out of the pages that only link to the privacy page.
 */
export const deleteAccountSchema = z.object({
  password: z.string().max(128, { error: 'validation.tooLong' }).optional(),
  confirm: z.boolean({ error: 'privacy:delete.confirmRequired' }).refine((ticked) => ticked, { error: 'privacy:delete.confirmRequired' }),
})
