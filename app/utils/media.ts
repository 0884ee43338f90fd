/**
 * The provider's media addresses as the pages use them (decision 0057). The provider gives
 * absolute URLs on its own public address, or on MEDIA_BASE_URL when a CDN or object storage
 * serves the lessons' files; both carry the same `/media/…` path and, for a lesson's files, the
 * same signature (it covers the path only). `mediaBase` is the app's MEDIA_BASE_URL, if any.
 */

/** The app's own URL for a provider media file (see routes/media.$.ts), or null for anything else. */
export function mediaUrl(providerUrl: string | null | undefined, mediaBase?: string): string | null {
  return mediaLocation(providerUrl, mediaBase)?.pathname ?? null
}

/**
 * mediaUrl with the URL's query kept: a lesson's video and captions are signed
 * (`?expires=…&signature=…`, decision 0057) and useless without it. The fragment is dropped.
 */
export function signedMediaUrl(providerUrl: string | null | undefined, mediaBase?: string): string | null {
  const location = mediaLocation(providerUrl, mediaBase)
  return location ? `${location.pathname}${location.search}` : null
}

/**
 * Where the browser fetches a lesson's video: straight from MEDIA_BASE_URL when the provider
 * signed it there (the page's CSP names that origin in media-src), else through this site's
 * /media/ like every other file. Captions stay on this site either way: a `<track>` from another
 * origin needs CORS, and they are a few kilobytes.
 */
export function playableMediaUrl(providerUrl: string | null | undefined, mediaBase?: string): string | null {
  const location = mediaLocation(providerUrl, mediaBase)
  if (!location || !providerUrl || !mediaBase || !providerUrl.startsWith(`${mediaBase}/media/`)) return signedMediaUrl(providerUrl, mediaBase)
  return `${mediaBase}${location.pathname}${location.search}`
}

/** MEDIA_BASE_URL's origin for the CSP's media-src, or nothing when the files come from this site. */
export function mediaOrigins(mediaBase: string | undefined): string[] {
  return mediaBase ? [new URL(mediaBase).origin] : []
}

function mediaLocation(providerUrl: string | null | undefined, mediaBase: string | undefined): URL | null {
  if (!providerUrl) return null
  // On MEDIA_BASE_URL, the path is what follows the base ("https://cdn.example/innera" + "/media/…").
  const relative = mediaBase && providerUrl.startsWith(`${mediaBase}/`) ? providerUrl.slice(mediaBase.length) : providerUrl
  try {
    const location = new URL(relative, 'http://provider.invalid')
    return location.pathname.startsWith('/media/') && !location.pathname.includes('..') ? location : null
  } catch {
    return null
  }
}
