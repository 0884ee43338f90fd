'use strict'
/**
 * ESLint's import resolver (the `import/resolver` interface, version 2) for this repository: Node's
 * own resolution from the importing file, so `#app/*`, `#server/*` and `#tests/*` (package.json
 * "imports") resolve as they do at run time, and so do relative paths. As TypeScript's "Bundler"
 * resolution and Vite do, a path without its extension finds its `.ts` or `.tsx` file, and Vite's
 * suffixes (`?url`, `?raw`) are dropped. eslint-plugin-boundaries reads it (eslint.config.js): its
 * default resolver, eslint-import-resolver-node, does not know package.json "imports".
 * CommonJS: eslint-module-utils loads resolvers with require().
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS module
const { createRequire, isBuiltin } = require('node:module')

exports.interfaceVersion = 2

/** @type {(source: string, file: string) => { found: boolean; path?: string | null }} */
exports.resolve = (source, file) => {
  const specifier = source.replace(/\?.*$/, '')
  if (isBuiltin(specifier)) return { found: true, path: null }
  const require = createRequire(file)
  const local = specifier.startsWith('.') || specifier.startsWith('#')
  for (const candidate of local ? [specifier, `${specifier}.ts`, `${specifier}.tsx`] : [specifier]) {
    try {
      return { found: true, path: require.resolve(candidate) }
    } catch {
      // the next candidate
    }
  }
  return { found: false }
}
