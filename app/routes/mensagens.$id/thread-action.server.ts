import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { deleteMessageSchema, sendMessageSchema } from '#app/forms/message-form.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { ProviderError } from '#app/provider/errors.ts'
import { deleteMessage, sendMessage } from '#app/provider/messages.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { failureText } from '#app/utils/messages.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { MEMBERS, conversationIdOf } from './thread-page.server.ts'

/** The provider's refusals of a text (blank, too long, a NUL) in the user's language. */
const textProblems = (messages: string[]) => messages.map((message) => (/4[,.]?000|no more than|long/i.test(message) ? 'messages:thread.tooLong' : 'messages:thread.required'))

/**
 * The thread's forms, without JavaScript: `send` posts the message and comes back to the thread,
 * where it shows (no toast); a refusal (the form's rules, throttling with its wait, a closed
 * conversation, the provider down or slow) draws the page again with what was typed and its key,
 * so sending it again is the same message. `delete` empties one's own message.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: MEMBERS })
  const id = conversationIdOf(params)
  const form = await readFormData(request)
  const thread = `/mensagens/${id}`
  if (form.get('intent') === 'delete') {
    const parsed = deleteMessageSchema.safeParse(Object.fromEntries(form))
    if (!parsed.success) throw data({ reason: 'bad-request' }, { status: 400 })
    try {
      await deleteMessage(auth, id, parsed.data.message)
    } catch (error) {
      const t = await getFixedT(request, ['messages', 'common'])
      const text = error instanceof ProviderError && error.status === 400 ? t('thread.deleteFailed') : failureText(t, error)
      return redirectWithToast(thread, { type: 'error', message: { text } })
    }
    return redirectWithToast(thread, { type: 'success', message: { key: 'messages:thread.deleted' } })
  }
  const submission = parseWithZod(form, { schema: sendMessageSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  try {
    const sent = await sendMessage(auth, id, { text: submission.value.text, idempotency_key: submission.value.idempotency_key })
    return redirect(`${thread}#mensagem-${sent.id}`)
  } catch (error) {
    const t = await getFixedT(request, ['messages', 'common'])
    if (error instanceof ProviderError && error.code === 'conversation_closed') {
      return data({ result: submission.reply({ formErrors: [t('thread.closedError')] }) }, { status: 400 })
    }
    const { result, init } = replyToFailure(submission, error, t, { fields: { text: { field: 'text', messages: textProblems } } })
    return data({ result }, init)
  }
}
