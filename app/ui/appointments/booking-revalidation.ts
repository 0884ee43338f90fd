import { type ShouldRevalidateFunction } from '@remix-run/react'

/**
 * The booking form's steps that write nothing (review, back, and the replies that keep the
 * picker: a time taken, a failure) leave the page's data as it is: the free times are not read
 * again behind the review the patient is looking at. A confirmed booking redirects, and the next
 * page loads its own data.
 */
export const keepDataAfterBookingStep: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if (actionResult !== null && typeof actionResult === 'object' && 'step' in actionResult) return false
  return defaultShouldRevalidate
}
