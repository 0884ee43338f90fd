import { type z } from 'zod'
import { validationError, type FieldErrors } from '#server/http/errors.ts'
import { toFieldErrors } from '#server/http/fields.ts'

/**
 * Validation for the catalogue's editor (decision 0065): a text's language is its own field
 * (`name.en`, as the publish check names it), so the form shows a message beside the input it is
 * about; any other problem is on its top-level field, DRF-style.
 */
const contentFieldErrors = (error: z.ZodError): FieldErrors => toFieldErrors(error, 2)

/** Validates a body against the schema: the value, or a 400 with contentFieldErrors. */
export function validateContent<Schema extends z.ZodType>(schema: Schema, data: unknown): z.output<Schema> {
  const result = schema.safeParse(data)
  if (!result.success) throw validationError(contentFieldErrors(result.error))
  return result.data
}
