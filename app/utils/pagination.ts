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
