// @vitest-environment jsdom
import { createRemixStub } from '@remix-run/testing'
import { cleanup, render, screen, within } from '@testing-library/react'
import { HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { TranslationsProvider } from '#app/i18n/react.tsx'
import ConversationsPage, { loader as listLoader } from '#app/routes/mensagens._index.tsx'
import ThreadPage, { action as threadAction, loader as threadLoader } from '#app/routes/mensagens.$id/route.tsx'
import { signedIn } from '#tests/mocks/session.ts'
import { attachment, conversation, conversationItem, message, messagesProvider, mine } from '#tests/mocks/messages.ts'
import { type ServerFunction, ignoreRouterFutureWarnings, withCookie } from '#tests/mocks/route-stub.ts'

/** The messages pages drawn over their real loaders (msw as the provider), as the browser gets them. */

beforeEach(() => ignoreRouterFutureWarnings())
afterEach(() => cleanup())

async function draw(path: string) {
  const cookie = await signedIn()
  const Stub = createRemixStub([
    { path: '/mensagens', Component: ConversationsPage, loader: withCookie(listLoader as ServerFunction, cookie) },
    { path: '/mensagens/:id', Component: ThreadPage, loader: withCookie(threadLoader as ServerFunction, cookie), action: withCookie(threadAction as ServerFunction, cookie) },
  ])
  return render(
    <TranslationsProvider value={translationsFor('pt')}>
      <Stub initialEntries={[path]} />
    </TranslationsProvider>,
  )
}

describe('the conversations page', () => {
  test('names the other (or a deleted account), the last words or a deleted message, and the unread count', async () => {
    messagesProvider({
      list: () =>
        HttpResponse.json({
          count: 2,
          next: null,
          previous: null,
          results: [conversationItem(), conversationItem({ id: 6, other: { id: null, first_name: '', last_name: '', photo: null }, unread_count: 0, last_message: { id: 20, preview: '', deleted: true, mine: false, sent_at: '2026-11-29T02:30:00.000Z' } })],
        }),
    })
    await draw('/mensagens')
    const list = await screen.findByTestId('conversations')
    const [first, second] = within(list).getAllByRole('listitem')
    expect(within(first!).getByRole('link', { name: /^Paula Ribeiro ?: 2 mensagens não lidas$/ }).getAttribute('href')).toBe('/mensagens/5')
    expect(first!.textContent).toContain('Bom dia, Pedro! Como foi a semana?')
    expect(within(second!).getByRole('link').textContent).toBe('Conta excluída')
    expect(second!.textContent).toContain('Mensagem apagada')
  })

  test('a last message of files alone says how many', async () => {
    messagesProvider({ list: () => HttpResponse.json({ count: 1, next: null, previous: null, results: [conversationItem({ last_message: { id: 21, preview: '', attachment_count: 2, deleted: false, mine: true, sent_at: '2026-11-30T12:00:00.000Z' } })] }) })
    await draw('/mensagens')
    const [row] = within(await screen.findByTestId('conversations')).getAllByRole('listitem')
    expect(row!.textContent).toContain('Você: 2 arquivos')
  })

  test('says when there is none', async () => {
    messagesProvider({ list: () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] }) })
    await draw('/mensagens')
    expect((await screen.findByTestId('no-conversations')).textContent).toMatch(/Nenhuma conversa ainda/)
  })
})

describe('the thread page', () => {
  test('draws the text as plain text with its line breaks and its addresses as safe links; read, delete, older and refresh', async () => {
    messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation(), messages: [mine({ text: 'Oi <b>Paula</b>\nveja https://example.org/sono.' }), message({ id: 12, text: '', deleted: true })], older: 3 }) })
    await draw('/mensagens/5')
    const thread = await screen.findByTestId('thread')
    const [own, deleted] = within(thread).getAllByRole('listitem')
    const text = own!.querySelector('p.whitespace-pre-wrap')!
    expect(text.textContent).toBe('Oi <b>Paula</b>\nveja https://example.org/sono.')
    expect(text.querySelector('b')).toBeNull()
    const link = within(own!).getByRole('link', { name: 'https://example.org/sono' })
    expect(link.getAttribute('href')).toBe('https://example.org/sono')
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow ugc')
    expect(within(own!).getByText('Lida')).toBeTruthy()
    expect(within(own!).getByRole('button', { name: /Apagar sua mensagem/ })).toBeTruthy()
    expect(deleted!.textContent).toContain('Mensagem apagada')
    expect(screen.getByRole('link', { name: 'Mensagens anteriores' }).getAttribute('href')).toBe('/mensagens/5?antes=3')
    expect(screen.getByRole('link', { name: 'Atualizar' }).getAttribute('href')).toBe('/mensagens/5')
    const form = screen.getByRole('textbox', { name: 'Mensagem' }).closest('form')!
    expect(form.getAttribute('method')).toBe('post')
    expect((form.querySelector('input[name="idempotency_key"]') as HTMLInputElement).value).toMatch(/^[0-9a-f-]{36}$/)
  })

  test("shows a message's files: a photo as a thumbnail that opens it, a PDF as a link with its name and size, through this site's /media/; the form takes files", async () => {
    const pdf = attachment({ id: 32, name: 'exame.pdf', content_type: 'application/pdf', size: 1536 * 1024, width: null, height: null, url: 'http://provider.test/media/messages/32/3?expires=1796000000&signature=cd' })
    messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation(), messages: [mine({ text: '', attachments: [attachment(), pdf] })], older: null }) })
    await draw('/mensagens/5')
    await screen.findByTestId('thread')
    const own = screen.getByRole('article', { name: /^Você, / })
    const image = within(own!).getByRole('img', { name: 'Foto enviada: pressão.jpg' })
    expect(image.getAttribute('src')).toBe(`/media/messages/31/3?expires=1796000000&signature=${'ab'.repeat(32)}`)
    expect(within(own!).getByRole('link', { name: 'Abrir a foto pressão.jpg (240 kB)' }).getAttribute('href')).toBe(image.getAttribute('src'))
    const document = within(own!).getByRole('link', { name: 'PDF: exame.pdf (1,5 MB)' })
    expect(document.getAttribute('href')).toBe('/media/messages/32/3?expires=1796000000&signature=cd')
    // No token in the page: only the signed /media/ addresses.
    expect(document.closest('article')!.innerHTML).not.toMatch(/provider\.test|Bearer/)
    const form = screen.getByRole('textbox', { name: 'Mensagem' }).closest('form')!
    expect(form.getAttribute('enctype')).toBe('multipart/form-data')
    const input = screen.getByLabelText('Anexos (opcional)') as HTMLInputElement
    expect([input.type, input.name, input.multiple, input.accept]).toEqual(['file', 'attachments', true, 'image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf'])
  })

  test('names a deleted account "Conta excluída" as the author of its messages', async () => {
    messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation({ closed: true, other: { id: null, first_name: '', last_name: '', photo: null } }), messages: [message({ sender_id: null, text: 'Obrigado pela consulta!' })], older: null }) })
    await draw('/mensagens/5')
    const [theirs] = within(await screen.findByTestId('thread')).getAllByRole('listitem')
    expect(within(theirs!).getByRole('article').getAttribute('aria-label')).toMatch(/^Conta excluída, /)
    expect(theirs!.textContent).toMatch(/^Conta excluída ·/)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Conversa com Conta excluída')
  })

  test('a closed conversation shows a note instead of the form', async () => {
    messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation({ closed: true }), messages: [message()], older: null }) })
    await draw('/mensagens/5')
    expect((await screen.findByTestId('closed')).textContent).toMatch(/encerrada/)
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.queryByRole('link', { name: 'Mensagens anteriores' })).toBeNull()
  })
})
