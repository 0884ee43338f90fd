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
import { conversation, conversationItem, message, messagesProvider, mine } from '#tests/mocks/messages.ts'
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

  test('a closed conversation shows a note instead of the form', async () => {
    messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation({ closed: true }), messages: [message()], older: null }) })
    await draw('/mensagens/5')
    expect((await screen.findByTestId('closed')).textContent).toMatch(/encerrada/)
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(screen.queryByRole('link', { name: 'Mensagens anteriores' })).toBeNull()
  })
})
