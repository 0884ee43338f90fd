import { describe, expect, it } from 'vitest'
import { compilePath, RouteTable } from '#server/http/route-table.ts'

describe('compilePath', () => {
  it('matches parameters and honours their constraints', () => {
    const pattern = compilePath('/users/:id{[0-9]+}/')
    expect(pattern.test('/users/12/')).toBe(true)
    expect(pattern.test('/users/me/')).toBe(false)
    expect(pattern.test('/users/12')).toBe(false)
  })

  it('escapes literal characters', () => {
    expect(compilePath('/fake-google/.well-known/openid-configuration').test('/fake-google/x.well-known/openid-configuration')).toBe(false)
  })
})

describe('RouteTable', () => {
  it('collects methods across handlers of the same path', () => {
    const table = new RouteTable()
    table.add('/users/profile/update/', ['PUT'])
    table.add('/users/profile/update/', ['PATCH'])
    expect(table.allowedMethods('/users/profile/update/')?.sort()).toEqual(['OPTIONS', 'PATCH', 'PUT'])
  })

  it('adds HEAD to GET paths and knows unknown paths', () => {
    const table = new RouteTable()
    table.add('/pillars/:id/', ['GET'])
    expect(table.allowedMethods('/pillars/sono/')).toEqual(['GET', 'HEAD', 'OPTIONS'])
    expect(table.allowedMethods('/nothing/')).toBeUndefined()
  })
})
