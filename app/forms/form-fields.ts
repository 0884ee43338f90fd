import { z } from 'zod'

/** Fields several forms share, with their messages as translation keys. */

/** A text that must be given, trimmed, at most `max` characters. */
export const requiredText = (max: number) =>
  z.string({ error: 'errors.required' }).trim().min(1, { error: 'errors.required' }).max(max, { error: 'validation.tooLong' })

/** An optional phone number: digits, spaces, ( ) + -, at most 30 characters; empty when not given. */
export const phoneField = () =>
  z
    .string()
    .trim()
    .max(30, { error: 'validation.tooLong' })
    .regex(/^[\d\s()+-]*$/, { error: 'validation.phone' })
    .optional()
    .default('')
