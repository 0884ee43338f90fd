import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * Each route declares the translation namespaces its components use (`handle.i18n`), so the
 * browser loads them before hydrating and only them (a page that forgot one would still work, a
 * moment later: the component waits for the chunk). Read from the sources: the route file and the
 * app modules it imports, transitively (server-only modules aside): useTranslation('ns'),
 * t(key, { ns: 'ns' }) and keys written 'ns:key' (client-side validation messages are such keys).
 */
const appDir = path.resolve(import.meta.dirname, '../../app')
const known = readdirSync(path.resolve(appDir, '../locales/pt')).map((name) => name.replace(/\.json$/, ''))

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith('#app/') ? path.join(appDir, specifier.slice('#app/'.length)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null
  if (!base) return null
  return [base, `${base}.tsx`, `${base}.ts`].find((file) => /\.tsx?$/.test(file) && existsSync(file)) ?? null
}

function namespacesUsed(file: string, seen = new Set<string>()): Set<string> {
  const used = new Set<string>()
  if (seen.has(file) || /\.server\.tsx?$/.test(file)) return used
  seen.add(file)
  const source = readFileSync(file, 'utf8')
  for (const [, single, list] of source.matchAll(/useTranslation\(\s*(?:'([a-z-]+)'|\[([^\]]*)\])?/g)) {
    if (single) used.add(single)
    else if (list) for (const [, namespace] of list.matchAll(/'([a-z-]+)'/g)) used.add(namespace!)
    else used.add('common')
  }
  for (const [, namespace] of source.matchAll(/\bns: '([a-z-]+)'/g)) used.add(namespace!)
  // Keys written with their namespace ('auth:login.title'), wherever they are used.
  for (const [, namespace] of source.matchAll(/['`"]([a-z]+(?:-[a-z]+)*):[a-zA-Z]/g)) if (known.includes(namespace!)) used.add(namespace!)
  const specifiers = [
    ...[...source.matchAll(/^import\s+[^'"]*from\s+'([^']+)'/gm)].filter(([statement]) => !/^import\s+type\b/.test(statement)).map(([, specifier]) => specifier!),
    // Components loaded with React's lazy() are part of the page too (other dynamic imports, such as
    // the deferred form validation, load after hydration by design).
    ...[...source.matchAll(/\blazy\(\s*\(\)\s*=>\s*import\(\s*'([^']+)'\s*\)/g)].map(([, specifier]) => specifier!),
  ]
  for (const specifier of specifiers) {
    const imported = resolveImport(file, specifier)
    if (imported) for (const namespace of namespacesUsed(imported, seen)) used.add(namespace)
  }
  return used
}

/** The list of `handle.i18n`, or every namespace its function can answer (e.g. by role). */
function declared(file: string): string[] {
  const match = /^export const handle = \{ i18n: (.+) \}$/m.exec(readFileSync(file, 'utf8'))
  return match ? [...new Set([...match[1]!.matchAll(/'([a-z-]+)'/g)].map(([, namespace]) => namespace!))].filter((namespace) => known.includes(namespace)) : []
}

// Routes that render (a default export); resource routes have nothing to translate in the browser.
// A route is a file of routes/, or a folder's route.tsx (its other files are its parts, decision 0083).
const routes = readdirSync(path.join(appDir, 'routes'), { withFileTypes: true })
  .map((entry) => (entry.isDirectory() ? `${entry.name}/route.tsx` : entry.name))
  .filter((name) => name.endsWith('.tsx') && !name.includes('.test.') && existsSync(path.join(appDir, 'routes', name)) && /^export default /m.test(readFileSync(path.join(appDir, 'routes', name), 'utf8')))

describe('route translation namespaces', () => {
  test.each(routes)('%s declares the namespaces it uses, and no others', (name) => {
    const file = path.join(appDir, 'routes', name)
    const used = [...namespacesUsed(file)].filter((namespace) => namespace !== 'common').sort()
    expect(declared(file).sort()).toEqual(used)
  })

  test('the root uses only common (loaded on every page)', () => {
    expect([...namespacesUsed(path.join(appDir, 'root.tsx'))]).toEqual(['common'])
  })

  test('the scan sees through imports (the sign-in forms live in app/ui/auth) and t(key, { ns })', () => {
    expect(namespacesUsed(path.join(appDir, 'routes/auth_.reset.$uid.$token.tsx'))).toContain('auth')
    expect(namespacesUsed(path.join(appDir, 'routes/profissional.pacientes.tsx'))).toContain('assessment')
  })
})
