import type { Api } from '#server/http/api.ts'
import { escapeHtml, HTML_PAGE_HEADERS, htmlDocument, linkify } from '#server/http/html.ts'
import { clearMail, listMail, type OutboxEntry } from '#server/mail/outbox.ts'
import type { Services } from '#server/services.ts'

/**
 * The development mailbox: every message the provider "sent", newest first, as a page for
 * people and as JSON for tests. Mounted only when DEV_MAILBOX is on.
 */
export function registerDevMailboxRoutes(api: Api, { db, background }: Services): void {
  api.endpoint('/dev/mailbox/', {
    GET: async (c) => {
      // Mail is queued after the response (background.ts): show what the requests so far sent.
      await background.idle()
      const messages = await listMail(db, { to: c.req.query('to') || undefined })
      return c.body(renderMailbox(messages), 200, HTML_PAGE_HEADERS)
    },
  })

  api.endpoint('/dev/mailbox/messages/', {
    GET: async (c) => {
      await background.idle()
      return c.json({ results: await listMail(db, { to: c.req.query('to') || undefined }) })
    },
    DELETE: async (c) => {
      await clearMail(db)
      return c.body(null, 204)
    },
  })
}

/** "sent 2026-03-02 12:00:05 UTC", "failed after 3 attempts: EENVELOPE 550: …", "not sent (no SMTP_URL) or waiting". */
function deliveryLine({ status, sent_at, failed_at, attempts, last_error }: OutboxEntry['delivery']): string {
  const time = (iso: string) => `${iso.replace('T', ' ').slice(0, 19)} UTC`
  if (status === 'sent' && sent_at) return `sent ${time(sent_at)}`
  if (status === 'failed' && failed_at) return `failed ${time(failed_at)} after ${attempts} attempt${attempts === 1 ? '' : 's'}${last_error ? `: ${last_error}` : ''}`
  return attempts > 0 ? `waiting to retry (${attempts} attempt${attempts === 1 ? '' : 's'}${last_error ? `: ${last_error}` : ''})` : 'not sent through SMTP (SMTP_URL unset) or waiting'
}

function renderMailbox(messages: OutboxEntry[]): string {
  const items = messages
    .map(
      (message) => `<li>
  <article aria-labelledby="message-${message.id}">
    <h2 id="message-${message.id}" lang="pt-BR">${escapeHtml(message.subject)}</h2>
    <dl>
      <dt>To</dt><dd>${escapeHtml(message.to)}</dd>
      <dt>Date</dt><dd><time datetime="${message.created_at}">${escapeHtml(message.created_at.replace('T', ' ').slice(0, 19))} UTC</time></dd>
      <dt>Delivery</dt><dd>${escapeHtml(deliveryLine(message.delivery))}</dd>
    </dl>
    <pre lang="pt-BR">${linkify(message.text)}</pre>
  </article>
</li>`,
    )
    .join('\n')
  const body = `<main>
  <h1>Development mailbox</h1>
  <p>E-mails the provider sent or would have sent (with SMTP_URL set, each also says how its delivery went), newest first. ${messages.length} message${messages.length === 1 ? '' : 's'}.</p>
  ${messages.length === 0 ? '<p>No messages yet.</p>' : `<ol reversed style="list-style: none; padding: 0">\n${items}\n</ol>`}
</main>`
  const styles = `
  article { border: 1px solid GrayText; border-radius: 0.5rem; padding: 1rem; margin: 1rem 0; }
  h2 { font-size: 1.1rem; margin: 0 0 0.5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
  dt { font-weight: 600; }
  dd { margin: 0; }`
  return htmlDocument({ title: 'Development mailbox', body, styles })
}
