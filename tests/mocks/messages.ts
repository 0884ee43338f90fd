import { http, HttpResponse } from 'msw'
import { providerMock, providerUrl } from './provider.ts'
import { demoPatient, demoProfessional } from './session.ts'

/**
 * The messages API of decision 0085 as the app's tests see it: Pedro (the demo patient) and Paula
 * (the demo professional) in conversation 5, and handlers that record what the app sent.
 */

export const paula = { id: demoProfessional.id, first_name: 'Paula', last_name: 'Ribeiro', photo: null }

export function conversation(overrides: Record<string, unknown> = {}) {
  return {
    id: 5,
    role: 'patient',
    other: paula,
    closed: false,
    closed_at: null,
    muted: false,
    created_at: '2026-11-20T10:00:00.000Z',
    last_message_at: '2026-11-30T12:00:00.000Z',
    ...overrides,
  }
}

export function conversationItem(overrides: Record<string, unknown> = {}) {
  return {
    ...conversation(),
    unread_count: 2,
    last_message: { id: 12, preview: 'Bom dia, Pedro! Como foi a semana?', deleted: false, mine: false, sent_at: '2026-11-30T12:00:00.000Z' },
    ...overrides,
  }
}

export function message(overrides: Record<string, unknown> = {}) {
  return {
    id: 12,
    conversation_id: 5,
    mine: false,
    sender_id: demoProfessional.id,
    text: 'Bom dia, Pedro! Como foi a semana?',
    sent_at: '2026-11-30T12:00:00.000Z',
    deleted: false,
    removed_by_admins: false,
    read: false,
    can_delete: false,
    attachments: [],
    ...overrides,
  }
}

/** A file of a message as the provider lists it, with a link signed for the viewer. */
export function attachment(overrides: Record<string, unknown> = {}) {
  return {
    id: 31,
    name: 'pressão.jpg',
    content_type: 'image/jpeg',
    size: 240 * 1024,
    width: 800,
    height: 600,
    url: `${providerUrl('/media/messages/31/3')}?expires=1796000000&signature=${'ab'.repeat(32)}`,
    expires_at: '2026-11-30T12:35:00.000Z',
    ...overrides,
  }
}

export const mine = (overrides: Record<string, unknown> = {}) => message({ id: 11, mine: true, sender_id: demoPatient.id, text: 'Oi, Paula.\nDormi melhor: https://example.org/sono.', sent_at: '2026-11-30T11:00:00.000Z', read: true, can_delete: true, ...overrides })

type Answer = (request: Request) => Response | Promise<Response>
type Asked = { list: URLSearchParams[]; start: unknown[]; thread: URLSearchParams[]; sent: unknown[]; read: unknown[]; deleted: string[]; unread: number }

/** The messages endpoints; each answer can be replaced, and what the app asked is recorded. */
export function messagesProvider(answers: Partial<Record<'list' | 'start' | 'thread' | 'send' | 'read' | 'delete' | 'unread', Answer>> = {}) {
  const asked: Asked = { list: [], start: [], thread: [], sent: [], read: [], deleted: [], unread: 0 }
  providerMock.use(
    http.get(providerUrl('/messages/conversations/'), ({ request }) => {
      asked.list.push(new URL(request.url).searchParams)
      return answers.list ? answers.list(request) : HttpResponse.json({ count: 1, next: null, previous: null, results: [conversationItem()] })
    }),
    http.post(providerUrl('/messages/conversations/'), async ({ request }) => {
      asked.start.push(await request.clone().json())
      return answers.start ? answers.start(request) : HttpResponse.json(conversation(), { status: 201 })
    }),
    http.get(providerUrl('/messages/unread/'), ({ request }) => {
      asked.unread += 1
      return answers.unread ? answers.unread(request) : HttpResponse.json({ unread: 2 })
    }),
    http.get(providerUrl('/messages/conversations/:id/'), ({ request }) => {
      asked.thread.push(new URL(request.url).searchParams)
      return answers.thread ? answers.thread(request) : HttpResponse.json({ conversation: conversation(), messages: [mine(), message()], older: 3 })
    }),
    http.post(providerUrl('/messages/conversations/:id/messages/'), async ({ request }) => {
      // JSON, or multipart with its files (decision 0086), recorded as their names, types and sizes.
      let body: Record<string, unknown>
      if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
        const form = await request.clone().formData()
        const files = form.getAll('attachments').filter((value): value is File => typeof value !== 'string')
        body = { text: form.get('text'), idempotency_key: form.get('idempotency_key'), attachments: files.map((file) => ({ name: file.name, type: file.type, size: file.size })) }
      } else body = (await request.clone().json()) as Record<string, unknown>
      asked.sent.push(body)
      return answers.send ? answers.send(request) : HttpResponse.json(mine({ id: 13, text: body.text, read: false }), { status: 201 })
    }),
    http.post(providerUrl('/messages/conversations/:id/read/'), async ({ request }) => {
      const body = (await request.clone().json()) as { up_to: number }
      asked.read.push(body)
      return answers.read ? answers.read(request) : HttpResponse.json({ read_up_to: body.up_to })
    }),
    http.post(providerUrl('/messages/conversations/:id/messages/:message/delete/'), ({ request, params }) => {
      asked.deleted.push(String(params.message))
      return answers.delete ? answers.delete(request) : HttpResponse.json(mine({ text: '', deleted: true, can_delete: false }))
    }),
  )
  return asked
}
