/** The highest page number a list page's URL may ask for: beyond every list's real length, and bounded. */
export const MAX_PAGE = 10_000

/**
 * A list page's `?page=`: a whole number from 1 to MAX_PAGE; anything else (junk, 0, -1, 1e9) is
 * the first page. No zod here: the pages' pagination links import this module in the browser.
 */
export function pageParam(url: URL, name = 'page'): number {
  const page = Number(url.searchParams.get(name) ?? 1)
  return Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page : 1
}

/** Page links for a page-number paginated list: which pages exist and where each link goes. */
export function pageInfo({ count, page, pageSize }: { count: number; page: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(count / pageSize))
  const current = Math.min(Math.max(1, page), pages)
  return {
    pages,
    current,
    previous: current > 1 ? current - 1 : null,
    next: current < pages ? current + 1 : null,
    first: count === 0 ? 0 : (current - 1) * pageSize + 1,
    last: Math.min(count, current * pageSize),
  }
}

export function withPage(search: string, page: number): string {
  const params = new URLSearchParams(search)
  if (page <= 1) params.delete('page')
  else params.set('page', String(page))
  const query = params.toString()
  return query ? `?${query}` : '?'
}
