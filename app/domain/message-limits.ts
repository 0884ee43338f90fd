/**
 * A message's bounds (issue 44, decisions 0085 and 0086), without zod: the thread's page reads them
 * in the browser, where the forms' schemas would bring the whole validation library along
 * (`app/forms/message-form.ts` builds its schemas on them).
 */
export const MESSAGE_TEXT_MAX_LENGTH = 4000

/** A message's files, as the provider takes them: at most five, each at most 10 MB, images (JPEG, PNG, WebP) or PDFs by their bytes. */
export const MAX_ATTACHMENTS = 5
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
/** What the file input offers (the provider reads the real type from the bytes). */
export const ATTACHMENT_ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf'

/** The hidden field a send made by the page's script carries: the answer is the message, not a redirect (decision 0088). */
export const VIA_FETCHER = 'fetcher'
