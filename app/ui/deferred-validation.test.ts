// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useDeferredValidation } from './deferred-validation.ts'

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

describe('useDeferredValidation', () => {
  it('accepts everything until the schema is loaded, then validates with it', async () => {
    const { result } = renderHook(() => useDeferredValidation('login'))
    // Not loaded yet: the client lets the submission through and the server validates it.
    expect(result.current.onValidate({ formData: form({}) }).status).toBe('success')

    act(() => result.current.formProps.onFocus())
    // The first import transforms the schemas' modules: slow on a busy machine, so wait up to 10 s.
    await waitFor(() => expect(result.current.onValidate({ formData: form({}) }).status).toBe('error'), { timeout: 10_000 })
    const submission = result.current.onValidate({ formData: form({ email: 'not-an-email', password: 'x' }) })
    expect(submission.reply().error).toMatchObject({ email: ['errors.invalidEmail'] })
    expect(result.current.onValidate({ formData: form({ email: 'ana@example.com', password: 'x' }) }).status).toBe('success')
  })
})
