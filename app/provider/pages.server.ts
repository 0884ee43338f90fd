import { ProviderError } from './errors.ts'

/**
 * Page `page` of a DRF-paged list (`read` asks the provider for one page of `pageSize`). A page
 * past the end, the provider's 404 "Invalid page." (a bookmarked page, or one whose last item was
 * just restored or removed), reads the last page instead: the visitor sees the list, never an
 * error, and `page` says which page that is.
 */
export async function pageOrLast<List extends { count: number }>(read: (page: number | 'last') => Promise<List>, page: number, pageSize: number): Promise<{ list: List; page: number }> {
  try {
    return { list: await read(page), page }
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status !== 404 || page === 1) throw error
    const list = await read('last')
    return { list, page: Math.max(1, Math.ceil(list.count / pageSize)) }
  }
}
