import { describe, expect, test } from 'vitest'
import { CONFIRM_FIELD, CONFIRM_VALUE, isConfirmed, stepOf, stepUrl } from './confirm-step.ts'

describe('the confirmation step', () => {
  test('acts only with the step’s own field', () => {
    const form = new FormData()
    form.set('intent', 'cancel')
    expect(isConfirmed(form)).toBe(false)
    form.set(CONFIRM_FIELD, 'yes')
    expect(isConfirmed(form)).toBe(false)
    form.set(CONFIRM_FIELD, CONFIRM_VALUE)
    expect(isConfirmed(form)).toBe(true)
  })

  test('a page knows only its own steps', () => {
    expect(stepOf('http://app.test/compras/7?confirmar=cancelar', ['cancelar'])).toBe('cancelar')
    expect(stepOf('http://app.test/compras/7?confirmar=outra', ['cancelar'])).toBeNull()
    expect(stepOf('http://app.test/compras/7', ['cancelar'])).toBeNull()
  })

  test('the step’s URL keeps what it needs and lands on the step', () => {
    expect(stepUrl('/configuracoes/privacidade', 'revogar', { profissional: '4' })).toBe('/configuracoes/privacidade?confirmar=revogar&profissional=4#confirmar')
  })
})
