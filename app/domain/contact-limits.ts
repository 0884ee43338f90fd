/**
 * The contact form's choices and bounds (the provider's), apart from its schema
 * (forms/contact-form.ts): the page's own code and the provider's calls need these, not zod.
 */
export const contactSubjects = ['patient', 'professional', 'company', 'partnership', 'other'] as const
export type ContactSubject = (typeof contactSubjects)[number]

export const MESSAGE_MIN_LENGTH = 10
export const MESSAGE_MAX_LENGTH = 5000
