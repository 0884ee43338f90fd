import { randomUUID } from 'node:crypto'
import { createCookieSessionStorage, redirect } from '@remix-run/node'
import { z } from 'zod'
import { getEnv } from '#app/env.server.ts'
import { type Toast, type ToastMessage } from './toast-message.ts'

const messageSchema = z.union([
  z.object({ key: z.string(), values: z.record(z.string(), z.union([z.string(), z.number()])).optional() }),
  z.object({ text: z.string() }),
])
const toastSchema = z.object({
  id: z.string(),
  type: z.enum(['info', 'success', 'error']),
  message: messageSchema,
  durationMs: z.number().optional(),
})

export type ToastInput = { type?: Toast['type']; message: ToastMessage; durationMs?: number }

const TOAST_KEY = 'toast' as const
let storage: ReturnType<typeof createCookieSessionStorage<Record<string, never>, { toast: Toast }>> | undefined
function toastStorage() {
  storage ??= createCookieSessionStorage<Record<string, never>, { toast: Toast }>({
    cookie: {
      name: 'innera_toast',
      sameSite: 'lax',
      path: '/',
      httpOnly: true,
      secure: getEnv().SESSION_COOKIE_SECURE,
      secrets: getEnv().SESSION_SECRET,
    },
  })
  return storage
}

/** The Set-Cookie that carries a toast to the next page (a session flash, so it works without JavaScript). */
export async function toastHeader(input: ToastInput): Promise<string> {
  const session = await toastStorage().getSession()
  const toast: Toast = { id: randomUUID(), type: input.type ?? 'info', message: input.message, durationMs: input.durationMs }
  session.flash(TOAST_KEY, toast)
  return toastStorage().commitSession(session)
}

export async function redirectWithToast(url: string, input: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', await toastHeader(input))
  return redirect(url, { ...init, status: init.status ?? 303, headers })
}

/** The flashed toast, if any, and the header that clears it. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  const cookie = request.headers.get('Cookie')
  if (!cookie?.includes('innera_toast=')) return { toast: null, headers: null }
  const session = await toastStorage().getSession(cookie)
  const parsed = toastSchema.safeParse(session.get(TOAST_KEY))
  const headers = new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) })
  return { toast: parsed.success ? parsed.data : null, headers }
}
