import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'
import { legalCommentsFile } from './scripts/lib/legal-comments.mjs'
import { remixFuture } from './scripts/lib/remix-future.mjs'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000) },
  build: { cssMinify: true, sourcemap: false },
  plugins: [
    tailwindcss(),
    remix({
      future: remixFuture,
    }),
    legalCommentsFile(),
  ],
})
