import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, test } from 'vitest'

/** `npm run lint` fails on an import of app/ from server/ (eslint.config.js): the two halves stand apart. */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') })

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

describe('server/ never imports app/', () => {
  test.each([
    ['server/purchases/x.ts', "import { quantityAllowed } from '#app/domain/product-types.ts'\nexport const q = quantityAllowed"],
    ['server/mail/x.ts', "import { formatDateAndTime } from '../../app/domain/viewer-times.ts'\nexport const f = formatDateAndTime"],
  ])('%s: %s', async (filePath, code) => {
    expect(await restricted(filePath, code)).toEqual([expect.stringMatching(/server\/ never imports app\//)])
  })

  test('its own modules pass, and a test may read the app', async () => {
    expect(await restricted('server/mail/x.ts', "import { zoneOr } from '#server/zones.ts'\nexport const z = zoneOr")).toEqual([])
    expect(await restricted('server/mail/x.test.ts', "import { legalDocuments } from '#app/i18n/legal-documents.ts'\nexport const l = legalDocuments")).toEqual([])
  })
})

/** `npm run lint` fails on an import up server/'s layers or across one (eslint.config.js, decision 0082), however it is written. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((message) => message.ruleId === 'boundaries/dependencies').map((message) => message.message)
}

describe("server/'s imports point down its layers", () => {
  test.each([
    ['server/purchases/x.ts', "import { movePurchase } from '#server/billing/transitions.ts'\nexport const m = movePurchase"],
    ['server/purchases/x.ts', "import { releaseHeldAppointment } from '../appointments/holds.ts'\nexport const r = releaseHeldAppointment"],
    ['server/users/x.ts', "export { cancelPurchase } from '#server/billing/cancellation.ts'"],
    ['server/db/x.ts', "export const later = () => import('#server/zones.ts')"],
    ['server/routes/x.ts', "import { registerFakes } from '#server/fakes/register.ts'\nexport const f = registerFakes"],
    ['server/billing/x.ts', "import { bookAppointment } from '#server/booking/book.ts'\nexport const b = bookAppointment"],
    ['server/jobs.ts', "import { createProviderApp } from '#server/app.ts'\nexport const a = createProviderApp"],
  ])('up: %s: %s', async (filePath, code) => {
    expect(await layerErrors(filePath, code)).toEqual([expect.stringMatching(new RegExp(`^${filePath} may not import '[^']+': server/'s imports point down its layers \\(main.ts, testing > app.ts > .* > background.ts`))])
  })

  test('across one layer: two of its folders never import each other', async () => {
    expect(await layerErrors('server/appointments/x.ts', "import { termOf } from '#server/subscriptions/periods.ts'\nexport const t = termOf")).toHaveLength(1)
    expect(await layerErrors('server/log.ts', "import { loadConfig } from '#server/config.ts'\nexport const c = loadConfig")).toHaveLength(1)
  })

  test('down, within a folder, and any type pass', async () => {
    const code = [
      "import { movePurchase } from './transitions.ts'",
      "import { lockPurchase } from '#server/purchases/repository.ts'",
      "import { jsonLogger } from '#server/log.ts'",
      "import type { Fakes } from '#server/fakes/register.ts'",
      'export const used = [movePurchase, lockPurchase, jsonLogger]',
      'export type F = Fakes',
    ].join('\n')
    expect(await layerErrors('server/billing/x.ts', code)).toEqual([])
    expect(await layerErrors('server/app.ts', "import { registerFakes } from '#server/fakes/register.ts'\nexport const f = registerFakes")).toEqual([])
  })
})
