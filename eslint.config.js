import js from '@eslint/js'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/**
 * The app's layers, top to bottom (decision 0041): a file of app/ imports files of its own layer or
 * of a layer below it, never one above, and nothing outside app/ and locales/ (not server/, not
 * tests/) nor a test. A layer is folders, or files directly in app/ (`app` below). Tests are not
 * held to it: a test may build what it checks from any layer.
 */
const layers = [
  { name: 'routes', folders: ['app/routes'], files: ['root.tsx', 'entry.client.tsx', 'entry.server.tsx', 'routes.ts'] },
  { name: 'ui', folders: ['app/ui'] },
  // A feature's server code that several routes (or ui/'s types) share; a route's own server half sits beside it (decision 0083).
  { name: 'features', folders: ['app/features'] },
  { name: 'forms', folders: ['app/forms'] },
  { name: 'session', folders: ['app/session'] },
  { name: 'utils', folders: ['app/utils'] },
  { name: 'provider', folders: ['app/provider'] },
  { name: 'http', folders: ['app/http'] },
  { name: 'domain', folders: ['app/domain'] },
  { name: 'i18n', folders: ['app/i18n'] },
  { name: 'env, styles, locales', folders: ['app/styles', 'locales'], files: ['env.server.ts'] },
]
/** A layer as eslint-plugin-boundaries' element selectors: its folders, and its files directly in app/. */
const selectorsOf = (layer) => [
  ...layer.folders.map((folder) => ({ type: folder })),
  ...(layer.files ? [{ type: 'app', fileInternalPath: layer.files }] : []),
]

/**
 * The provider's layers, top to bottom (issue 43, decision 0082): a file of server/ imports its own
 * folder (or file) and what lies in a layer below, never one above nor a neighbour of its own
 * layer, so no two of its folders import each other. Type-only imports are free (services.ts is
 * the types' hub). The fakes are mounted by app.ts alone; the test support (testing/) uses them.
 */
const serverLayers = [
  ['server/main.ts', 'server/testing'],
  ['server/app.ts'],
  ['server/fakes', 'server/jobs.ts', 'server/routes', 'server/seed'],
  ['server/booking', 'server/privacy', 'server/professionals'],
  ['server/billing', 'server/messages'],
  ['server/appointments', 'server/subscriptions'],
  ['server/purchases'],
  ['server/courses', 'server/live-classes', 'server/products', 'server/questionnaire'],
  ['server/contact', 'server/content', 'server/users'],
  ['server/audit', 'server/habits'],
  ['server/admin', 'server/auth', 'server/calendar', 'server/mail', 'server/push', 'server/stripe', 'server/zones.ts'],
  ['server/backup', 'server/carts', 'server/dates.ts', 'server/http'],
  ['server/background.ts', 'server/clock.ts', 'server/config.ts', 'server/db', 'server/google', 'server/log.ts', 'server/media', 'server/person-names.ts', 'server/services.ts', 'server/zoom', 'server/drizzle.config.ts'],
  // Prometheus' series and their port: prom-client and nothing of the provider's own (decision 0089).
  ['server/metrics'],
]
/** A unit as an element selector: a folder is an element; a file directly in server/ is the `server` element's file. */
const serverSelector = (unit) => (unit.endsWith('.ts') ? { type: 'server', fileInternalPath: unit.replace('server/', '') } : { type: unit })
const serverFolders = serverLayers.flat().filter((unit) => !unit.endsWith('.ts'))

/** Resolves `#app/*` and `#server/*` (package.json "imports") as Node does; the boundaries plugin's default resolver does not. */
const importResolver = { [`${import.meta.dirname}/scripts/lint/import-resolver.cjs`]: {} }

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'bench/results/', '.tmp/', 'server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // The direction of app/'s imports (decision 0041).
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': importResolver,
      'boundaries/elements': [
        ...layers.flatMap((layer) => layer.folders).map((folder) => ({ type: folder, pattern: folder, partialMatch: false })),
        // app/'s own files: after its folders, as the first pattern that matches a file names its element.
        { type: 'app', pattern: 'app', partialMatch: false },
      ],
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          // Also between two files of one element (app/'s own files), and to local files of no layer.
          checkInternals: true,
          checkUnknownLocals: true,
          message: `{{from.file.path}} may not import '{{dependency.source}}': app/'s imports point down its layers (${layers.map((layer) => layer.name).join(' > ')}), never out of them (decision 0041)`,
          policies: [
            ...layers.map((layer, index) => ({
              from: { element: selectorsOf(layer) },
              allow: { to: { element: layers.slice(index).flatMap(selectorsOf) } },
            })),
            { disallow: { to: { file: { categories: 'test' } } }, message: "{{from.file.path}} may not import '{{dependency.source}}': nothing in app/ imports a test (decision 0041)" },
          ],
        },
      ],
    },
  },
  {
    // The provider stands apart from the app (the app is a client of its API): nothing in server/
    // imports app/ (issue 43; its tests may, to check what both halves read). `\\#`: a pattern's
    // leading # would be a comment.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['\\#app/*', '**/app/*'], message: 'server/ never imports app/: the provider owns its rules, and its API tells the app what it needs.' }] }],
    },
  },
  {
    // The direction of server/'s imports (issue 43): layers, no arrow up, no two folders of one layer tied.
    files: ['server/**/*.ts'],
    ignores: ['server/**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': importResolver,
      'boundaries/elements': [...serverFolders.map((folder) => ({ type: folder, pattern: folder, partialMatch: false })), { type: 'server', pattern: 'server', partialMatch: false }],
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.ts' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          checkInternals: true,
          checkUnknownLocals: true,
          message: `{{from.file.path}} may not import '{{dependency.source}}': server/'s imports point down its layers (${serverLayers.map((layer) => layer.map((unit) => unit.replace('server/', '')).join(', ')).join(' > ')}), never up nor across one (issue 43)`,
          policies: [
            ...serverLayers.flatMap((layer, index) =>
              layer.map((unit) => ({ from: { element: serverSelector(unit) }, allow: { to: { element: [serverSelector(unit), ...serverLayers.slice(index + 1).flat().map(serverSelector)] } } })),
            ),
            { from: { element: serverLayers.flat().map(serverSelector) }, allow: { dependency: { kind: 'type' } } },
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's.
    files: ['e2e/**'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
)
