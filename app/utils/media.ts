/** The app's own URL for a provider media file (see routes/media.$.ts), or null for anything else. */
export function mediaUrl(providerUrl: string | null | undefined): string | null {
  if (!providerUrl) return null
  try {
    const { pathname } = new URL(providerUrl, 'http://provider.invalid')
    return pathname.startsWith('/media/') && !pathname.includes('..') ? pathname : null
  } catch {
    return null
  }
}
