import type { AppContext } from '#server/http/api.ts'
import { apiError } from '#server/http/errors.ts'

const DEFAULT_PAGE_SIZE = 20
/** What an answer that depends on who asks may be: kept by nobody, shown to nobody else. */
export const PRIVATE_NO_STORE = 'private, no-store'
const MAX_PAGE_SIZE = 100

export type Page = {
  limit: number
  offset: number
  /** DRF's PageNumberPagination body around the rows of this page. */
  envelope<T>(results: T[]): { count: number; next: string | null; previous: string | null; results: T[] }
}

/** A list's own page sizes, where the general ones do not fit it (the habits: one page holds every active habit). */
export type PageSizes = { defaultSize: number; maxSize: number }

/**
 * DRF's PageNumberPagination for a list of `total` rows: `?page=` (a number or "last"; past the
 * end is 404 "Invalid page.") and `?page_size=` (default 20, at most 100, or the list's own
 * sizes; a bad value means the default), with absolute next/previous links. The caller reads
 * only `limit` rows from `offset` (SQL LIMIT/OFFSET), so a page costs the same however long the list.
 * Every paged list is a signed-in caller's own (or an admin's): the answer is private, no-store.
 */
export function paginate(c: AppContext, total: number, sizes: PageSizes = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE }): Page {
  c.header('Cache-Control', PRIVATE_NO_STORE)
  const pageSize = pageSizeFrom(c.req.query('page_size'), sizes)
  const page = c.req.query('page') ?? '1'
  const lastPage = Math.max(1, Math.ceil(total / pageSize))
  const pageNumber = page === 'last' ? lastPage : pageNumberFrom(page)
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > lastPage) throw apiError(404, 'Invalid page.')

  const pageLink = (target: number) => {
    const url = new URL(c.req.url)
    if (target === 1) url.searchParams.delete('page')
    else url.searchParams.set('page', String(target))
    return url.toString()
  }
  return {
    limit: pageSize,
    offset: (pageNumber - 1) * pageSize,
    envelope: (results) => ({
      count: total,
      next: pageNumber < lastPage ? pageLink(pageNumber + 1) : null,
      previous: pageNumber > 1 ? pageLink(pageNumber - 1) : null,
      results,
    }),
  }
}

const pageNumberFrom = (page: string) => (/^\d{1,9}$/.test(page) ? Number(page) : NaN)

/**
 * The rows a request asks for before the list's length is known (`?page=` a number, `?page_size=`
 * as paginate reads them), for a list that reads its page and its length in one statement; null
 * for "last" or a page that is no number (paginate decides those once the length is known).
 */
export function requestedRows(c: AppContext, sizes: PageSizes = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE }): { limit: number; offset: number } | null {
  const pageSize = pageSizeFrom(c.req.query('page_size'), sizes)
  const pageNumber = pageNumberFrom(c.req.query('page') ?? '1')
  return Number.isInteger(pageNumber) && pageNumber >= 1 ? { limit: pageSize, offset: (pageNumber - 1) * pageSize } : null
}

function pageSizeFrom(value: string | undefined, { defaultSize, maxSize }: PageSizes): number {
  if (value === undefined || !/^\d+$/.test(value.trim())) return defaultSize
  const size = Number(value)
  return size < 1 ? defaultSize : Math.min(size, maxSize)
}
