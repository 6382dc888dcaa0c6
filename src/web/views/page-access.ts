/**
 * The Access section of a page: visibility, the gate password (set, change, remove; never shown
 * back), the read-only embed token (created or rotated: shown once; revoked), and the blocked state.
 */
import { html } from '../../lib/html.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { errorSummary, selectField, textField, type FormState } from '../kit/forms.ts'
import { lockedPageNotice, sectionNav } from './pages.ts'

export interface AccessViewInput {
  page: StatusPage
  settings: { passwordSet: boolean; embedTokenSet: boolean }
  statusUrl: string
  visibilityForm: FormState
  passwordForm: FormState
  /** A token just created: shown this once. */
  newToken?: string
}

const VISIBILITY_OPTIONS = [
  { value: 'public', label: 'Public: anyone with the address' },
  { value: 'private', label: 'Private: behind a password or token' },
]

/** What a blocked page means, shown wherever the owner manages it. */
export function blockedNotice(page: StatusPage): string {
  if (!page.blocked) return ''
  return html`<div class="blocked-alert" role="note">
  <p><strong>Blocked by the administrator.</strong> Visitors, embeds, badges and feeds of this page get "not found"; nothing is lost, and you can keep editing it.</p>
  <p>Only an administrator of this Lantern instance can unblock it: contact them.</p>
</div>`
}

export function accessView(input: AccessViewInput): string {
  const { page, settings } = input
  const id = String(page.id)
  const isPrivate = page.visibility === 'private'
  const token = input.newToken
    ? html`<div class="card" role="status" aria-labelledby="token-new-heading">
  <h3 id="token-new-heading">Your new embed token</h3>
  <p>Copy it now: it is shown only this once. The previous token (if any) no longer works.</p>
  <code class="secret" id="new-token" data-copyable="the embed token">${input.newToken}</code>
  <p class="hint">Add <code>auth_token=${input.newToken}</code> to the badge, widget, status JSON and feed URLs of this page.</p>
</div>`
    : ''
  return html`<h1>Access: ${page.name}</h1>
!${sectionNav(page, 'Access')}
!${blockedNotice(page)}
!${lockedPageNotice(page)}
<section class="card" aria-labelledby="visibility-heading">
  <h2 id="visibility-heading">Visibility</h2>
  <p>${isPrivate ? 'Private: visitors need the password; embeds need the token.' : 'Public: anyone with the address can read the page.'} <a href="${input.statusUrl}">${input.statusUrl}</a></p>
  !${errorSummary(input.visibilityForm, { visibility: 'Visibility' })}
  <form method="post" action="/user/pages/${id}/access/visibility" class="stack" novalidate>
    !${selectField({ name: 'visibility', label: 'Who can read the page', options: VISIBILITY_OPTIONS, state: input.visibilityForm })}
    <button type="submit">Save visibility</button>
  </form>
</section>
<section class="card" aria-labelledby="password-heading">
  <h2 id="password-heading">Gate password</h2>
  <p>!${settings.passwordSet ? 'A password is set. Visitors who type it can read the page for an hour.' : 'No password is set: nobody can pass the gate of a private page.'}</p>
  !${errorSummary(input.passwordForm, { password: 'Password' })}
  <form method="post" action="/user/pages/${id}/access/password" class="stack" novalidate>
    !${textField({ name: 'password', label: settings.passwordSet ? 'New password' : 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 8 characters. Changing it ends every visitor session.', required: true, state: input.passwordForm })}
    <button type="submit">${settings.passwordSet ? 'Change password' : 'Set password'}</button>
  </form>
  !${
    settings.passwordSet
      ? html`<form method="post" action="/user/pages/${id}/access/password/delete" class="stack"><button type="submit" class="secondary">Remove password</button></form>`
      : ''
  }
</section>
<section class="card" aria-labelledby="token-heading">
  <h2 id="token-heading">Embed token</h2>
  <p>A read-only token lets the badge, widget, status JSON and feeds of a private page answer. It never opens the page itself.</p>
  <p><strong>${settings.embedTokenSet ? 'A token is active.' : 'No token is active.'}</strong></p>
  !${token}
  <div class="inline-forms">
    <form method="post" action="/user/pages/${id}/access/token"><button type="submit">${settings.embedTokenSet ? 'Rotate token' : 'Create token'}</button></form>
    !${settings.embedTokenSet ? html`<form method="post" action="/user/pages/${id}/access/token/delete"><button type="submit" class="danger">Revoke token</button></form>` : ''}
  </div>
</section>`
}
