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
