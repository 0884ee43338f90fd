import { escapeHtml, htmlDocument } from '#server/http/html.ts'
import { FAKE_GOOGLE_IDENTITIES } from '#server/fakes/google/identities.ts'

const CONSENT_STYLES = `
  main { max-width: 32rem; border: 1px solid GrayText; border-radius: 1rem; padding: 2rem; }
  fieldset { border: 1px solid GrayText; border-radius: 0.5rem; margin: 1.5rem 0; display: grid; gap: 0.5rem; }
  .choice { display: flex; gap: 0.5rem; align-items: center; }
  input[type=email] { font: inherit; padding: 0.5rem; }
  .actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
  .notice { font-size: 0.9rem; }
  [role=alert] { border-left: 4px solid #b3261e; padding-left: 0.75rem; }`

/**
 * The fake Google's consent screen for the calendar scope: which account (the login_hint's, which
 * the provider sets to the professional's e-mail, checked first; then the demo accounts), what
 * Innera may do, and Allow or Deny. Allow posts the
 * choice to /fake-google/authorize, which redirects with a code; Deny redirects with
 * error=access_denied and the state. Everything the authorization request carried travels in
 * `hiddenFields`.
 */
export function renderCalendarConsent({ loginHint, hiddenFields, error }: { loginHint: string; hiddenFields: string; error?: string }): string {
  // A hint that is not an e-mail address is ignored, as Google ignores one it cannot match.
  const hinted = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(loginHint.trim()) ? loginHint.trim().toLowerCase() : ''
  const accounts = [
    ...(hinted && !FAKE_GOOGLE_IDENTITIES.some((identity) => identity.email === hinted) ? [{ email: hinted, label: hinted }] : []),
    ...FAKE_GOOGLE_IDENTITIES.map((identity) => ({ email: identity.email, label: `${identity.name} (${identity.email})` })),
  ]
  const checked = accounts.find((account) => account.email === hinted) ?? accounts[0]!
  const choices = accounts
    .map(
      (account, index) =>
        `<div class="choice"><input type="radio" id="account-${index}" name="account" value="${escapeHtml(account.email)}"${account === checked ? ' checked' : ''}><label for="account-${index}">${escapeHtml(account.label)}</label></div>`,
    )
    .join('\n      ')
  const body = `<main>
  <h1>Innera wants to access your Google Calendar</h1>
  <p class="notice">This is the provider's built-in stand-in for Google, for development and tests. No real Google account or calendar is involved.</p>
  ${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
  <form method="post" action="authorize">
    ${hiddenFields}
    <fieldset>
      <legend>Google account</legend>
      ${choices}
    </fieldset>
    <h2>Innera will be able to</h2>
    <ul>
      <li>See, edit, share and permanently delete all the calendars you can access using Google Calendar</li>
    </ul>
    <p>Make sure you trust Innera. You can remove its access at any time in your Google Account.</p>
    <div class="actions">
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
</main>`
  return htmlDocument({ title: 'Innera wants to access your Google Calendar - Google Accounts (fake)', body, styles: CONSENT_STYLES })
}
