import { type LoaderFunctionArgs } from '@remix-run/node'
import { providerMedia } from '#app/provider/fetch.server.ts'

/**
 * /media/* from the provider (photos, lessons' posters, videos and captions): GET and HEAD (Remix
 * runs the loader for both and drops the body of a HEAD), the answer streamed as it comes.
 */
export function loader({ params, request }: LoaderFunctionArgs) {
  return providerMedia(params['*'] ?? '', request)
}
