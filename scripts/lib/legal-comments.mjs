/**
 * The licence notices of the libraries in the browser's scripts (React's, React Router's, Remix's
 * `@license` comments: about 0.55 KB gzipped on every first load, decision 0093) leave the scripts
 * for one file the site serves, `/third-party-licenses.txt`, each notice once; every
 * script that had some names that file in a one-line comment, so the notices travel with the code.
 * The scripts keep the hashed names the build gave them: what they hold now is a function of the
 * content those names were computed from, so a name still changes exactly when its content does.
 */
import { parse } from 'acorn'

/** The file the notices go to, at the site's root (no hash: its address is stable, cached an hour as the public files are). */
export const LICENSES_FILE = 'third-party-licenses.txt'

/** A licence notice as minifiers keep them: a block comment with `@license` or `@preserve`, or one opening with `/*!`. */
const isNotice = (text) => text.startsWith('!') || /@license|@preserve/i.test(text)

/**
 * A minified script without its licence comments, and the comments taken out, in order. The script
 * is parsed (acorn) to find its comments, so a comment-like text inside a string stays; everything
 * but the comments is kept byte for byte.
 * @param {string} code
 * @returns {{ code: string, notices: string[] }}
 */
export function takeLegalComments(code) {
  const ranges = []
  parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onComment: (block, text, start, end) => {
      if (block && isNotice(text)) ranges.push([start, end])
    },
  })
  let out = ''
  let from = 0
  for (const [start, end] of ranges) {
    out += code.slice(from, start)
    from = end
  }
  return { code: out + code.slice(from), notices: ranges.map(([start, end]) => code.slice(start, end)) }
}

/** The file's text: one notice per distinct text, in the order first met. */
export function licensesText(notices) {
  const unique = [...new Set(notices.map((notice) => notice.trim()))]
  return `Licence notices of the third-party code in this site's scripts (${unique.length}).\n\n${unique.join('\n\n')}\n`
}

/**
 * Vite plugin: in the client build only, once the chunks are final (generateBundle comes after
 * minification), moves the notices out of every script into LICENSES_FILE.
 * @returns {import('vite').Plugin}
 */
export function legalCommentsFile() {
  let ssr = false
  return {
    name: 'innera:legal-comments-file',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      ssr = Boolean(config.build.ssr)
    },
    generateBundle(_options, bundle) {
      if (ssr) return
      const notices = []
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        const taken = takeLegalComments(chunk.code)
        if (taken.notices.length === 0) continue
        notices.push(...taken.notices)
        chunk.code = `/*! Licences: /${LICENSES_FILE} */\n${taken.code}`
      }
      if (notices.length > 0) this.emitFile({ type: 'asset', fileName: LICENSES_FILE, source: licensesText(notices) })
    },
  }
}
