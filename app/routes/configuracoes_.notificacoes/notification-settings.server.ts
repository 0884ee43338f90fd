import { parseWithZod } from '@conform-to/zod/v4'
import { type ActionFunctionArgs, type LoaderFunctionArgs, data } from '@remix-run/node'
import { timeZoneOr } from '#app/domain/appointments.ts'
import { notificationSettingsSchema } from '#app/forms/notification-settings.ts'
import { getFixedT } from '#app/i18n/i18next.server.ts'
import { getNotificationSettings, getVapidPublicKey, listPushSubscriptions, saveNotificationSettings } from '#app/provider/notifications.server.ts'
import { nullWhileResubmitting, orNull } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { replyToFailure } from '#app/utils/provider-reply.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'

/** Messages are between patients and professionals: so are their notifications (admins have none). */
export const MEMBERS = ['paciente', 'profissional'] as const
export const NOTIFICATIONS_PATH = '/configuracoes/notificacoes'
const PRIVATE = { 'Cache-Control': 'private, no-store' }

/**
 * The notification settings (`/configuracoes/notificacoes`, decisions 0085 and 0087): the channels
 * and quiet hours as saved, the user's time zone they are read in, how many browsers get pushes,
 * and the VAPID key the page's script subscribes this browser with. The count and the key are
 * extras: without them the page still works, with e-mail.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { auth, user } = await requireUser(request, { role: MEMBERS })
  const [t, settings, devices, vapidKey] = await Promise.all([
    getFixedT(request, 'notifications'),
    getNotificationSettings(auth).catch(nullWhileResubmitting),
    listPushSubscriptions(auth).catch(orNull),
    getVapidPublicKey(auth).catch(orNull),
  ])
  return data(
    {
      meta: { title: `${t('title')} · Innera`, description: t('lead') },
      settings,
      timeZone: timeZoneOr(user.time_zone),
      devices: devices?.count ?? null,
      vapidKey,
    },
    { headers: PRIVATE },
  )
}

/**
 * Saves the settings, without JavaScript: a checkbox left unticked is that channel off, empty
 * quiet hours are none. A refusal (the form's rules, or the provider's) or a provider failure
 * draws the page again with what was typed; a success comes back to the page with a toast.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { auth } = await requireUser(request, { role: MEMBERS })
  const submission = parseWithZod(await readFormData(request), { schema: notificationSettingsSchema })
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
  const { email, push, quiet_start, quiet_end } = submission.value
  try {
    await saveNotificationSettings(auth, { email, push, quiet_start: quiet_start ?? null, quiet_end: quiet_end ?? null })
  } catch (error) {
    const t = await getFixedT(request, ['notifications', 'common'])
    const timeProblem = () => [t('errors.time')]
    const { result, init } = replyToFailure(submission, error, t, {
      fields: { quiet_start: { field: 'quiet_start', messages: timeProblem }, quiet_end: { field: 'quiet_end', messages: timeProblem } },
    })
    return data({ result }, init)
  }
  return redirectWithToast(NOTIFICATIONS_PATH, { type: 'success', message: { key: 'notifications:saved' } })
}
