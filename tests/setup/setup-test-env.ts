import '@testing-library/jest-dom/vitest'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { PROVIDER_URL, providerMock } from '#tests/mocks/provider.ts'

process.env.NODE_ENV = 'test'
process.env.PROVIDER_API_URL = PROVIDER_URL
process.env.SESSION_SECRET = 'test-session-secret-that-is-long-enough-to-sign'
process.env.LOG_LEVEL = 'silent'
process.env.PROVIDER_TIMEOUT_MS ??= '1000'

beforeAll(() => providerMock.listen({ onUnhandledRequest: 'error' }))
afterEach(async () => {
  providerMock.resetHandlers()
  // Module state that outlives a test (the files of a worker share their modules).
  ;(await import('#app/provider/pillars.server.ts')).forgetPillarsForDisplay()
})
afterAll(() => providerMock.close())

// A test that logs an unexpected console.error fails: errors must be handled, not printed.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(' ')}`)
  })
})
