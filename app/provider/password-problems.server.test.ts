import { describe, expect, test } from 'vitest'
import { PASSWORD_MESSAGES } from '#server/auth/password-messages.ts'
import { passwordProblemKey, translatePasswordProblems } from './password-problems.server'

describe('password problems', () => {
  test('every message the embedded provider can answer has a translation', () => {
    for (const message of Object.values(PASSWORD_MESSAGES)) expect(passwordProblemKey(message), message).toBeDefined()
  })

  test('known messages are translated, unknown ones shown as written', () => {
    const t = (key: string) => `«${key}»`
    expect(translatePasswordProblems(t, [PASSWORD_MESSAGES.tooCommon, 'Something new.'])).toEqual(['«password-rules:tooCommon»', 'Something new.'])
  })
})
