import { type LoaderFunctionArgs } from '@remix-run/node'
import { providerMedia } from '#app/provider/fetch.server.ts'

export function loader({ params }: LoaderFunctionArgs) {
  return providerMedia(params['*'] ?? '')
}
