import { useEffect } from 'react'
import { useRevalidator } from '@remix-run/react'

/**
 * With JavaScript on, a page left open reloads its data once a moment comes (a consultation's or a
 * live class's room opening), when that is within the day; null: nothing to wait for.
 */
export function useReloadAt(delayMs: number | null) {
  const { revalidate } = useRevalidator()
  useEffect(() => {
    if (delayMs === null || delayMs > 24 * 60 * 60 * 1000) return
    const timer = setTimeout(revalidate, delayMs + 1_000)
    return () => clearTimeout(timer)
  }, [delayMs, revalidate])
}
