import { z } from 'zod'
import { phoneField, requiredText } from './form-fields.ts'
import { emailField } from './auth-forms.ts'
import { MESSAGE_MAX_LENGTH, MESSAGE_MIN_LENGTH, contactSubjects } from '#app/domain/contact-limits.ts'

/**
 * The contact form's schema, shared by the browser (conform's client validation) and the server
 * (the action's validation). Messages are translation keys. The bounds are the provider's.
 */

export const contactSchema = z.object({
  name: requiredText(150),
  email: emailField,
  phone: phoneField(),
  subject: z.enum(contactSubjects, {
    error: (issue) => (issue.input === undefined ? 'errors.required' : 'contact:validation.subject'),
  }),
  message: z
    .string({ error: 'errors.required' })
    .trim()
    .min(1, { error: 'errors.required', abort: true })
    .min(MESSAGE_MIN_LENGTH, { error: 'contact:validation.messageTooShort' })
    .max(MESSAGE_MAX_LENGTH, { error: 'contact:validation.messageTooLong' }),
})

export type ContactFormInput = z.input<typeof contactSchema>
type ContactField = keyof z.infer<typeof contactSchema>
export const contactFields = Object.keys(contactSchema.shape) as ContactField[]

/**
 * The provider speaks English (DRF's messages); the user reads their own language. Its rules are
 * ours, so each of its field errors has one of our messages.
 */
export function contactFieldErrorKey(field: ContactField, providerMessage: string): string {
  if (/required|may not be (blank|null)/i.test(providerMessage)) return 'errors.required'
  switch (field) {
    case 'email':
      return 'errors.invalidEmail'
    case 'phone':
      return /no more than/i.test(providerMessage) ? 'validation.tooLong' : 'validation.phone'
    case 'subject':
      return 'contact:validation.subject'
    case 'message':
      return /at least/i.test(providerMessage) ? 'contact:validation.messageTooShort' : 'contact:validation.messageTooLong'
    case 'name':
      return 'validation.tooLong'
  }
}
