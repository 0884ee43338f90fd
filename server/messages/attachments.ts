import { fileTypeFromBuffer } from 'file-type'
import sharp from 'sharp'
import { attachmentName, isAttachmentType, isImageType, MAX_ATTACHMENT_BYTES, MAX_IMAGE_PIXELS, type AttachmentProblemCode, type AttachmentType } from '#server/messages/attachment-rules.ts'

/**
 * A file sent with a message made ready to store (decision 0086): its type read from its bytes
 * (file-type), an image decoded and encoded again by sharp with its orientation applied and every
 * metadata block (EXIF with its GPS position, XMP, IPTC, ICC, comments) left behind, a PDF kept as
 * it came.
 */
export type PreparedAttachment = { name: string; contentType: AttachmentType; bytes: Buffer; size: number; width: number | null; height: number | null }

// One image at a time per call, and libvips' own threads kept to the machine's few cores.
sharp.concurrency(1)

export async function prepareAttachment(file: File): Promise<PreparedAttachment | { problem: AttachmentProblemCode }> {
  if (file.size > MAX_ATTACHMENT_BYTES) return { problem: 'attachment_too_large' }
  const bytes = Buffer.from(await file.arrayBuffer())
  if (bytes.length === 0) return { problem: 'attachment_empty' }
  const detected = await fileTypeFromBuffer(bytes)
  if (!detected || !isAttachmentType(detected.mime)) return { problem: 'attachment_type' }
  const type = detected.mime
  const name = attachmentName(file.name, type)
  if (!isImageType(type)) return { name, contentType: type, bytes, size: bytes.length, width: null, height: null }
  try {
    // rotate() with no angle turns the pixels as the EXIF orientation said, before that block goes.
    const image = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).rotate()
    const encoded = type === 'image/jpeg' ? image.jpeg({ quality: 88 }) : type === 'image/png' ? image.png() : image.webp({ quality: 88 })
    // sharp writes no metadata unless asked (withMetadata, keepExif, keepIccProfile): none is asked for.
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
    if (data.length > MAX_ATTACHMENT_BYTES) return { problem: 'attachment_too_large' }
    return { name, contentType: type, bytes: data, size: data.length, width: info.width, height: info.height }
  } catch {
    return { problem: 'attachment_unreadable' }
  }
}
