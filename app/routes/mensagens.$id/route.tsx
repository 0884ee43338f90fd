import type { SubmissionResult } from '@conform-to/react'
import { type MetaFunction } from '@remix-run/node'
import { Form, Link, type ShouldRevalidateFunction, useActionData, useFetcher, useLoaderData, useLocation, useSubmit } from '@remix-run/react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { type PendingMessage, type ThreadMessageView } from '#app/domain/live-thread.ts'
import { messageParts } from '#app/domain/message-text.ts'
import { ATTACHMENT_ACCEPT, MESSAGE_TEXT_MAX_LENGTH, VIA_FETCHER } from '#app/domain/message-limits.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { type LiveConnection, newMessageKey, useLiveThread } from '#app/ui/messages/use-live-thread.ts'
import { PersonPhoto } from '#app/ui/person-photo.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { action } from './thread-action.server.ts'
import { loader } from './thread-page.server.ts'

export { action, loader }

/**
 * The page's script reads and sends without the page's loader (decision 0088): a read mark or a
 * send it made itself brings nothing the live thread has not; anything else (a delete, "Atualizar")
 * loads the thread again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  if (formData?.get('intent') === 'read' || formData?.get('via') === VIA_FETCHER) return false
  return defaultShouldRevalidate
}

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['messages'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

type ThreadMessage = ThreadMessageView

/** A message's text as written: line breaks kept, addresses as links, nothing else interpreted. */
function MessageText({ text }: { text: string }) {
  return (
    <p className="whitespace-pre-wrap break-words">
      {messageParts(text).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} className="link" rel="noopener noreferrer nofollow ugc" target="_blank">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  )
}

/** A message's files (decision 0086): images as thumbnails that open the photo, PDFs as links with their name and size. */
function Attachments({ attachments }: { attachments: ThreadMessage['attachments'] }) {
  const { t } = useTranslation('messages')
  if (attachments.length === 0) return null
  return (
    <ul className="mt-2 flex flex-wrap gap-2" aria-label={t('attachments.listLabel')}>
      {attachments.map((attachment) => (
        <li key={attachment.id} className="min-w-0 max-w-full">
          {attachment.image ? (
            <a href={attachment.url} target="_blank" rel="noopener" className="block" aria-label={t('attachments.openImage', { name: attachment.name, size: attachment.size })}>
              <img src={attachment.url} alt={t('attachments.imageAlt', { name: attachment.name })} width={attachment.width ?? undefined} height={attachment.height ?? undefined} loading="lazy" className="h-28 w-auto max-w-full rounded-lg object-cover" />
            </a>
          ) : (
            <a href={attachment.url} download={attachment.name} className="link inline-flex max-w-full items-center gap-1 break-all" data-testid="attachment-pdf">
              {t('attachments.pdf', { name: attachment.name, size: attachment.size })}
            </a>
          )}
        </li>
      ))}
    </ul>
  )
}

function MessageItem({ message, otherName }: { message: ThreadMessage; otherName: string }) {
  const { t } = useTranslation('messages')
  const sender = message.mine ? t('thread.you') : otherName
  return (
    <li id={`mensagem-${message.id}`} className={`flex ${message.mine ? 'justify-end' : 'justify-start'}`}>
      <article className={`max-w-[85%] rounded-2xl p-3 shadow-sm ${message.mine ? 'bg-brand-50' : 'bg-white'}`} aria-label={`${sender}, ${message.when}`}>
        <p className="text-sm text-muted">
          <span className="font-semibold text-ink">{sender}</span> ·{' '}
          <time dateTime={message.at}>{message.when}</time>
        </p>
        {message.deleted ? (
          <p className="italic text-muted">{message.removed ? t('removedMessage') : t('deletedMessage')}</p>
        ) : (
          <>
            {message.text ? <MessageText text={message.text} /> : null}
            <Attachments attachments={message.attachments} />
          </>
        )}
        {message.read || message.canDelete ? (
          <div className="mt-1 flex items-center justify-end gap-3 text-sm text-muted">
            {message.read ? <span data-testid="read">{t('thread.read')}</span> : null}
            {message.canDelete ? (
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="message" value={message.id} />
                <button type="submit" className="link" aria-label={t('thread.deleteLabel', { when: message.when })}>
                  {t('thread.delete')}
                </button>
              </Form>
            ) : null}
          </div>
        ) : null}
      </article>
    </li>
  )
}

type SendResult = Extract<NonNullable<ReturnType<typeof useActionData<typeof action>>>, { result: unknown }>['result']

/** What a send made by the page's script was answered: the message, or the refusal with what was typed. */
type FetcherSendAnswer = { sent?: ThreadMessageView; result?: SubmissionResult<string[]> }

/** A refused send, back in the form: the text, its key (sent again it is the same message) and the reasons. */
type Refusal = { text: string; key: string; formErrors: string[]; textErrors: string[]; filesErrors: string[] }

/**
 * A message typed and on its way (JavaScript on): drawn at once, marked as sending; its fetcher's
 * answer replaces it with the message, or takes it away and puts the text back with the reason.
 */
function PendingItem({ message, onSettled }: { message: PendingMessage; onSettled: (message: PendingMessage, answer: FetcherSendAnswer) => void }) {
  const { t } = useTranslation('messages')
  const fetcher = useFetcher<FetcherSendAnswer>({ key: `send-${message.key}` })
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined
  useEffect(() => {
    if (answer) onSettled(message, answer)
  }, [answer, message, onSettled])
  return (
    <li className="flex justify-end" data-testid="pending-message" aria-busy="true">
      <article className="max-w-[85%] rounded-2xl border border-dashed border-brand-700 bg-brand-50 p-3 opacity-75 shadow-sm" aria-label={`${t('thread.you')}, ${t('live.pending')}`}>
        <p className="text-sm text-muted">
          <span className="font-semibold text-ink">{t('thread.you')}</span> · {t('live.pending')}
        </p>
        {message.text.trim() ? <MessageText text={message.text.trim()} /> : null}
        {message.files ? <p className="mt-1 text-sm text-muted">{t('attachments.preview', { count: message.files })}</p> : null}
      </article>
    </li>
  )
}

/** The send form's id; its fields' ids and error ids follow it as conform's do (`send-message-text-error`). */
const SEND_FORM = 'send-message'

/**
 * The send form. No browser validation runs here (the server judges a message, decision 0088), so
 * it reads the server's answer itself instead of through conform's useForm, which would put about
 * 10 KiB of gzipped script on the page's first load for it: the same ids, names, errors, the
 * submitted values back in the fields, and noValidate (as conform's form: the server's messages,
 * never the browser's).
 */
function SendForm({ idempotencyKey, lastResult, onSend, refusal, status }: { idempotencyKey: string; lastResult: SendResult | undefined; onSend?: (text: string, key: string, files: File[]) => void; refusal?: Refusal | null; status?: string }) {
  const { t } = useTranslation('messages')
  const form = useRef<HTMLFormElement>(null)
  const textarea = useRef<HTMLTextAreaElement>(null)
  const submitted = lastResult?.initialValue as Record<string, unknown> | undefined
  const valueOf = (name: string, fallback: string) => (typeof submitted?.[name] === 'string' ? submitted[name] : fallback)
  const errors = lastResult?.error ?? {}
  const formErrorId = `${SEND_FORM}-error`
  const textId = `${SEND_FORM}-text`
  const textErrorId = `${textId}-error`
  const formErrors = refusal ? refusal.formErrors : (errors[''] ?? undefined)
  const textErrors = refusal ? refusal.textErrors : (errors.text ?? undefined)
  const describedBy = [`${textId}-hint`, textErrors?.length ? textErrorId : null].filter(Boolean).join(' ')
  const filesId = `${SEND_FORM}-attachments`
  const filesErrors = refusal ? refusal.filesErrors : errors.attachments
  // A refusal that comes back to a form already on the page takes the focus to its first field in error.
  const shownResult = useRef(lastResult)
  useEffect(() => {
    if (!lastResult || lastResult === shownResult.current) return
    shownResult.current = lastResult
    if (lastResult.status !== 'error') return
    const inError = [...(form.current?.elements ?? [])].find((element) => 'name' in element && typeof element.name === 'string' && lastResult.error?.[element.name])
    if (inError instanceof HTMLElement) inError.focus()
  }, [lastResult])
  // A refused send puts its text back (before anything typed since, which stays).
  useEffect(() => {
    const field = textarea.current
    if (!refusal || !field) return
    field.value = field.value.trim() ? `${refusal.text}\n\n${field.value}` : refusal.text
    field.focus()
  }, [refusal])
  // With JavaScript the message goes by a fetcher and shows at once; without, the form posts.
  // Its files go along as multipart, and the input is emptied with the text (a refusal names them to choose again).
  const sendLive = (event: FormEvent<HTMLFormElement>) => {
    const field = textarea.current
    if (!onSend || !field) return
    event.preventDefault()
    const text = field.value
    const picker = event.currentTarget.elements.namedItem('attachments')
    const files = picker instanceof HTMLInputElement ? [...(picker.files ?? [])] : []
    const key = refusal && refusal.text === text ? refusal.key : newMessageKey()
    field.value = ''
    if (picker instanceof HTMLInputElement) picker.value = ''
    onSend(text, key, files)
  }
  return (
    <Form
      ref={form}
      id={SEND_FORM}
      method="post"
      encType="multipart/form-data"
      noValidate
      aria-describedby={errors[''] ? formErrorId : undefined}
      onSubmit={sendLive}
      className="mt-6 space-y-3 rounded-2xl bg-white p-4 shadow-sm"
    >
      <FormError id={formErrorId} errors={formErrors} />
      <input id={`${SEND_FORM}-intent`} name="intent" form={SEND_FORM} type="hidden" defaultValue={valueOf('intent', 'send')} />
      <input id={`${SEND_FORM}-idempotency_key`} name="idempotency_key" form={SEND_FORM} type="hidden" defaultValue={valueOf('idempotency_key', idempotencyKey)} />
      <div>
        <label htmlFor={textId} className="block font-medium text-ink">
          {t('thread.label')}
        </label>
        <p id={`${textId}-hint`} className="text-sm text-muted">
          {t('thread.hint')}
        </p>
        <textarea
          id={textId}
          name="text"
          form={SEND_FORM}
          defaultValue={valueOf('text', '') || undefined}
          ref={textarea}
          maxLength={MESSAGE_TEXT_MAX_LENGTH}
          rows={4}
          aria-invalid={textErrors?.length ? true : undefined}
          aria-describedby={describedBy}
          className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
        />
        <ErrorList id={textErrorId} errors={textErrors} />
      </div>
      <div>
        <label htmlFor={filesId} className="block font-medium text-ink">
          {t('attachments.label')}
        </label>
        <p id={`${filesId}-hint`} className="text-sm text-muted">
          {t('attachments.hint')}
        </p>
        <input
          id={filesId}
          name="attachments"
          type="file"
          multiple
          accept={ATTACHMENT_ACCEPT}
          aria-describedby={[`${filesId}-hint`, filesErrors?.length ? `${filesId}-error` : null].filter(Boolean).join(' ')}
          aria-invalid={filesErrors?.length ? true : undefined}
          className="mt-1 block w-full max-w-full text-base text-ink file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-ink"
        />
        <ErrorList id={`${filesId}-error`} errors={filesErrors} />
      </div>
      <SubmitButton className="btn-primary w-full sm:w-auto" pendingText={t('thread.sending')}>
        {t('thread.send')}
      </SubmitButton>
      {onSend ? (
        <p role="status" className="sr-only" data-testid="send-status">
          {status}
        </p>
      ) : null}
    </Form>
  )
}

/** Whether the live thread is down: said, with "Atualizar" as the way to see what came meanwhile. */
function ConnectionNote({ connection }: { connection: LiveConnection }) {
  const { t } = useTranslation('messages')
  return (
    <p role="status" className={connection === 'lost' ? 'mt-3 text-sm text-muted' : 'sr-only'} data-testid="live-status" data-connection={connection}>
      {connection === 'lost' ? t('live.lost') : ''}
    </p>
  )
}

/** True once the page runs in the browser. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

type LoadedThread = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['thread']>

/** The thread and its form: live with JavaScript (decision 0088), a plain page and a post without. */
function Thread({ id, thread, name, idempotencyKey, lastResult }: { id: number; thread: LoadedThread; name: string; idempotencyKey: string; lastResult: SendResult | undefined }) {
  const { t } = useTranslation('messages')
  const hydrated = useHydrated()
  const live = useLiveThread({ conversationId: id, initial: thread.messages, live: thread.live })
  const submit = useSubmit()
  const [refusal, setRefusal] = useState<Refusal | null>(null)
  const [sentAny, setSentAny] = useState(false)
  const { addPending, dropPending, receive } = live
  // Said to screen readers: on its way, then sent (also when the stream brought it before the answer).
  const status = live.pending.length ? t('live.pending') : sentAny && !refusal ? t('live.sent') : ''
  const onSend = (text: string, key: string, files: File[]) => {
    setRefusal(null)
    setSentAny(true)
    addPending({ key, text, at: new Date().toISOString(), files: files.length })
    const body = new FormData()
    for (const [name, value] of Object.entries({ intent: 'send', text, idempotency_key: key, via: VIA_FETCHER })) body.set(name, value)
    for (const file of files) body.append('attachments', file)
    submit(body, { method: 'post', encType: 'multipart/form-data', action: `/mensagens/${id}`, navigate: false, fetcherKey: `send-${key}`, preventScrollReset: true })
  }
  const onSettled = useRef((message: PendingMessage, answer: FetcherSendAnswer) => {
    dropPending(message.key)
    if (answer.sent) return receive([answer.sent])
    const errors = answer.result?.error ?? {}
    const formErrors = (errors[''] ?? []).filter(Boolean)
    const textErrors = (errors.text ?? []).filter(Boolean)
    const filesErrors = (errors.attachments ?? []).filter(Boolean)
    setRefusal({ text: message.text, key: message.key, formErrors: formErrors.length || textErrors.length || filesErrors.length ? formErrors : [t('live.failed')], textErrors, filesErrors })
  }).current
  const arrivedFirst = useRef(live.arrived)
  const arrivedText = live.arrived > arrivedFirst.current ? t('live.arrived', { count: live.arrived - arrivedFirst.current, name }) : ''
  return (
    <>
      {thread.older ? (
        <p className="mt-6 text-center">
          <Link to={thread.older} className="link">
            {t('thread.older')}
          </Link>
        </p>
      ) : null}
      {live.messages.length || live.pending.length ? (
        <ol className="mt-6 space-y-3" data-testid="thread" aria-label={t('thread.title', { name })}>
          {live.messages.map((message) => (
            <MessageItem key={message.id} message={message} otherName={name} />
          ))}
          {live.pending.map((message) => (
            <PendingItem key={message.key} message={message} onSettled={onSettled} />
          ))}
        </ol>
      ) : (
        <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('thread.empty')}</p>
      )}
      {thread.live && hydrated ? (
        <>
          <ConnectionNote connection={live.connection} />
          <p role="status" className="sr-only" data-testid="arrived-status">
            {arrivedText}
          </p>
        </>
      ) : null}
      {thread.closed ? (
        <p className="mt-6 rounded-2xl border-l-4 border-brand-700 bg-brand-50 p-4" data-testid="closed">
          {t('thread.closed')}
        </p>
      ) : (
        // A sent message comes back as a new page: the key remounts the form empty, with a new key.
        // A live page sends by fetcher with keys of its own: its form stays as it is (what is typed
        // survives a delete's reload).
        <SendForm
          key={lastResult ? 'result' : thread.live ? `${id}-live` : `${id}-${idempotencyKey}`}
          idempotencyKey={idempotencyKey}
          lastResult={lastResult}
          onSend={hydrated && thread.live ? onSend : undefined}
          refusal={refusal}
          status={status}
        />
      )}
    </>
  )
}

export default function ThreadPage() {
  const { id, thread, idempotencyKey } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined
  const location = useLocation()
  const { t } = useTranslation('messages')
  const name = thread ? thread.name || t('deletedAccount') : ''
  return (
    <main id="main" className="container-page py-10">
      <p>
        <Link to="/mensagens" className="link">
          {t('thread.back')}
        </Link>
      </p>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          {thread ? <PersonPhoto name={thread.name || '?'} photo={thread.photo} size="size-12" /> : null}
          <h1 className="min-w-0 break-words text-2xl font-bold sm:text-3xl">{thread ? t('thread.title', { name }) : t('common:memberNav.messages')}</h1>
        </div>
        <Link to={`${location.pathname}${location.search}`} className="btn-secondary">
          {t('thread.refresh')}
        </Link>
      </div>
      {thread ? (
        // Another conversation or an older page is another list: nothing of this one's carries over.
        <Thread key={`${id}${location.search}`} id={id} thread={thread} name={name} idempotencyKey={idempotencyKey} lastResult={lastResult} />
      ) : (
        <SendForm key="result" idempotencyKey={idempotencyKey} lastResult={lastResult} />
      )}
    </main>
  )
}
