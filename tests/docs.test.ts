import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'

/**
 * The project's Markdown documents link each other by relative path (README.md, server/README.md,
 * docs/, bench/HISTORY.md): every such link must name a file or folder that exists, and a
 * `#fragment` a heading of the file it names, as GitHub makes the anchors.
 */
const root = path.resolve(import.meta.dirname, '..')

function markdownFiles(): string[] {
  const files = ['README.md', 'server/README.md', 'bench/HISTORY.md']
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(relative)
      else if (entry.name.endsWith('.md')) files.push(relative)
    }
  }
  walk('docs')
  return files
}

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line)
    if (!heading) continue
    const anchor = anchorOf(heading[1]!)
    const count = seen.get(anchor) ?? 0
    seen.set(anchor, count + 1)
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`)
  }
  return anchors
}

/** The relative links of a Markdown file, outside code: `[text](target)`. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`]+`/g, '')
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target))
}

describe('the documents', () => {
  test('every relative link names a file that exists, and every fragment one of its headings', () => {
    const broken: string[] = []
    for (const file of markdownFiles()) {
      const from = path.join(root, file)
      for (const link of linksOf(from)) {
        const [target = '', fragment] = link.split('#')
        const resolved = target === '' ? from : path.resolve(path.dirname(from), decodeURIComponent(target))
        if (!existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`)
        else if (fragment && statSync(resolved).isFile() && !anchorsOf(resolved).has(fragment)) broken.push(`${file}: ${link} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
  })

  test('the README reads in five minutes: at most 250 lines (issue 43)', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(250)
  })

  test('every variable the app and the provider read is in .env.example and docs/configuration.md', () => {
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
    // The app's zod object keys its variables; the provider names each in a quoted string to its reader.
    const app = [...read('app/env.server.ts').matchAll(/^\s+([A-Z][A-Z0-9_]{3,}):/gm)].map((match) => match[1]!)
    const provider = [...read('server/config.ts').matchAll(/'([A-Z][A-Z0-9_]{3,})'/g)].map((match) => match[1]!)
    const variables = new Set([...app, ...provider])
    expect(variables.size).toBeGreaterThan(60)
    const example = new Set([...read('.env.example').matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!))
    const documented = new Set([...read('docs/configuration.md').matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((match) => match[1]!))
    expect([...variables].filter((name) => !example.has(name))).toEqual([])
    expect([...variables].filter((name) => !documented.has(name))).toEqual([])
  })
})
