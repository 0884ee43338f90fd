import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, test } from 'vitest'

/**
 * The direction of app/'s imports is a lint rule (eslint.config.js, decision 0041): `npm run lint`
 * fails on an import that points up a layer or out of app/, however it is written (`#app/*`, a
 * relative path, a re-export, a dynamic import()). Each case is linted as a file at that path, with
 * the repository's own configuration.
 */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') })

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message)
}

describe('an import up a layer fails the lint', () => {
  test.each([
    ['app/provider/contact.server.ts', "import { getSession } from '#app/session/session.server.ts'\nexport const read = getSession"],
    ['app/domain/legal.ts', "import { consentFor } from '../utils/consent.ts'\nexport const consent = consentFor"],
    ['app/utils/toast-more.ts', "export { ToastRegion } from '#app/ui/toast.tsx'"],
    ['app/i18n/later.ts', "export const load = () => import('#app/domain/habits.ts')"],
    ['app/forms/popup.server.ts', "import { type PopupState } from '#app/ui/calendar-popup.ts'\nexport type State = PopupState"],
    ['app/env.server.ts', "import { links } from './root.tsx'\nexport const root = links"],
    // features/ (decision 0083): under ui/ and routes/, above forms/.
    ['app/features/habits/x.server.ts', "import { TodayHabits } from '#app/ui/habits/today-habits.tsx'\nexport const today = TodayHabits"],
    ['app/features/cart/x.server.ts', "import { loader } from '#app/routes/dashboard/dashboard.server.ts'\nexport const dashboard = loader"],
    ['app/forms/x.ts', "import { trackAction } from '../features/habits/habits.server.ts'\nexport const track = trackAction"],
  ])('%s: %s', async (filePath, code) => {
    const [error, ...rest] = await boundaryErrors(filePath, code)
    expect(rest).toEqual([])
    expect(error).toMatch(new RegExp(`^${filePath} may not import '[^']+': app/'s imports point down its layers \\(routes > ui > .* > i18n > env, styles, locales\\)`))
  })
})

describe('and so does one out of app/ or into a test', () => {
  test.each([
    ['app/provider/x.server.ts', "import { config } from '#server/config.ts'\nexport const c = config", /never out of them/],
    ['app/ui/x.tsx', "import { providerMock } from '#tests/mocks/provider.ts'\nexport const m = providerMock", /never out of them/],
    ['app/utils/x.ts', "import { describe } from './consent.test.ts'\nexport const d = describe", /nothing in app\/ imports a test/],
  ])('%s: %s', async (filePath, code, reason) => {
    const errors = await boundaryErrors(filePath, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(reason)
  })
})

describe('imports down the layers, or within one, pass', () => {
  test.each([
    [
      'app/routes/x.tsx',
      [
        "import { ToastRegion } from '#app/ui/toast.tsx'",
        "import { contactSchema } from '#app/forms/contact-form.ts'",
        "import { requireUser } from '../session/auth.server.ts'",
        "import { safeRedirect } from '#app/utils/safe-redirect.ts'",
        "import { errorResponseFor } from '#app/provider/responses.server.ts'",
        "import { getEnv } from '../env.server.ts'",
        "import { data } from '@remix-run/node'",
        'export const all = [ToastRegion, contactSchema, requireUser, safeRedirect, errorResponseFor, getEnv, data]',
      ].join('\n'),
    ],
    ['app/provider/x.server.ts', "import { ProviderError } from './errors.ts'\nimport { contactSubjects } from '#app/domain/contact-limits.ts'\nexport const all = [ProviderError, contactSubjects]"],
    ['app/i18n/x.server.ts', "import type legal from '../../locales/pt/legal.json'\nimport { getEnv } from '#app/env.server.ts'\nexport const env = getEnv\nexport type Legal = typeof legal"],
    ['app/root.tsx', "import styles from './styles/tailwind.css?url'\nimport { handleError } from './entry.server.tsx'\nexport const all = [styles, handleError]"],
    // A folder route and its server half beside it, a feature's code, the types ui/ draws (decision 0083).
    [
      'app/routes/dashboard/route.tsx',
      "import { loader } from './dashboard.server.ts'\nimport { trackAction } from '#app/features/habits/habits.server.ts'\nimport { TodayHabits } from '#app/ui/habits/today-habits.tsx'\nexport const all = [loader, trackAction, TodayHabits]",
    ],
    ['app/ui/habits/x.tsx', "import type { TodayHabitsView } from '#app/features/habits/habit-views.server.ts'\nexport type View = TodayHabitsView"],
    [
      'app/features/purchases/x.server.ts',
      "import { cartAction } from '../cart/cart.server.ts'\nimport { trackSchema } from '#app/forms/habit-forms.ts'\nimport { replyToFailure } from '#app/utils/provider-reply.server.ts'\nexport const all = [cartAction, trackSchema, replyToFailure]",
    ],
  ])('%s', async (filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([])
  })

  test('a test may import any layer: it builds what it checks', async () => {
    expect(await boundaryErrors('app/domain/x.test.ts', "import { getSchedule } from '#app/provider/schedule.server.ts'\nexport const s = getSchedule")).toEqual([])
  })
})
