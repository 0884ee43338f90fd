import { describe, expect, it } from 'vitest'
import { LICENSES_FILE, legalCommentsFile, licensesText, takeLegalComments } from '../../scripts/lib/legal-comments.mjs'

const REACT = '/**\n * @license React\n * react.production.min.js\n */'
const REMIX = '/**\n * @remix-run/react v2.17.5\n *\n * @license MIT\n */'

type Bundle = Record<string, { type: string; code?: string }>
/** The plugin's two hooks, as Vite calls them for a client build or the server build. */
function pluginFor({ ssr }: { ssr: boolean }) {
  const plugin = legalCommentsFile() as unknown as { configResolved: (config: unknown) => void; generateBundle: (this: unknown, options: unknown, bundle: Bundle) => void }
  plugin.configResolved({ build: { ssr } })
  return (bundle: Bundle, emitFile: (file: { fileName: string; source: string }) => void) => plugin.generateBundle.call({ emitFile }, {}, bundle)
}

describe('the licence notices out of the scripts (decision 0093)', () => {
  it('takes the licence comments and leaves every other byte as it was', () => {
    const code = `${REACT}var a=!0;/* a note */const b="x";${REMIX}export{a,b};/*! kept by minifiers */`
    const taken = takeLegalComments(code)
    expect(taken.code).toBe('var a=!0;/* a note */const b="x";export{a,b};')
    expect(taken.notices).toEqual([REACT, REMIX, '/*! kept by minifiers */'])
  })

  it('leaves a text that only looks like a notice inside a string or a template', () => {
    const code = 'const s="/*! @license fake */",t=`/** @license also */`;export{s,t};'
    expect(takeLegalComments(code)).toEqual({ code, notices: [] })
  })

  it('writes each notice once, in the order first met', () => {
    expect(licensesText([REACT, REMIX, `  ${REACT}\n`])).toBe(`Licence notices of the third-party code in this site's scripts (2).\n\n${REACT}\n\n${REMIX}\n`)
  })

  it('in the client build, moves them into one file and names it in each script that had some', () => {
    const bundle: Bundle = {
      'assets/a.js': { type: 'chunk', code: `${REACT}export const a=1;` },
      'assets/b.js': { type: 'chunk', code: 'export const b=2;' },
      'assets/c.css': { type: 'asset' },
    }
    const emitted: { fileName: string; source: string }[] = []
    pluginFor({ ssr: false })(bundle, (file) => emitted.push(file))
    expect(bundle['assets/a.js']?.code).toBe(`/*! Licences: /${LICENSES_FILE} */\nexport const a=1;`)
    expect(bundle['assets/b.js']?.code).toBe('export const b=2;')
    expect(emitted).toEqual([{ type: 'asset', fileName: 'third-party-licenses.txt', source: licensesText([REACT]) }])
  })

  it('leaves the server build alone', () => {
    const bundle: Bundle = { 'index.js': { type: 'chunk', code: `${REACT}export const a=1;` } }
    pluginFor({ ssr: true })(bundle, () => expect.unreachable())
    expect(bundle['index.js']?.code).toBe(`${REACT}export const a=1;`)
  })
})
