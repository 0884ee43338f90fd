import { describe, expect, test } from 'vitest'
import { errorCode, messageForFailure, parseErrorBody } from './errors'

describe('messageForFailure', () => {
  test.each([
    [401, 'errors.unauthorized'],
    [403, 'errors.forbidden'],
    [404, 'errors.notFound'],
    [500, 'errors.server'],
  ])('status %i maps to %s', (status, key) => {
    expect(messageForFailure({ kind: 'http', status })).toEqual({ key })
  })

  test('400 shows the server detail when there is one', () => {
    expect(messageForFailure({ kind: 'http', status: 400, detail: 'Bad date' })).toEqual({ text: 'Bad date' })
    expect(messageForFailure({ kind: 'http', status: 400 })).toEqual({ key: 'errors.badRequest' })
  })

  test('other statuses name the status and the message', () => {
    expect(messageForFailure({ kind: 'http', status: 409, detail: 'Taken' })).toEqual({
      key: 'errors.otherStatus',
      values: { status: 409, message: 'Taken' },
    })
    expect(messageForFailure({ kind: 'http', status: 503 })).toEqual({
      key: 'errors.otherStatus',
      values: { status: 503, message: 'Service Unavailable' },
    })
  })

  test('no response is a network error, with its own text during a refresh', () => {
    expect(messageForFailure({ kind: 'network' })).toEqual({ key: 'errors.network' })
    expect(messageForFailure({ kind: 'network', during: 'refresh' })).toEqual({ key: 'errors.networkRefresh' })
  })

  test('429 says when to try again: seconds up to a minute and a half, then whole minutes', () => {
    expect(messageForFailure({ kind: 'http', status: 429, retryAfterSeconds: 42 })).toEqual({
      key: 'errors.tooManyRequests',
      values: { count: 42 },
    })
    expect(messageForFailure({ kind: 'http', status: 429, retryAfterSeconds: 1800 })).toEqual({
      key: 'errors.tooManyRequestsMinutes',
      values: { count: 30 },
    })
    expect(messageForFailure({ kind: 'http', status: 429, retryAfterSeconds: 91 })).toEqual({
      key: 'errors.tooManyRequestsMinutes',
      values: { count: 2 },
    })
  })
})

describe('parseErrorBody', () => {
  test('reads detail and field errors', () => {
    expect(parseErrorBody({ detail: 'Nope', code: 'x' })).toEqual({ detail: 'Nope' })
    expect(parseErrorBody({ email: ['Taken'], password: 'Too short' })).toEqual({
      fieldErrors: { email: ['Taken'], password: ['Too short'] },
    })
  })
  test('a field named message keeps its errors; a message text is the detail', () => {
    expect(parseErrorBody({ message: ['Too short.'] })).toEqual({ fieldErrors: { message: ['Too short.'] } })
    expect(parseErrorBody({ success: false, message: 'Google authentication failed' })).toEqual({ detail: 'Google authentication failed' })
  })
  test('nested field errors become dotted keys', () => {
    expect(parseErrorBody({ answers: { sono_duration: ['This question needs an answer.'] } })).toEqual({
      fieldErrors: { 'answers.sono_duration': ['This question needs an answer.'] },
    })
  })
  test('ignores bodies that are not objects', () => {
    expect(parseErrorBody('<html>')).toEqual({})
    expect(parseErrorBody(null)).toEqual({})
    expect(parseErrorBody([1])).toEqual({})
  })
})

describe('errorCode', () => {
  test('the machine-readable code beside the detail, when it is a short word', () => {
    expect(errorCode({ detail: 'Calendar não está conectado', code: 'calendar_not_connected' })).toBe('calendar_not_connected')
    expect(errorCode({ detail: 'Nope' })).toBeUndefined()
    expect(errorCode({ code: 'not a code <script>' })).toBeUndefined()
    expect(errorCode({ code: 42 })).toBeUndefined()
    expect(errorCode('<html>')).toBeUndefined()
    expect(errorCode(null)).toBeUndefined()
  })
})
