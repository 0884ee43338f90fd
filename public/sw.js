/*
 * Innera's service worker (issue 44, decision 0087): it only shows the push notifications of
 * messages waiting and opens the conversation on a click. A push says who wrote and links the
 * conversation, never the message's text. Nothing is cached here, and no request goes through it.
 */
self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    data = {}
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Innera'
  const body = typeof data.body === 'string' && data.body ? data.body : 'Você tem uma nova mensagem na Innera'
  // Only a conversation of this site is opened, whatever the push says.
  let path = '/mensagens'
  try {
    const url = new URL(typeof data.url === 'string' ? data.url : '/mensagens', self.location.origin)
    if (url.origin === self.location.origin && /^\/mensagens(\/\d+)?$/.test(url.pathname)) path = url.pathname
  } catch {
    path = '/mensagens'
  }
  const tag = typeof data.tag === 'string' && data.tag ? data.tag : undefined
  event.waitUntil(self.registration.showNotification(title, { body, tag, renotify: Boolean(tag), data: { path } }))
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const path = (event.notification.data && event.notification.data.path) || '/mensagens'
  const target = new URL(path, self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === target && 'focus' in client) return client.focus()
      }
      return self.clients.openWindow(target)
    }),
  )
})
