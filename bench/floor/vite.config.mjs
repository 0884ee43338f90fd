/**
 * The real floors for the benchmarks: bare Remix v2 apps of the same versions as the product (a
 * root with Meta, Links and Scripts; one route with no loader, or the product's route files each
 * empty), the same future flags, built and served by the bench itself (bench/lib/floor.mjs): the
 * app is copied into a temporary folder, built there with this config (`--config`) and served there.
 */
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import { remixFuture } from '../../scripts/lib/remix-future.mjs'

export default defineConfig({
  logLevel: 'warn',
  build: { sourcemap: false },
  plugins: [
    remix({
      appDirectory: 'app',
      buildDirectory: 'build',
      future: remixFuture,
    }),
  ],
})
