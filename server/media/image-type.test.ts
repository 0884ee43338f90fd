import { describe, expect, it } from 'vitest'
import { detectImageType } from '#server/media/image-type.ts'

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((value) => (typeof value === 'string' ? [...value].map((char) => char.charCodeAt(0)) : [value])))

describe('detectImageType', () => {
  it('recognises JPEG, PNG and WebP by magic bytes', () => {
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))?.contentType).toBe('image/jpeg')
    expect(detectImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0))?.extension).toBe('png')
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))?.contentType).toBe('image/webp')
  })

  it('refuses anything else, including look-alikes and truncated files', () => {
    expect(detectImageType(bytes('GIF89a'))).toBeUndefined()
    expect(detectImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined()
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBeUndefined()
    expect(detectImageType(bytes(0x89, 'PNG'))).toBeUndefined()
    expect(detectImageType(new Uint8Array())).toBeUndefined()
  })
})
