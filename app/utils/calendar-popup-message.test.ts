import { describe, expect, it } from 'vitest'
import { callbackParams, parsePopupMessage, popupMessage } from './calendar-popup-message.ts'

describe('the callback side', () => {
  it('reads what Google sent back', () => {
    expect(callbackParams(new URLSearchParams('code=4/abc&state=xyz'))).toEqual({ outcome: 'code', code: '4/abc', state: 'xyz' })
    expect(callbackParams(new URLSearchParams('error=access_denied&state=xyz'))).toEqual({ outcome: 'cancelled' })
    expect(callbackParams(new URLSearchParams('error=server_error'))).toEqual({ outcome: 'error', error: 'server_error' })
    expect(callbackParams(new URLSearchParams(''))).toEqual({ outcome: 'error', error: 'missing_code' })
  })

  it('accepts only the messages it posts', () => {
    expect(parsePopupMessage(popupMessage('success'))).toEqual({ type: 'innera:calendar', outcome: 'success' })
    expect(parsePopupMessage({ type: 'innera:calendar', outcome: 'error', message: 'x' })).toEqual({ type: 'innera:calendar', outcome: 'error', message: 'x' })
    expect(parsePopupMessage({ type: 'innera:calendar', outcome: 'connected' })).toBeNull()
    expect(parsePopupMessage(null)).toBeNull()
    expect(parsePopupMessage('innera:calendar')).toBeNull()
  })
})
