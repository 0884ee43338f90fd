import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { threadMessageView } from '#app/features/messages/thread-view.server.ts'
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, VIA_FETCHER } from '#app/domain/message-limits.ts'
import { deleteMessageSchema, readMessagesSchema, sendMessageSchema, sendMessageWithFilesSchema } from '#app/forms/message-form.ts'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { deleteMessage, markRead, sendMessage } from '#app/provider/messages.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { MEMBERS, conversationIdOf } from './thread-page.server.ts'

/** The provider's refusals of a message's files (decision 0086), by code: the reason's key under `attachments`. */
const ATTACHMENT_REASONS: Record<string, string> = {
  attachment_too_large: 'tooLarge',
  attachment_empty: 'empty',
  attachment_type: 'type',
  attachment_unreadable: 'unreadable',
  too_many_attachments: 'tooMany',
  attachment_daily_limit: 'daily',
  attachment_storage_full: 'storage',
}

/** A form's files: what a file input sent, an untouched input (a nameless, empty part) left out. */
const filesOf = (form: FormData, name: string) => form.getAll(name).filter((value): value is File => typeof value !== 'string' && (value.size > 0 || value.name !== ''))

/** The form without its files: what is parsed, and what comes back into the page on a refusal. */
function textOnly(form: FormData): FormData {
  const copy = new FormData()
  for (const [name, value] of form) if (typeof value === 'string') copy.append(name, value)
  return copy
}

/** The provider's refusals of a text (blank, too long, a NUL) in the user's language. */
const textProblems = (messages: string[]) => messages.map((message) => (/4[,.]?000|no more than|long/i.test(message) ? 'messages:thread.tooLong' : 'messages:thread.required'))

/**
 * The thread's forms, without JavaScript: `send` posts the message and comes back to the thread,
 * where it shows (no toast); a refusal (the form's rules, throttling with its wait, a closed
 * conversation, the provider down or slow) draws the page again with what was typed and its key,
 * so sending it again is the same message. Its files (decision 0086) go as multipart; a refused
 * file is named with the reason, the text kept. `delete` empties one's own message.
 *
 * With JavaScript (decision 0088) a send carries `via=fetcher` and is answered with the message as
 * the page draws it (`{sent}`) instead of the redirect, its refusals as without; `read` moves the
 * reader's mark as live messages are seen (`{readUpTo}`, or `{readFailed}` with the status).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: MEMBERS })
  const id = conversationIdOf(params)
  const form = await readFormData(request)
  const thread = `/mensagens/${id}`
  if (form.get('intent') === 'read') {
    const parsed = readMessagesSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) return data({ readFailed: true }, { status: 400 })
    try {
      return data({ readUpTo: (await markRead(auth, id, parsed.data.up_to)).read_up_to })
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error
      return data({ readFailed: true }, { status: error.isNetwork ? 503 : (error.status ?? 502) >= 500 ? 502 : (error.status ?? 502) })
    }
  }
  if (form.get('intent') === 'delete') {
    const parsed = deleteMessageSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw data({ reason: 'bad-request' }, { status: 400 })
    try {
      await deleteMessage(auth, id, parsed.data.message)
    } catch (error) {
      const t = await getFixedT(request, ['message-replies', 'common'])
      const text = error instanceof ProviderError && error.status === 400 ? t('thread.deleteFailed') : failureText(t, error)
      return redirectWithToast(thread, { type: 'error', message: { text } })
    }
    return redirectWithToast(thread, { type: 'success', message: { key: 'message-replies:thread.deleted' } })
  }
  const files = filesOf(form, 'attachments')
  const submission = parseWithZod(textOnly(form), { schema: files.length > 0 ? sendMessageWithFilesSchema : sendMessageSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  // A refusal of the files keeps the text; the browser cannot put files back into the input, so it says which to choose again.
  const refuseFiles = async (status: number, reason: string, file?: File) => {
    const t = await getFixedT(request, ['message-replies', 'common'])
    const why = t(`attachments.${reason}`)
    return data({ result: submission.reply({ fieldErrors: { attachments: [file ? t('attachments.fileProblem', { name: file.name, reason: why }) : why, t('attachments.chooseAgain')] } }) }, { status })
  }
  // Said here before anything goes to the provider, which checks the same again (and reads the types from the bytes).
  if (files.length > MAX_ATTACHMENTS) return refuseFiles(422, 'tooMany')
  const oversized = files.find((file) => file.size > MAX_ATTACHMENT_BYTES)
  if (oversized) return refuseFiles(413, 'tooLarge', oversized)
  try {
    const sent = await sendMessage(auth, id, { text: submission.value.text, idempotency_key: submission.value.idempotency_key }, files)
    if (form.get('via') === VIA_FETCHER) return data({ sent: threadMessageView(sent, timeZoneOr(user.time_zone), await languageOf(request)) }, { status: 201 })
    return redirect(`${thread}#mensagem-${sent.id}`)
  } catch (error) {
    const t = await getFixedT(request, ['message-replies', 'common'])
    if (error instanceof ProviderError && error.code === 'conversation_closed') {
      return data({ result: submission.reply({ formErrors: [t('thread.closedError')] }) }, { status: 400 })
    }
    const reason = error instanceof ProviderError && error.code ? ATTACHMENT_REASONS[error.code] : undefined
    if (error instanceof ProviderError && reason) {
      const index = error.failure.kind === 'http' ? error.failure.attachmentIndex : undefined
      return refuseFiles(error.status ?? 422, reason, index === undefined ? undefined : files[index])
    }
    const { result, init } = replyToFailure(submission, error, t, { fields: { text: { field: 'text', messages: textProblems } } })
    return data({ result }, init)
  }
}
