/**
 * Passkeys: the account's list (name, added, last used; rename, remove after a confirmation), the
 * "Add a passkey" form the script (assets/user/passkeys.js) drives, and the passkey buttons of the
 * login page and of the sign-in's second step. Without JavaScript the passkey buttons stay hidden
 * and the page says why; everything else is a plain form.
 */
import { html } from '../../lib/html.ts'
import { PASSKEY_NAME_MAX, type Passkey } from '../../modules/passkeys/types.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import { when } from './account.ts'

export const PASSKEYS_SCRIPT = '/static/user/passkeys.js'
const LABELS = { name: 'Name', password: 'Your password' }

/** Where the script tells what went wrong (and, without JavaScript, that it is needed). */
const statusRegion = (id: string) => html`<div id="${id}" class="passkey-status" role="status" aria-live="polite"></div>
<noscript><p class="hint">Passkeys need JavaScript in this browser.</p></noscript>`

function passkeyRow(passkey: Passkey): string {
  const field = `passkey-name-${passkey.id}`
  return html`<tr>
  <td>${passkey.name}</td>
  <td>!${when(passkey.createdAt)}</td>
  <td>!${when(passkey.lastUsedAt, 'Not yet')}</td>
  <td><form method="post" action="/user/passkeys/${String(passkey.id)}/rename" class="inline">
    <label for="${field}" class="visually-hidden">New name for ${passkey.name}</label>
    <input id="${field}" name="name" type="text" maxlength="${String(PASSKEY_NAME_MAX)}" required value="${passkey.name}">
    <button type="submit" class="secondary">Rename<span class="visually-hidden"> ${passkey.name}</span></button>
  </form></td>
  <td><a href="/user/passkeys/${String(passkey.id)}/remove">Remove<span class="visually-hidden"> ${passkey.name}</span></a></td>
</tr>`
}

export function passkeysView(options: { passkeys: Passkey[]; state: FormState }): string {
  const { passkeys, state } = options
  const list =
    passkeys.length === 0
      ? html`<p class="muted">No passkeys yet.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Your passkeys"><table><caption class="visually-hidden">Your passkeys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Rename</span></th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
<tbody>!${passkeys.map(passkeyRow).join('')}</tbody></table></section>`
  return html`<h1>Passkeys</h1>
<section class="card" aria-labelledby="passkeys-heading">
  <h2 id="passkeys-heading">Your passkeys</h2>
  <p>A passkey is a key kept by this device, your phone or a security key, unlocked with its PIN, fingerprint or face. It signs you in without a password (<q>Sign in with a passkey</q> on the login page), and after the password it is your second factor instead of a code from the app.</p>
  <p>API keys are not subject to two-factor: keep them as secret as the password.</p>
  !${errorSummary(state, LABELS)}
  !${list}
</section>
<section class="card" aria-labelledby="add-heading">
  <h2 id="add-heading">Add a passkey</h2>
  <form id="passkey-add" method="post" action="/user/passkeys" novalidate>
    !${textField({ name: 'name', label: 'Name', hint: 'So you can tell your passkeys apart, e.g. Work laptop.', autocomplete: 'off', required: true, state })}
    !${textField({ name: 'password', label: 'Your password', type: 'password', hint: 'A passkey signs in without the password, so adding one asks for it.', autocomplete: 'current-password', required: true, state })}
    <button type="submit" data-passkey-action="register" hidden>Add a passkey</button>
  </form>
  !${statusRegion('passkey-add-status')}
</section>`
}

export function removePasskeyView(passkey: Passkey): string {
  return html`<h1>Remove "${passkey.name}"?</h1>
<section class="card narrow">
  <p>This passkey will no longer sign you in. Remove it from the device too if you no longer use it.</p>
  <form method="post" action="/user/passkeys/${String(passkey.id)}/remove">
    <button type="submit" class="danger">Remove passkey</button>
  </form>
  <p><a href="/user/passkeys">Keep it</a></p>
</section>`
}

/** The login page's password-free way in. */
export function passkeySignInBlock(next: string): string {
  return html`<div class="passkey-sign-in">
  <button type="button" class="secondary" data-passkey-action="sign-in" data-next="${next}" hidden>Sign in with a passkey</button>
  !${statusRegion('passkey-sign-in-status')}
</div>`
}

/** The second step's passkey button (a sign-in whose password was right). */
export function passkeySecondFactorBlock(next: string): string {
  return html`<div class="passkey-sign-in">
  <button type="button" data-passkey-action="second-factor" data-next="${next}" hidden>Use a passkey</button>
  !${statusRegion('passkey-second-factor-status')}
</div>`
}
