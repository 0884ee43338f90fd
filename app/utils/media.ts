/** The app's own URL for a provider media file (see routes/media.$.ts), or null for anything else. */
export function mediaUrl(providerUrl: string | null | undefined): string | null {
  return mediaLocation(providerUrl)?.pathname ?? null
}

/**
 * mediaUrl with the URL's query kept: a lesson's video and captions are signed
 * (`?expires=…&signature=…`, decision 0057) and useless without it. The fragment is dropped.
 */
export function signedMediaUrl(providerUrl: string | null | undefined): string | null {
  const location = mediaLocation(providerUrl)
  return location ? `${location.pathname}${location.search}` : null
}

function mediaLocation(providerUrl: string | null | undefined): URL | null {
  if (!providerUrl) return null
  try {
    const location = new URL(providerUrl, 'http://provider.invalid')
    return location.pathname.startsWith('/media/') && !location.pathname.includes('..') ? location : null
  } catch {
    return null
  }
}
