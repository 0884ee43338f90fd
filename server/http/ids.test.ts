import { describe, expect, it } from 'vitest'
import { ApiError } from '#server/http/errors.ts'
import { checkId, MAX_ID, pathId } from '#server/http/ids.ts'

describe('checkId', () => {
  it('accepts integers and digit strings from 1 to the PostgreSQL integer maximum', () => {
    expect(checkId(1)).toEqual({ id: 1 })
    expect(checkId(' 42 ')).toEqual({ id: 42 })
    expect(checkId('+7')).toEqual({ id: 7 })
    expect(checkId('0002147483647')).toEqual({ id: MAX_ID })
  })

  it('names what is wrong with anything else', () => {
    expect(checkId('2147483648')).toEqual({ problem: 'too-large' })
    expect(checkId(2 ** 53)).toEqual({ problem: 'too-large' })
    expect(checkId('9'.repeat(100_000))).toEqual({ problem: 'too-large' })
    expect(checkId(0)).toEqual({ problem: 'too-small' })
    expect(checkId('-1')).toEqual({ problem: 'too-small' })
    expect(checkId('-0')).toEqual({ problem: 'too-small' })
    expect(checkId('1.5')).toEqual({ problem: 'not-integer' })
    expect(checkId(1.5)).toEqual({ problem: 'not-integer' })
    expect(checkId('')).toEqual({ problem: 'not-integer' })
    expect(checkId(true)).toEqual({ problem: 'not-integer' })
  })
})

describe('pathId', () => {
  it('is a 400 with a detail for an id no row can have', () => {
    expect(pathId('12')).toBe(12)
    for (const bad of ['2147483648', '0', undefined]) {
      try {
        pathId(bad)
        throw new Error('expected a 400')
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError)
        expect((error as ApiError).status).toBe(400)
        expect((error as ApiError).body).toEqual({ detail: 'Invalid id. Ids are integers from 1 to 2147483647.' })
      }
    }
  })
})
