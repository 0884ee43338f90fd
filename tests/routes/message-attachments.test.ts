import { HttpResponse } from 'msw'
import { describe, expect, test } from 'vitest'
import { action as threadAction, loader as threadLoader } from '#app/routes/mensagens.$id/route.tsx'
import { attachment, conversation, message, messagesProvider, mine } from '#tests/mocks/messages.ts'
import { run } from '#tests/mocks/route.ts'
import { signedIn } from '#tests/mocks/session.ts'

/** The thread's files (decision 0086) over msw as the provider: sent as multipart, refused with which file and why, shown through this site's /media/. */

const KEY = '0b6f6f3e-1d3a-4c55-9a43-6a1c1e9e2f10'

async function postWithFiles(text: string, files: File[]) {
  const body = new FormData()
  body.set('intent', 'send')
  body.set('text', text)
  body.set('idempotency_key', KEY)
  for (const file of files) body.append('attachments', file)
  // An untouched file input sends a nameless, empty part too.
  if (files.length === 0) body.append('attachments', new File([], ''))
  return run(threadAction, new Request('http://app.test/mensagens/5', { method: 'POST', body, headers: { Cookie: await signedIn() } }), { id: '5' })
}

const photo = (name = 'praia.jpg', size = 1000) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' })

type Refused = { result: { initialValue: Record<string, unknown>; error: Record<string, string[]> } }

describe('sending files', () => {
  test('go to the provider as multipart with the text and the key; the text may be empty', async () => {
    const asked = messagesProvider()
    const sent = await postWithFiles('Seguem os exames', [photo(), new File(['%PDF-1.4'], 'exame.pdf', { type: 'application/pdf' })])
    expect(sent.status).toBe(302)
    expect(sent.location).toBe('/mensagens/5#mensagem-13')
    expect(asked.sent).toEqual([
      {
        text: 'Seguem os exames',
        idempotency_key: KEY,
        attachments: [
          { name: 'praia.jpg', type: 'image/jpeg', size: 1000 },
          { name: 'exame.pdf', type: 'application/pdf', size: 8 },
        ],
      },
    ])
    const photoOnly = await postWithFiles('', [photo()])
    expect(photoOnly.status).toBe(302)
    expect(asked.sent[1]).toMatchObject({ text: '', attachments: [{ name: 'praia.jpg' }] })
  })

  test('without files, an untouched input sends JSON as before, and a blank text is still refused', async () => {
    const asked = messagesProvider()
    expect((await postWithFiles('Oi', [])).status).toBe(302)
    expect(asked.sent).toEqual([{ text: 'Oi', idempotency_key: KEY }])
    const blank = await postWithFiles('  ', [])
    expect(blank.status).toBe(400)
    expect(blank.data).toMatchObject({ result: { error: { text: ['messages:thread.required'] } } })
  })

  test('six files, or one over 10 MB, are refused here with the text kept, naming the file', async () => {
    const asked = messagesProvider()
    const six = await postWithFiles('Fotos', [1, 2, 3, 4, 5, 6].map((n) => photo(`${n}.jpg`)))
    expect(six.status).toBe(422)
    expect((six.data as Refused).result.initialValue).toMatchObject({ text: 'Fotos', idempotency_key: KEY })
    expect((six.data as Refused).result.error.attachments).toEqual(['Envie no máximo 5 arquivos por mensagem.', 'O texto foi mantido; escolha os arquivos de novo antes de enviar.'])
    const big = await postWithFiles('Exame', [photo('ok.jpg'), photo('enorme.jpg', 10 * 1024 * 1024 + 1)])
    expect(big.status).toBe(413)
    expect((big.data as Refused).result.initialValue).toMatchObject({ text: 'Exame' })
    expect((big.data as Refused).result.error.attachments![0]).toBe('enorme.jpg: o arquivo tem mais de 10 MB.')
    expect(asked.sent).toEqual([])
  })

  test("the provider's refusals say which file and why (its type read from the bytes), or which bound", async () => {
    messagesProvider({ send: () => HttpResponse.json({ detail: 'Only JPEG, PNG and WebP images and PDF documents may be attached.', code: 'attachment_type', attachment: 1 }, { status: 422 }) })
    const type = await postWithFiles('Veja', [photo('a.jpg'), photo('nota.jpg')])
    expect(type.status).toBe(422)
    expect((type.data as Refused).result.initialValue).toMatchObject({ text: 'Veja', idempotency_key: KEY })
    expect((type.data as Refused).result.error.attachments![0]).toBe('nota.jpg: só é possível anexar fotos JPEG, PNG ou WebP e documentos PDF.')
    messagesProvider({ send: () => HttpResponse.json({ detail: 'At most 40 files may be sent in 24 hours.', code: 'attachment_daily_limit' }, { status: 422 }) })
    const daily = await postWithFiles('Mais', [photo()])
    expect((daily.data as Refused).result.error.attachments![0]).toBe('Você já enviou 40 arquivos nas últimas 24 horas; tente de novo mais tarde.')
    messagesProvider({ send: () => HttpResponse.json({ detail: 'Your files may take at most 250 MB.', code: 'attachment_storage_full' }, { status: 413 }) })
    const full = await postWithFiles('Mais', [photo()])
    expect(full.status).toBe(413)
    expect((full.data as Refused).result.error.attachments![0]).toMatch(/250 MB/)
    messagesProvider({ send: () => HttpResponse.error() })
    const down = await postWithFiles('Quando cair', [photo()])
    expect(down.status).toBe(400)
    expect((down.data as Refused).result.initialValue).toMatchObject({ text: 'Quando cair' })
  })
})

describe("the thread's files", () => {
  test("are listed with their kind, size and this site's /media/ address with the provider's signature; a deleted message has none", async () => {
    messagesProvider({
      thread: () =>
        HttpResponse.json({
          conversation: conversation(),
          messages: [mine({ text: '', attachments: [attachment(), attachment({ id: 32, name: 'exame.pdf', content_type: 'application/pdf', size: 1536 * 1024, width: null, height: null, url: 'http://provider.test/media/messages/32/3?expires=1796000000&signature=cd' })] }), message({ id: 12 })],
          older: null,
        }),
    })
    const page = await run(threadLoader, new Request('http://app.test/mensagens/5', { headers: { Cookie: await signedIn() } }), { id: '5' })
    expect(page.status).toBe(200)
    const messages = (page.data as { thread: { messages: { attachments: unknown[] }[] } }).thread.messages
    expect(messages[0]!.attachments).toEqual([
      { id: 31, name: 'pressão.jpg', image: true, size: '240 kB', url: `/media/messages/31/3?expires=1796000000&signature=${'ab'.repeat(32)}`, width: 800, height: 600 },
      { id: 32, name: 'exame.pdf', image: false, size: '1,5 MB', url: '/media/messages/32/3?expires=1796000000&signature=cd', width: null, height: null },
    ])
    expect(messages[1]!.attachments).toEqual([])
  })
})
