import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '#server/db/client.ts'
import { messageAttachments, messages, users } from '#server/db/schema.ts'
import { mediaSigningKey, signedAttachmentMedia } from '#server/media/signed-urls.ts'
import { ATTACHMENTS_PER_DAY, MAX_ATTACHMENT_BYTES } from '#server/messages/attachment-rules.ts'
import type { ProviderApp } from '#server/app.ts'
import { attachmentDisposition } from '#server/routes/media.ts'
import { AttachmentBoundsError, insertMessage, openConversation } from '#server/messages/repository.ts'
import { client, createMemoryDatabase, describeOnPostgres, fakeClock, PUBLIC_URL, resetDatabase, testApp } from '#server/testing/harness.ts'

let database: DatabaseHandle
const NOW = Date.UTC(2026, 11, 7, 12, 0, 0)
const time = fakeClock(NOW)
let app: ProviderApp
let api: ReturnType<typeof client>
const tokens = { admin: '', paula: '', pedro: '', psicologa: '' }
const ids = { paula: 0, pedro: 0, psicologa: 0 }
let conversationId = 0

/** Signs the two in again: time moved past their access tokens' life. */
async function signInAgain() {
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
}

const idOf = async (email: string) => (await database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id

beforeAll(async () => {
  database = await createMemoryDatabase()
  app = testApp(database.db, { clock: time.clock, env: { THROTTLE_DISABLED: '0', THROTTLE_MESSAGE_PER_USER: '100/h' } })
  api = client(app)
  tokens.admin = (await api.login('admin@innera.local')).access
  tokens.paula = (await api.login('profissional@innera.local')).access
  tokens.pedro = (await api.login('paciente@innera.local')).access
  tokens.psicologa = (await api.login('psicologa@innera.local')).access
  ids.paula = await idOf('profissional@innera.local')
  ids.pedro = await idOf('paciente@innera.local')
  ids.psicologa = await idOf('psicologa@innera.local')
})
afterAll(async () => {
  await app.services.messageBus.close()
  await database.close()
})
beforeEach(async () => {
  await resetDatabase(database.db)
  time.set(NOW)
  const started = await api.post('/messages/conversations/', { with: ids.paula }, { token: tokens.pedro })
  expect(started.status).toBe(201)
  conversationId = started.json.id
})

const png = (width = 4, height = 3) => sharp({ create: { width, height, channels: 3, background: '#3a7' } }).png().toBuffer()
const file = (bytes: Uint8Array | string, name: string, type = 'application/octet-stream') => new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type })
const PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'

function form(files: File[], { text, key }: { text?: string; key?: string } = {}) {
  const body = new FormData()
  if (text !== undefined) body.set('text', text)
  if (key) body.set('idempotency_key', key)
  for (const attached of files) body.append('attachments', attached)
  return body
}
const send = (token: string, files: File[], options?: { text?: string; key?: string }) => api.post(`/messages/conversations/${conversationId}/messages/`, form(files, options), { token })

/** A signed link's bytes, as the browser (through the app's /media/) would fetch them. */
async function fetchLink(url: string) {
  const response = await app.request(url)
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
}

/**
 * A JPEG with an EXIF block that holds a GPS position (23° 33′ S), written by hand: big-endian TIFF,
 * IFD0 pointing at a GPS IFD with GPSLatitudeRef "S" and GPSLatitude 23/1, 33/1, 0/1.
 */
async function jpegWithGps(): Promise<Buffer> {
  const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c84' } }).jpeg().toBuffer()
  const tiff = Buffer.alloc(80)
  tiff.write('MM', 0, 'ascii')
  tiff.writeUInt16BE(42, 2)
  tiff.writeUInt32BE(8, 4)
  // IFD0: one entry, GPSInfo (0x8825, LONG) at offset 26.
  tiff.writeUInt16BE(1, 8)
  tiff.writeUInt16BE(0x8825, 10)
  tiff.writeUInt16BE(4, 12)
  tiff.writeUInt32BE(1, 14)
  tiff.writeUInt32BE(26, 18)
  tiff.writeUInt32BE(0, 22)
  // The GPS IFD: GPSLatitudeRef (ASCII "S") and GPSLatitude (3 RATIONALs at offset 56).
  tiff.writeUInt16BE(2, 26)
  tiff.writeUInt16BE(0x0001, 28)
  tiff.writeUInt16BE(2, 30)
  tiff.writeUInt32BE(2, 32)
  tiff.write('S\0', 36, 'ascii')
  tiff.writeUInt16BE(0x0002, 40)
  tiff.writeUInt16BE(5, 42)
  tiff.writeUInt32BE(3, 44)
  tiff.writeUInt32BE(56, 48)
  tiff.writeUInt32BE(0, 52)
  for (const [index, [numerator, denominator]] of [[23, 1], [33, 1], [0, 1]].entries()) {
    tiff.writeUInt32BE(numerator!, 56 + index * 8)
    tiff.writeUInt32BE(denominator!, 60 + index * 8)
  }
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff])
  const app1 = Buffer.alloc(4)
  app1.writeUInt16BE(0xffe1, 0)
  app1.writeUInt16BE(payload.length + 2, 2)
  // Right after the start-of-image marker, where cameras put it.
  return Buffer.concat([plain.subarray(0, 2), app1, payload, plain.subarray(2)])
}

describe('attachments on a message', () => {
  it('takes images and PDFs, up to five, and shows each to both of the two with a link of its own', async () => {
    const sent = await send(tokens.pedro, [file(await png(), 'pressão.png', 'image/png'), file(PDF, 'exame.pdf', 'application/pdf')], { text: 'Seguem os exames.' })
    expect(sent.status).toBe(201)
    expect(sent.headers.get('cache-control')).toBe('private, no-store')
    expect(sent.json).toMatchObject({ text: 'Seguem os exames.', attachments: [{ name: 'pressão.png', content_type: 'image/png', width: 4, height: 3 }, { name: 'exame.pdf', content_type: 'application/pdf', size: PDF.length, width: null }] })
    const [image, pdf] = sent.json.attachments
    expect(image.url).toMatch(new RegExp(`^${PUBLIC_URL}/media/messages/${image.id}/${ids.pedro}\\?expires=\\d+&signature=[0-9a-f]{64}$`))

    const thread = await api.get(`/messages/conversations/${conversationId}/`, { token: tokens.paula })
    const forPaula = thread.json.messages[0].attachments
    expect(forPaula.map((attachment: { id: number }) => attachment.id)).toEqual([image.id, pdf.id])
    expect(forPaula[0].url).toContain(`/media/messages/${image.id}/${ids.paula}?`)

    for (const url of [image.url, forPaula[0].url]) {
      const served = await fetchLink(url)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/png')
      expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
      expect(served.headers.get('content-disposition')).toBe(`inline; filename="press_o.png"; filename*=UTF-8''press%C3%A3o.png`)
      expect((await sharp(served.bytes).metadata()).width).toBe(4)
    }
    const document = await fetchLink(forPaula[1].url)
    expect(document.status).toBe(200)
    expect(document.bytes.toString('latin1')).toBe(PDF)
    // A PDF is saved, never opened on the site.
    expect(document.headers.get('content-disposition')).toMatch(/^attachment; filename="exame\.pdf"/)
  })

  it('may carry no text when it carries files; without either it is refused', async () => {
    const photo = await send(tokens.pedro, [file(await png(), 'foto.png')])
    expect(photo.status).toBe(201)
    expect(photo.json.text).toBe('')
    // The list says how many files it carries, never their names.
    const listed = await api.get('/messages/conversations/', { token: tokens.paula })
    expect(listed.json.results[0].last_message).toMatchObject({ preview: '', attachment_count: 1 })
    expect(JSON.stringify(listed.json)).not.toContain('foto.png')
    expect((await send(tokens.pedro, [], { text: ' ' })).json).toEqual({ text: ['This field may not be blank.'] })
  })

  it('reads the type from the bytes: a PNG named .pdf is a PNG, a text named .jpg is refused', async () => {
    const renamed = await send(tokens.pedro, [file(await png(), 'exame.pdf', 'application/pdf')])
    expect(renamed.status).toBe(201)
    expect(renamed.json.attachments[0]).toMatchObject({ name: 'exame.png', content_type: 'image/png' })

    const text = await send(tokens.pedro, [file(await png(), 'ok.png'), file('não sou uma foto', 'foto.jpg', 'image/jpeg')], { text: 'oi' })
    expect(text.status).toBe(422)
    expect(text.json).toEqual({ detail: 'Only JPEG, PNG and WebP images and PDF documents may be attached.', code: 'attachment_type', attachment: 1 })
    // A JPEG's first bytes on something that is no image: refused by its decoding.
    const broken = await send(tokens.pedro, [file(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1]), 'quebrada.jpg')])
    expect(broken.json).toMatchObject({ code: 'attachment_unreadable', attachment: 0 })
    expect(await database.db.select({ id: messages.id }).from(messages).where(eq(messages.conversationId, conversationId))).toHaveLength(1)
  })

  it('refuses a file over 10 MB (413) and a sixth file (422), writing nothing', async () => {
    const big = Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x20)
    big.write('%PDF-1.4\n', 0, 'latin1')
    const tooBig = await send(tokens.pedro, [file(await png(), 'a.png'), file(big, 'grande.pdf')], { text: 'oi' })
    expect(tooBig.status).toBe(413)
    expect(tooBig.json).toEqual({ detail: 'A file may be at most 10 MB.', code: 'attachment_too_large', attachment: 1 })
    const six = await send(tokens.pedro, await Promise.all([1, 2, 3, 4, 5, 6].map(async (n) => file(await png(), `${n}.png`))), { text: 'oi' })
    expect(six.status).toBe(422)
    expect(six.json).toMatchObject({ code: 'too_many_attachments' })
    expect(await database.db.select().from(messageAttachments)).toEqual([])
    expect(await database.db.select().from(messages)).toEqual([])
  })

  it('strips an image of its EXIF block, GPS position and all', async () => {
    const original = await jpegWithGps()
    // The test's photo does carry the block, as a phone's would.
    expect((await sharp(original).metadata()).exif?.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(true)
    const sent = await send(tokens.pedro, [file(original, 'praia.jpg', 'image/jpeg')])
    expect(sent.status).toBe(201)
    const [stored] = await database.db.select().from(messageAttachments)
    expect(stored!.contentType).toBe('image/jpeg')
    const metadata = await sharp(stored!.bytes).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 8, height: 8 })
    expect(metadata.exif).toBeUndefined()
    expect(stored!.bytes.includes(Buffer.from('Exif', 'latin1'))).toBe(false)
    const served = await fetchLink(sent.json.attachments[0].url)
    expect(served.bytes.equals(stored!.bytes)).toBe(true)
  })

  it('is sent once for one idempotency key, its files too', async () => {
    const files = async () => [file(await png(), 'a.png'), file(PDF, 'b.pdf')]
    const first = await send(tokens.pedro, await files(), { text: 'Uma vez', key: 'chave-dos-anexos-0001' })
    const again = await send(tokens.pedro, await files(), { text: 'Uma vez', key: 'chave-dos-anexos-0001' })
    expect([first.status, again.status]).toEqual([201, 200])
    expect(again.json.id).toBe(first.json.id)
    expect(again.json.attachments.map((attachment: { id: number }) => attachment.id)).toEqual(first.json.attachments.map((attachment: { id: number }) => attachment.id))
    expect(await database.db.select({ id: messageAttachments.id }).from(messageAttachments)).toHaveLength(2)
  })
})

describe('an attachment link', () => {
  async function sentImage() {
    const sent = await send(tokens.pedro, [file(await png(), 'foto.png')])
    return sent.json.attachments[0] as { id: number; url: string }
  }

  it('is refused to a stranger: no thread to get it from, a link edited for them, or one signed for them', async () => {
    const image = await sentImage()
    expect((await api.get(`/messages/conversations/${conversationId}/`, { token: tokens.psicologa })).status).toBe(404)
    expect((await api.get(`/messages/conversations/${conversationId}/`, { token: tokens.admin })).status).toBe(403)
    const edited = image.url.replace(`/${image.id}/${ids.pedro}?`, `/${image.id}/${ids.psicologa}?`)
    expect((await fetchLink(edited)).status).toBe(403)
    expect((await fetchLink(image.url.replace(/signature=[0-9a-f]+/, 'signature=' + '0'.repeat(64)))).status).toBe(403)
    expect((await fetchLink(image.url.split('?')[0]!)).status).toBe(403)
    // Even a well-signed link (were the key to leak) serves only one of the two.
    const key = mediaSigningKey(app.services.config.jwtSecret)
    expect((await fetchLink(signedAttachmentMedia(PUBLIC_URL, image.id, ids.psicologa, key, time.clock()).url)).status).toBe(404)
  })

  it('expires after 30 to 35 minutes; a new page of the thread gives a new one', async () => {
    const image = await sentImage()
    time.advance(29 * 60)
    expect((await fetchLink(image.url)).status).toBe(200)
    time.advance(7 * 60)
    expect((await fetchLink(image.url)).status).toBe(403)
    await signInAgain()
    const fresh = (await api.get(`/messages/conversations/${conversationId}/`, { token: tokens.pedro })).json.messages[0].attachments[0]
    expect(fresh.url).not.toBe(image.url)
    expect((await fetchLink(fresh.url)).status).toBe(200)
  })

  it('stops working when its message is deleted, for both', async () => {
    const sent = await send(tokens.pedro, [file(await png(), 'foto.png')], { text: 'ops' })
    const forPaula = (await api.get(`/messages/conversations/${conversationId}/`, { token: tokens.paula })).json.messages[0].attachments[0]
    const deleted = await api.post(`/messages/conversations/${conversationId}/messages/${sent.json.id}/delete/`, undefined, { token: tokens.pedro })
    expect(deleted.json).toMatchObject({ deleted: true, attachments: [] })
    expect((await fetchLink(sent.json.attachments[0].url)).status).toBe(404)
    expect((await fetchLink(forPaula.url)).status).toBe(404)
    expect(await database.db.select().from(messageAttachments)).toEqual([])
  })
})

describe('a message with files removed by the moderation', () => {
  it('loses its files too; the queue never shows them', async () => {
    const sent = await send(tokens.pedro, [file(await png(), 'ofensa.png')], { text: 'uma mensagem ruim' })
    const report = await api.post(`/messages/conversations/${conversationId}/messages/${sent.json.id}/report/`, { reason: 'Ofensiva' }, { token: tokens.paula })
    expect(report.status).toBe(201)
    const queue = await api.get('/admin/message-reports/', { token: tokens.admin })
    expect(JSON.stringify(queue.json)).not.toMatch(/ofensa\.png|media\/messages/)
    expect((await api.post(`/admin/message-reports/${report.json.id}/resolve/`, { outcome: 'removed' }, { token: tokens.admin })).status).toBe(200)
    expect(await database.db.select().from(messageAttachments)).toEqual([])
    expect((await fetchLink(sent.json.attachments[0].url)).status).toBe(404)
  })
})

describe("a sender's bounds", () => {
  it(`takes ${ATTACHMENTS_PER_DAY} files in 24 hours, and the next day more`, async () => {
    const five = async () => Promise.all([1, 2, 3, 4, 5].map(async (n) => file(await png(), `${n}.png`)))
    for (let sent = 0; sent < ATTACHMENTS_PER_DAY; sent += 5) expect((await send(tokens.pedro, await five())).status).toBe(201)
    const over = await send(tokens.pedro, [file(await png(), 'mais.png')], { text: 'mais uma' })
    expect(over.status).toBe(422)
    expect(over.json).toEqual({ detail: `At most ${ATTACHMENTS_PER_DAY} files may be sent in 24 hours.`, code: 'attachment_daily_limit' })
    // Text alone still goes; the other side has bounds of their own.
    expect((await send(tokens.pedro, [], { text: 'só texto' })).status).toBe(201)
    expect((await send(tokens.paula, [file(await png(), 'dela.png')])).status).toBe(201)
    time.advance(24 * 3600 + 1)
    await signInAgain()
    expect((await send(tokens.pedro, [file(await png(), 'mais.png')])).status).toBe(201)
  })

  it('stores at most 250 MB for one person (413); deleting a message gives its room back', async () => {
    // 24 files of 10 MB sent two days ago (their sizes as stored; the bytes are not read here) ...
    for (let index = 0; index < 24; index += 1) {
      const [row] = await database.db.insert(messages).values({ conversationId, senderId: ids.pedro, body: 'x', attachmentCount: 1, createdAt: new Date(NOW) }).returning()
      await database.db.insert(messageAttachments).values({ messageId: row!.id, conversationId, uploaderId: ids.pedro, position: 0, name: 'x.pdf', contentType: 'application/pdf', size: MAX_ATTACHMENT_BYTES, bytes: Buffer.from(PDF), createdAt: new Date(NOW) })
    }
    time.advance(2 * 24 * 3600)
    await signInAgain()
    // ... and one now, of 10 MB too.
    const recent = await send(tokens.pedro, [file(await png(), 'recente.png')], { text: 'recente' })
    await database.db.update(messageAttachments).set({ size: MAX_ATTACHMENT_BYTES }).where(eq(messageAttachments.id, recent.json.attachments[0].id))
    const full = await send(tokens.pedro, [file(await png(), 'nova.png')])
    expect(full.status).toBe(413)
    expect(full.json).toEqual({ detail: 'Your files may take at most 250 MB; delete a recent message with files or send fewer.', code: 'attachment_storage_full' })
    expect((await api.post(`/messages/conversations/${conversationId}/messages/${recent.json.id}/delete/`, undefined, { token: tokens.pedro })).status).toBe(200)
    expect((await send(tokens.pedro, [file(await png(), 'nova.png')])).status).toBe(201)
  })
})

await describeOnPostgres('PostgreSQL: two processes send files at once near the daily bound', (open) => {
  it('let only as many through as the bound has room for (the sender row lock decides)', async () => {
    const { first, second, dispose } = await open()
    try {
      const [patient] = await first.db.select({ id: users.id }).from(users).where(eq(users.email, 'paciente@innera.local'))
      const [professional] = await first.db.select({ id: users.id }).from(users).where(eq(users.email, 'profissional@innera.local'))
      const { conversation } = await openConversation(first.db, patient!.id, professional!.id)
      const now = new Date(NOW)
      const tiny = { name: 'a.pdf', contentType: 'application/pdf' as const, bytes: Buffer.from(PDF), size: PDF.length, width: null, height: null }
      // Room for one more message of five.
      for (let sent = 0; sent < ATTACHMENTS_PER_DAY - 5; sent += 5) await insertMessage(first.db, { conversation, senderId: patient!.id, side: 'patient', body: '', now, attachments: Array(5).fill(tiny) })
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, index) => insertMessage(index % 2 ? first.db : second.db, { conversation, senderId: patient!.id, side: 'patient', body: `corrida ${index}`, now, attachments: Array(5).fill(tiny) })),
      )
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
      const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))
      expect(refused).toHaveLength(5)
      for (const reason of refused) expect(reason).toEqual(new AttachmentBoundsError('attachment_daily_limit'))
      expect(await first.db.select({ id: messageAttachments.id }).from(messageAttachments).where(eq(messageAttachments.uploaderId, patient!.id))).toHaveLength(ATTACHMENTS_PER_DAY)
      // Nothing of a refused send was written: its message rolled back with its files.
      expect(await first.db.select({ id: messages.id }).from(messages).where(eq(messages.body, 'corrida 0'))).toHaveLength(outcomes[0]!.status === 'fulfilled' ? 1 : 0)
    } finally {
      await dispose()
    }
  })
})

describe('attachmentDisposition', () => {
  it('shows an image, saves a PDF, under its name in ASCII and in UTF-8', () => {
    expect(attachmentDisposition('image/jpeg', 'praia.jpg')).toBe(`inline; filename="praia.jpg"; filename*=UTF-8''praia.jpg`)
    expect(attachmentDisposition('application/pdf', 'exame "final" (1)\\ç.pdf')).toBe(`attachment; filename="exame _final_ (1)__.pdf"; filename*=UTF-8''exame%20%22final%22%20%281%29%5C%C3%A7.pdf`)
    expect(attachmentDisposition('application/pdf', "it's*.pdf")).toBe(`attachment; filename="it's*.pdf"; filename*=UTF-8''it%27s%2A.pdf`)
  })
})
