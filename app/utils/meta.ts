import { type MetaDescriptor } from '@remix-run/node'

/** Title and description of a page, computed in its loader (translated) and read by its meta export. */
type PageMeta = { title: string; description: string }

export function pageMeta(meta: PageMeta | undefined): MetaDescriptor[] {
  if (!meta) return [{ title: 'Innera' }]
  return [
    { title: meta.title },
    { name: 'description', content: meta.description },
    { property: 'og:title', content: meta.title },
    { property: 'og:description', content: meta.description },
  ]
}
