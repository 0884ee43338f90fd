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
          // Test files share a worker's modules instead of importing everything again per file (the
          // route modules, the provider's app): about 60 s instead of 140 s for the suite (decision
          // 0028). A file that needs fresh modules (its own environment) says so with vi.resetModules().
          isolate: false,
          include: ['app/**/*.test.{ts,tsx}', 'tests/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['./tests/setup/setup-test-env.ts'],
          restoreMocks: true,
          // A bound against a hang, never a budget: a busy machine may run a render test for seconds.
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'provider',
          isolate: false,
          include: ['server/**/*.test.ts'],
          environment: 'node',
          // Bounds against a hang, never budgets: on a busy machine a fresh PGlite with its
          // migrations takes tens of seconds, and a child process longer still to start.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
})
