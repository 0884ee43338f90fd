import { describe, expect, test } from 'vitest'
import { defaultRouteFor, hasRole, isNewGoogleUser, roleFromGroups } from './roles'

describe('roleFromGroups', () => {
  test('maps groups ignoring case', () => {
    expect(roleFromGroups(['Admin'])).toBe('admin')
    expect(roleFromGroups(['PROFISSIONAL'])).toBe('profissional')
    expect(roleFromGroups(['paciente'])).toBe('paciente')
  })
  test('the first recognised group wins', () => {
    expect(roleFromGroups(['staff', 'profissional', 'admin'])).toBe('profissional')
  })
  test('defaults to paciente', () => {
    expect(roleFromGroups([])).toBe('paciente')
    expect(roleFromGroups(['staff'])).toBe('paciente')
    expect(roleFromGroups(undefined)).toBe('paciente')
  })
})

describe('hasRole', () => {
  test('takes one role or a list', () => {
    expect(hasRole(['admin'], 'admin')).toBe(true)
    expect(hasRole(['paciente'], 'admin')).toBe(false)
    expect(hasRole(['Profissional'], ['admin', 'profissional'])).toBe(true)
    expect(hasRole([], ['admin', 'profissional'])).toBe(false)
  })
})

test('each role lands on its default route', () => {
  expect(defaultRouteFor('admin')).toBe('/admin/dashboard')
  expect(defaultRouteFor('profissional')).toBe('/dashboard')
  expect(defaultRouteFor('paciente')).toBe('/dashboard')
})

test('a Google user is new with exactly one group, paciente', () => {
  expect(isNewGoogleUser(['paciente'])).toBe(true)
  expect(isNewGoogleUser(['Paciente'])).toBe(true)
  expect(isNewGoogleUser(['paciente', 'profissional'])).toBe(false)
  expect(isNewGoogleUser([])).toBe(false)
  expect(isNewGoogleUser(['admin'])).toBe(false)
})
