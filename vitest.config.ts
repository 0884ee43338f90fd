import { defineConfig } from 'vitest/config'

// Kept apart from vite.config.ts: Vitest must not load the Remix Vite plugin.
export default defineConfig({
  test: {
    // Vitest's default leaves one core idle; this machine (and CI) has two.
    maxWorkers: '100%',
    projects: [
      {
        test: {
          name: 'app',
          include: ['app/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['./tests/setup/setup-test-env.ts'],
          restoreMocks: true,
        },
      },
      {
        test: {
          name: 'provider',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
