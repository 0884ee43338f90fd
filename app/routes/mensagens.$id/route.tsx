import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { messageParts } from '#app/domain/message-text.ts'
import { ATTACHMENT_ACCEPT, MESSAGE_TEXT_MAX_LENGTH, type SendMessageInput } from '#app/forms/message-form.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { ErrorList, FormError, SubmitButton } from '#app/ui/forms.tsx'
import { PersonPhoto } from '#app/ui/person-photo.tsx'
import { pageMeta } from '#app/utils/meta.ts'
import { action } from './thread-action.server.ts'
import { loader } from './thread-page.server.ts'

export { action, loader }

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['messages'] }

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

type Thread = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['thread']>
type ThreadMessage = Thread['messages'][number]

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

type SendResult = NonNullable<ReturnType<typeof useActionData<typeof action>>>['result']

function SendForm({ idempotencyKey, lastResult }: { idempotencyKey: string; lastResult: SendResult | undefined }) {
  const { t } = useTranslation('messages')
  const [form, fields] = useForm<SendMessageInput>({ id: 'send-message', lastResult, defaultValue: { intent: 'send', idempotency_key: idempotencyKey } })
  const textProps = getTextareaProps(fields.text)
  const describedBy = [`${fields.text.id}-hint`, fields.text.errors?.length ? fields.text.errorId : null].filter(Boolean).join(' ')
  const filesId = `${form.id}-attachments`
  const filesErrors = lastResult?.error?.attachments
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-6 space-y-3 rounded-2xl bg-white p-4 shadow-sm">
      <FormError id={form.errorId} errors={form.errors} />
      <input {...getInputProps(fields.intent, { type: 'hidden' })} />
      <input {...getInputProps(fields.idempotency_key, { type: 'hidden' })} />
      <div>
        <label htmlFor={fields.text.id} className="block font-medium text-ink">
          {t('thread.label')}
        </label>
        <p id={`${fields.text.id}-hint`} className="text-sm text-muted">
          {t('thread.hint')}
        </p>
        <textarea
          {...textProps}
          maxLength={MESSAGE_TEXT_MAX_LENGTH}
          rows={4}
          aria-describedby={describedBy}
          className="mt-1 block w-full rounded-lg border border-gray-400 bg-white px-3 py-2 text-base text-ink aria-[invalid]:border-red-700"
        />
        <ErrorList id={fields.text.errorId} errors={fields.text.errors} />
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
    </Form>
  )
}

export default function ThreadPage() {
  const { id, thread, idempotencyKey } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()?.result
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
          <h1 className="min-w-0 break-words text-2xl font-bold sm:text-3xl">{thread ? t('thread.title', { name }) : t('list.title')}</h1>
        </div>
        <Link to={`${location.pathname}${location.search}`} className="btn-secondary">
          {t('thread.refresh')}
        </Link>
      </div>
      {thread ? (
        <>
          {thread.older ? (
            <p className="mt-6 text-center">
              <Link to={thread.older} className="link">
                {t('thread.older')}
              </Link>
            </p>
          ) : null}
          {thread.messages.length ? (
            <ol className="mt-6 space-y-3" data-testid="thread" aria-label={t('thread.title', { name })}>
              {thread.messages.map((message) => (
                <MessageItem key={message.id} message={message} otherName={name} />
              ))}
            </ol>
          ) : (
            <p className="mt-6 rounded-2xl bg-white p-6 text-muted">{t('thread.empty')}</p>
          )}
          {thread.closed ? (
            <p className="mt-6 rounded-2xl border-l-4 border-brand-700 bg-brand-50 p-4" data-testid="closed">
              {t('thread.closed')}
            </p>
          ) : (
            // A sent message comes back as a new page: the key remounts the form empty, with a new key.
            <SendForm key={lastResult ? 'result' : `${id}-${idempotencyKey}`} idempotencyKey={idempotencyKey} lastResult={lastResult} />
          )}
        </>
      ) : (
        <SendForm key="result" idempotencyKey={idempotencyKey} lastResult={lastResult} />
      )}
    </main>
  )
}
