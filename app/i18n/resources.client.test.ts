import { describe, expect, it } from 'vitest'
import { routeNamespaces } from './resources.client.ts'

describe('the namespaces a page loads before it hydrates', () => {
  it('are those its routes declare, once each, also as a function of a route’s loader data', () => {
    const modules = {
      root: { handle: undefined },
      'routes/dashboard': { handle: { i18n: (data: { role?: string } | undefined) => (data?.role === 'paciente' ? ['dashboard', 'habits'] : ['dashboard']) } },
      'routes/other': { handle: { i18n: ['dashboard', 'auth', 7] } },
    }
    expect(routeNamespaces(modules, { 'routes/dashboard': { role: 'paciente' } })).toEqual(['dashboard', 'habits', 'auth'])
    expect(routeNamespaces(modules, { 'routes/dashboard': { role: 'profissional' } })).toEqual(['dashboard', 'auth'])
    expect(routeNamespaces(modules)).toEqual(['dashboard', 'auth'])
  })
})
