import { describe, expect, it } from 'vitest'
import { ATTACHMENT_STORAGE_BYTES, ATTACHMENTS_PER_DAY, attachmentName, boundsProblem } from '#server/messages/attachment-rules.ts'

describe('attachmentName', () => {
  it('keeps the last part of the name, with the extension of the type read from the bytes', () => {
    expect(attachmentName('exame.pdf', 'application/pdf')).toBe('exame.pdf')
    expect(attachmentName('exame.pdf', 'image/png')).toBe('exame.png')
    expect(attachmentName('C:\\Users\\pedro\\Fotos\\praia.JPG', 'image/jpeg')).toBe('praia.jpg')
    expect(attachmentName('../../etc/passwd', 'application/pdf')).toBe('passwd.pdf')
    expect(attachmentName('sem extensão', 'image/webp')).toBe('sem extensão.webp')
  })

  it('drops control characters and leading dots, never leaves it empty, and bounds its length', () => {
    expect(attachmentName('a\u0000b\u001b\nc.png', 'image/png')).toBe('abc.png')
    expect(attachmentName('.htaccess', 'application/pdf')).toBe('htaccess.pdf')
    expect(attachmentName('', 'image/png')).toBe('anexo.png')
    expect(attachmentName('...', 'image/png')).toBe('anexo.png')
    const long = attachmentName(`${'ç'.repeat(300)}.pdf`, 'application/pdf')
    expect([...long]).toHaveLength(120)
    expect(long.endsWith('ç.pdf')).toBe(true)
  })
})

describe('boundsProblem', () => {
  it('passes files within the day and the storage, and says which bound the next would pass', () => {
    expect(boundsProblem({ sentToday: 0, storedBytes: 0, adding: 5, addingBytes: 50 })).toBeUndefined()
    expect(boundsProblem({ sentToday: ATTACHMENTS_PER_DAY - 5, storedBytes: 0, adding: 5, addingBytes: 1 })).toBeUndefined()
    expect(boundsProblem({ sentToday: ATTACHMENTS_PER_DAY - 4, storedBytes: 0, adding: 5, addingBytes: 1 })).toBe('attachment_daily_limit')
    expect(boundsProblem({ sentToday: 0, storedBytes: ATTACHMENT_STORAGE_BYTES - 10, adding: 1, addingBytes: 10 })).toBeUndefined()
    expect(boundsProblem({ sentToday: 0, storedBytes: ATTACHMENT_STORAGE_BYTES - 10, adding: 1, addingBytes: 11 })).toBe('attachment_storage_full')
    // Text alone is never refused by them.
    expect(boundsProblem({ sentToday: 999, storedBytes: ATTACHMENT_STORAGE_BYTES * 2, adding: 0, addingBytes: 0 })).toBeUndefined()
  })
})
