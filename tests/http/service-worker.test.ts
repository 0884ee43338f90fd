import { readFileSync } from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { describe, expect, test } from 'vitest'

/**
 * public/sw.js (decision 0087), run in a stand-in of the browser's service worker scope: the
 * browsers here cannot show a notification, so its two handlers are driven by hand. A push shows
 * what the provider sent (who wrote, never the text) and keeps the conversation's path; a click
 * focuses a window already on it, or opens one, and never leaves the site.
 */
const source = readFileSync(path.join(import.meta.dirname, '../../public/sw.js'), 'utf8')
const ORIGIN = 'https://innera.example'

type Listener = (event: Record<string, unknown>) => void
type Shown = { title: string; options: { body: string; tag?: string; renotify: boolean; data: { path: string } } }

function worker(windows: { url: string; focused?: boolean }[] = []) {
  const listeners = new Map<string, Listener>()
  const shown: Shown[] = []
  const opened: string[] = []
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    registration: { showNotification: async (title: string, options: Shown['options']) => void shown.push({ title, options }) },
    clients: {
      matchAll: async () => windows.map((window) => ({ url: window.url, focus: async () => void (window.focused = true) })),
      openWindow: async (url: string) => void opened.push(url),
    },
  }
  vm.runInNewContext(source, { self, URL })
  const fire = async (type: string, event: Record<string, unknown>) => {
    let waited: Promise<unknown> = Promise.resolve()
    listeners.get(type)!({ ...event, waitUntil: (promise: Promise<unknown>) => (waited = promise) })
    await waited
  }
  return {
    shown,
    opened,
    push: (data: unknown) => fire('push', { data: data === undefined ? null : { json: () => (typeof data === 'string' ? JSON.parse(data) : data) } }),
    click: (data: unknown) => fire('notificationclick', { notification: { data, close: () => undefined } }),
  }
}

describe('the service worker', () => {
  test("a push shows the provider's words and keeps the conversation's path", async () => {
    const sw = worker()
    await sw.push({ title: 'Innera', body: 'Você tem uma nova mensagem de Paula na Innera', url: `${ORIGIN}/mensagens/12`, tag: 'conversation-12' })
    expect(sw.shown).toEqual([{ title: 'Innera', options: { body: 'Você tem uma nova mensagem de Paula na Innera', tag: 'conversation-12', renotify: true, data: { path: '/mensagens/12' } } }])
  })

  test('a push without data, or with a link elsewhere, shows the plain words and the messages page', async () => {
    const sw = worker()
    await sw.push(undefined)
    await sw.push({ title: '', body: 42, url: 'https://evil.example/mensagens/1' })
    await sw.push({ url: '/configuracoes' })
    expect(sw.shown.map((shown) => [shown.title, shown.options.body, shown.options.data.path, shown.options.tag])).toEqual([
      ['Innera', 'Você tem uma nova mensagem na Innera', '/mensagens', undefined],
      ['Innera', 'Você tem uma nova mensagem na Innera', '/mensagens', undefined],
      ['Innera', 'Você tem uma nova mensagem na Innera', '/mensagens', undefined],
    ])
  })

  test('a click focuses the window already on the conversation, else opens it on this site', async () => {
    const windows = [{ url: `${ORIGIN}/dashboard` }, { url: `${ORIGIN}/mensagens/12` } as { url: string; focused?: boolean }]
    const open = worker(windows)
    await open.click({ path: '/mensagens/12' })
    expect(windows[1]!.focused).toBe(true)
    expect(open.opened).toEqual([])
    const closed = worker([{ url: `${ORIGIN}/dashboard` }])
    await closed.click({ path: '/mensagens/7' })
    await closed.click(undefined)
    expect(closed.opened).toEqual([`${ORIGIN}/mensagens/7`, `${ORIGIN}/mensagens`])
  })
})
