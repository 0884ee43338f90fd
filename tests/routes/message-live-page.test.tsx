// @vitest-environment jsdom
import { createRemixStub } from '@remix-run/testing'
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type ThreadMessageView } from '#app/domain/live-thread.ts'
import { translationsFor } from '#app/i18n/i18next.server.ts'
import { TranslationsProvider } from '#app/i18n/react.tsx'
import ThreadPage, { action as threadAction, loader as threadLoader, shouldRevalidate } from '#app/routes/mensagens.$id/route.tsx'
import { conversation, message, messagesProvider, mine } from '#tests/mocks/messages.ts'
import { type ServerFunction, ignoreRouterFutureWarnings, withCookie } from '#tests/mocks/route-stub.ts'
import { signedIn } from '#tests/mocks/session.ts'

/**
 * The thread page with JavaScript (issue 44, decision 0088), over its real loader and action (msw
 * as the provider) and a stand-in EventSource the test drives: live messages once and in order,
 * "Lida" as the other's mark moves, read marks sent, a stream that gave up opened again from the
 * newest message, and the optimistic send with its rollback.
 */

class FakeEventSource {
  static CONNECTING = 0
  static OPEN = 1
  static CLOSED = 2
  static opened: FakeEventSource[] = []
  readyState = FakeEventSource.CONNECTING
  readonly listeners = new Map<string, ((event: MessageEvent) => void)[]>()
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {
    this.readyState = FakeEventSource.CLOSED
  }
  emit(type: string, data?: unknown) {
    if (type === 'open') this.readyState = FakeEventSource.OPEN
    act(() => {
      for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data: data === undefined ? undefined : JSON.stringify(data) }))
    })
  }
  static get last() {
    return FakeEventSource.opened.at(-1)!
  }
}

const view = (overrides: Partial<ThreadMessageView>): ThreadMessageView => ({ id: 13, mine: false, text: 'Chegou agora', attachments: [], deleted: false, removed: false, read: false, canDelete: false, when: 'seg., 30 de nov. de 2026, 09:30', at: '2026-11-30T12:30:00.000Z', ...overrides })

beforeEach(() => {
  ignoreRouterFutureWarnings()
  FakeEventSource.opened = []
  vi.stubGlobal('EventSource', FakeEventSource)
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

async function draw() {
  const cookie = await signedIn()
  const Stub = createRemixStub([{ path: '/mensagens/:id', Component: ThreadPage, loader: withCookie(threadLoader as ServerFunction, cookie), action: withCookie(threadAction as ServerFunction, cookie), shouldRevalidate }])
  render(
    <TranslationsProvider value={translationsFor('pt')}>
      <Stub initialEntries={['/mensagens/5']} />
    </TranslationsProvider>,
  )
  await screen.findByTestId('thread')
  await waitFor(() => expect(FakeEventSource.opened.length).toBe(1))
}

const items = () => within(screen.getByTestId('thread')).getAllByRole('listitem')

describe('the live thread', () => {
  test('appends what the stream brings once and in order, marks the other side\'s read, and shows "Lida" as their mark moves', async () => {
    const asked = messagesProvider({ thread: () => HttpResponse.json({ conversation: conversation(), messages: [mine({ read: false }), message()], older: null }) })
    await draw()
    const stream = FakeEventSource.last
    expect(stream.url).toBe('/mensagens/5/eventos?after=12')
    stream.emit('open')
    stream.emit('message', view({ id: 14, mine: true, text: 'Minha de outra aba', canDelete: true }))
    stream.emit('message', view({ id: 13 }))
    // The same again (a reconnect's catch-up), and the loader's own: nothing twice.
    stream.emit('message', view({ id: 13 }))
    expect(items().map((item) => item.id)).toEqual(['mensagem-11', 'mensagem-12', 'mensagem-13', 'mensagem-14'])
    await waitFor(() => expect(asked.read).toEqual([{ up_to: 13 }]))
    expect(screen.queryByText('Lida')).toBeNull()
    stream.emit('read', { readUpTo: 14 })
    expect(within(items()[0]!).getByText('Lida')).toBeTruthy()
    expect(within(items()[3]!).getByText('Lida')).toBeTruthy()
    // A deletion comes as the message again.
    stream.emit('message', view({ id: 13, text: '', deleted: true }))
    expect(items()[2]!.textContent).toContain('Mensagem apagada')
    expect(screen.getByTestId('arrived-status').textContent).toBe('Nova mensagem de Paula Ribeiro.')
  })

  test('a stream that gave up is opened again from the newest message the page has, and says so meanwhile', async () => {
    messagesProvider()
    await draw()
    const first = FakeEventSource.last
    first.emit('open')
    first.emit('message', view({ id: 20 }))
    first.readyState = FakeEventSource.CLOSED
    first.emit('error')
    expect(screen.getByTestId('live-status').textContent).toMatch(/Sem atualização ao vivo/)
    await waitFor(() => expect(FakeEventSource.opened.length).toBe(2), { timeout: 4000 })
    expect(FakeEventSource.last.url).toBe('/mensagens/5/eventos?after=20')
    FakeEventSource.last.emit('open')
    expect(screen.getByTestId('live-status').textContent).toBe('')
  })

  test('a send shows at once, then as the message; a refusal takes it away, says why and puts the text back', async () => {
    let answer: (body: Record<string, unknown>) => Response = (body) => HttpResponse.json(mine({ id: 30, text: body.text, read: false }), { status: 201 })
    let release = () => {}
    const asked = messagesProvider({
      send: async (request) => {
        const body = (await request.json()) as Record<string, unknown>
        await new Promise<void>((resolve) => (release = resolve))
        return answer(body)
      },
    })
    await draw()
    const user = userEvent.setup()
    const textbox = screen.getByRole('textbox', { name: 'Mensagem' })
    await user.type(textbox, 'Até quinta!')
    await user.click(screen.getByRole('button', { name: 'Enviar' }))
    const pending = await screen.findByTestId('pending-message')
    expect(pending.textContent).toContain('Até quinta!')
    expect(screen.getByTestId('send-status').textContent).toBe('Enviando…')
    expect((textbox as HTMLTextAreaElement).value).toBe('')
    await waitFor(() => expect(asked.sent).toHaveLength(1))
    expect(asked.sent[0]).toMatchObject({ text: 'Até quinta!', idempotency_key: expect.stringMatching(/^[0-9a-f]{32}$/) })
    act(() => release())
    await waitFor(() => expect(screen.queryByTestId('pending-message')).toBeNull())
    expect(items().at(-1)!.id).toBe('mensagem-30')
    expect(screen.getByTestId('send-status').textContent).toBe('Mensagem enviada.')

    answer = () => HttpResponse.json({ detail: 'Request was throttled.' }, { status: 429, headers: { 'Retry-After': '120' } })
    await user.type(textbox, 'Mais uma')
    await user.click(screen.getByRole('button', { name: 'Enviar' }))
    await screen.findByTestId('pending-message')
    await waitFor(() => expect(asked.sent).toHaveLength(2))
    act(() => release())
    expect((await screen.findByRole('alert')).textContent).toMatch(/2 minutos/)
    expect(screen.queryByTestId('pending-message')).toBeNull()
    expect((textbox as HTMLTextAreaElement).value).toBe('Mais uma')
    // Sent again as it was: the same key, so a send that went through is not doubled.
    answer = (body) => HttpResponse.json(mine({ id: 31, text: body.text, read: false }), { status: 201 })
    await user.click(screen.getByRole('button', { name: 'Enviar' }))
    await waitFor(() => expect(asked.sent).toHaveLength(3))
    act(() => release())
    const keys = (asked.sent as { idempotency_key: string }[]).map((sent) => sent.idempotency_key)
    expect(keys[2]).toBe(keys[1])
    await waitFor(() => expect(items().at(-1)!.id).toBe('mensagem-31'))
  })
})
