/**
 * The bounds and names of the files sent with a message (issue 44, decision 0086), pure: no I/O.
 * Every refusal has a problem code the app turns into words, and says which file it was.
 */

/** Files one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 5
/** The largest file, as sent and as stored (an image re-encoded past it is refused too). */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024
/** Files one person may send in any 24 hours. */
export const ATTACHMENTS_PER_DAY = 40
export const ATTACHMENT_DAY_MS = 24 * 3600_000
/** What one person's stored files may add up to (those of deleted messages no longer count). */
export const ATTACHMENT_STORAGE_BYTES = 250 * 1024 * 1024
/** An image's pixels at most: a 10 MB file may unpack to far more (a decompression bomb); 50 MP is past every phone's default photo. */
export const MAX_IMAGE_PIXELS = 50_000_000

/** What may be attached, as read from the bytes, never from the name or the declared type. */
export const ATTACHMENT_TYPES = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'application/pdf': 'pdf' } as const
export type AttachmentType = keyof typeof ATTACHMENT_TYPES
export const isAttachmentType = (mime: string): mime is AttachmentType => Object.hasOwn(ATTACHMENT_TYPES, mime)
export const isImageType = (type: AttachmentType) => type !== 'application/pdf'

export type AttachmentProblemCode =
  | 'too_many_attachments'
  | 'attachment_too_large'
  | 'attachment_empty'
  | 'attachment_type'
  | 'attachment_unreadable'
  | 'attachment_daily_limit'
  | 'attachment_storage_full'

/** The HTTP status of each refusal: a body too big for what it is 413, the rest 422. */
export const PROBLEM_STATUS: Record<AttachmentProblemCode, 413 | 422> = {
  too_many_attachments: 422,
  attachment_too_large: 413,
  attachment_empty: 422,
  attachment_type: 422,
  attachment_unreadable: 422,
  attachment_daily_limit: 422,
  attachment_storage_full: 413,
}

export const PROBLEM_DETAIL: Record<AttachmentProblemCode, string> = {
  too_many_attachments: `A message may carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files.`,
  attachment_too_large: `A file may be at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`,
  attachment_empty: 'The file is empty.',
  attachment_type: 'Only JPEG, PNG and WebP images and PDF documents may be attached.',
  attachment_unreadable: 'The file could not be read as the image it claims to be.',
  attachment_daily_limit: `At most ${ATTACHMENTS_PER_DAY} files may be sent in 24 hours.`,
  attachment_storage_full: `Your files may take at most ${ATTACHMENT_STORAGE_BYTES / 1024 / 1024} MB; delete a recent message with files or send fewer.`,
}

// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g
const MAX_NAME_LENGTH = 120

/**
 * The name a file is shown and downloaded under: the last part of what was sent (no folders), no
 * control characters, at most 120 characters, and the extension of its real type (a PNG sent as
 * "exame.pdf" is "exame.png"). Never empty: "anexo" when nothing is left.
 */
export function attachmentName(sent: string, type: AttachmentType): string {
  const base = (sent.split(/[\\/]/).pop() ?? '').replace(CONTROL, '').normalize('NFC').trim()
  const dot = base.lastIndexOf('.')
  const stem = (dot > 0 ? base.slice(0, dot) : base).trim().replace(/^\.+/, '')
  const extension = ATTACHMENT_TYPES[type]
  const kept = [...(stem || 'anexo')].slice(0, MAX_NAME_LENGTH - extension.length - 1).join('')
  return `${kept}.${extension}`
}

/**
 * Whether `adding` more files of `addingBytes` fit the sender's bounds, given what they sent in the
 * last 24 hours and what they store: the code of the first bound it passes, or undefined.
 */
export function boundsProblem({ sentToday, storedBytes, adding, addingBytes }: { sentToday: number; storedBytes: number; adding: number; addingBytes: number }): AttachmentProblemCode | undefined {
  if (adding === 0) return undefined
  if (sentToday + adding > ATTACHMENTS_PER_DAY) return 'attachment_daily_limit'
  if (storedBytes + addingBytes > ATTACHMENT_STORAGE_BYTES) return 'attachment_storage_full'
  return undefined
}

/** The largest body the send endpoint reads: five of the largest files plus a megabyte for the form around them. */
export const MAX_MESSAGE_BODY_BYTES = MAX_ATTACHMENTS_PER_MESSAGE * MAX_ATTACHMENT_BYTES + 1024 * 1024
