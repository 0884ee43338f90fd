/**
 * The real floor for the benchmarks: a bare Remix v2 app of the same versions as the product (a
 * root with Meta, Links and Scripts, one route with no loader), the same future flags, built and
 * served by the bench itself (bench/lib/floor.mjs) into a temporary folder.
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
      buildDirectory: process.env.FLOOR_BUILD_DIR,
      future: remixFuture,
    }),
  ],
})
