import { readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { roles } from '#app/session/roles.ts'
import { memberNavigation, memberNavigationLabelKey } from './member-navigation'

/**
 * The URL a flat route file serves (dots are slashes, a trailing `_` only nests differently); a
 * folder route (`<route>/route.tsx`) is named by its folder (decision 0083).
 */
function routePaths() {
  const dir = path.resolve(import.meta.dirname, '../routes')
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => (entry.isDirectory() ? readdirSync(path.join(dir, entry.name)).includes('route.tsx') : entry.name.endsWith('.tsx')))
    .map((entry) => `/${entry.name.replace(/\.tsx$/, '').split('.').filter((part) => part !== '_index').map((part) => part.replace(/_$/, '')).join('/')}`)
}

describe('member navigation', () => {
  test('each role gets its own areas, the default landing first', () => {
    expect(memberNavigation('paciente').map((item) => item.to)).toEqual(['/dashboard', '/avaliacao', '/meu-programa', '/habitos', '/cursos', '/aulas-ao-vivo', '/consultas', '/mensagens', '/solucoes'])
    expect(memberNavigation('profissional').map((item) => item.to)).toEqual(['/dashboard', '/profissional/pacientes', '/mensagens', '/profissional/avaliacoes', '/agenda/disponibilidade', '/agenda/calendario', '/cursos', '/aulas-ao-vivo'])
    expect(memberNavigation('admin').map((item) => item.to)).toEqual(['/admin/dashboard', '/admin/users', '/admin/content', '/admin/purchases', '/consultas', '/admin/messages', '/admin/audit'])
  })

  test('every entry is a page that exists: no dead links', () => {
    const pages = new Set(routePaths())
    for (const role of roles) for (const item of memberNavigation(role)) expect(pages, `${role}: ${item.to}`).toContain(item.to)
  })

  test('admins are told it is the administration', () => {
    expect(memberNavigationLabelKey('admin')).toBe('memberNav.labelAdmin')
    expect(memberNavigationLabelKey('paciente')).toBe('memberNav.label')
  })
})
