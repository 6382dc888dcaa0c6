/**
 * The account screens: the account (email, password, sessions) and API keys (create: the key is
 * shown once on the answer to the POST, never again; list; revoke after a confirmation).
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import { toIso } from '../../lib/time.ts'
import type { ApiKeyInfo, SessionInfo, Owner } from '../../modules/accounts/service.ts'
import { roleLabel, type Role } from '../../modules/plans/roles.ts'
import { errorSummary, selectField, textField, type FormState } from '../kit/forms.ts'
import type { Crumb } from '../kit/layout.ts'

export const ACCOUNT_HEAD = '<link rel="stylesheet" href="/static/user/account.css">'

/** An instant as `23 Nov 2026, 12:00 UTC` in a <time> element (machine-readable too). */
export function when(ms: number | null, never = 'Never'): string {
  if (ms === null) return html`${never}`
  return html`<time datetime="${toIso(ms)}">${formatDateTime(ms)}</time>`
}

export const accountCrumbs = (current?: string): Crumb[] =>
  current ? [{ label: 'Account', href: '/user/account' }, { label: current }] : [{ label: 'Account' }]

function sessionRow(session: SessionInfo): string {
  const action = session.current
    ? html`<span class="badge ok">This browser</span>`
    : html`<form method="post" action="/user/account/sessions/${String(session.id)}/end" class="inline">
  <button type="submit" class="secondary">End<span class="visually-hidden"> session ${session.client ?? 'Unknown browser'} from ${formatDateTime(session.createdAt)}</span></button>
</form>`
  return html`<tr>
  <td>${session.client ?? 'Unknown browser'}</td>
  <td>!${when(session.createdAt)}</td>
  <td>!${when(session.lastSeenAt, 'Not yet')}</td>
  <td>!${action}</td>
</tr>`
}

export function accountView(user: Owner, sessions: SessionInfo[]): string {
  const others = sessions.filter((session) => !session.current).length
  return html`<h1>Account</h1>
<section class="card" aria-labelledby="you-heading">
  <h2 id="you-heading">Sign-in</h2>
  <dl class="facts">
    <dt>Email</dt><dd>${user.email}</dd>
    <dt>Role</dt><dd>${user.isAdmin ? 'Administrator of this Lantern' : 'Owner'}</dd>
  </dl>
  <p><a href="/user/password">Change your password</a> (this logs out every other browser).</p>
  <p><a href="/user/two-factor">Two-factor sign-in</a>: a code from an authenticator app after the password · <a href="/user/passkeys">Passkeys</a>: sign in with this device, or use it as the second factor.</p>
  <p><a href="/user/api-keys">API keys</a> for scripts and the command line · <a href="/user/plan">Plan and usage</a></p>
</section>
<section class="card" aria-labelledby="sessions-heading">
  <h2 id="sessions-heading">Sessions</h2>
  <p>Browsers logged in to this account. Ending a session sends that browser to the login page.</p>
  <section class="scroll" tabindex="0" aria-label="Your sessions"><table><caption class="visually-hidden">Your sessions</caption>
<thead><tr><th scope="col">Browser</th><th scope="col">Logged in</th><th scope="col">Last seen</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>!${sessions.map(sessionRow).join('')}</tbody></table></section>
  !${
    others > 0
      ? html`<form method="post" action="/user/account/sessions/end-others"><button type="submit" class="danger">End all other sessions (${String(others)})</button></form>`
      : html`<p class="muted">No other sessions.</p>`
  }
</section>`
}

const KEY_LABELS = { name: 'Name', role: 'Role' }

function keyRow(key: ApiKeyInfo): string {
  const action =
    key.state === 'active'
      ? html`<a href="/user/api-keys/${String(key.id)}/revoke">Revoke<span class="visually-hidden"> ${key.name}</span></a>`
      : html`<span class="muted">Revoked !${when(key.revokedAt)}</span>`
  return html`<tr>
  <td>${key.name}</td>
  <td><code>${key.prefix}</code></td>
  <td>${roleLabel(key.role)}</td>
  <td>!${when(key.createdAt)}</td>
  <td>!${when(key.lastUsedAt)}</td>
  <td>!${key.state === 'active' ? html`<span class="badge ok">Active</span>` : html`<span class="badge">Revoked</span>`}</td>
  <td>!${action}</td>
</tr>`
}

/** The key just created, shown this once with a copy button (copy.js reveals it). */
function newKeyPanel(created: { key: string; info: ApiKeyInfo }): string {
  return html`<section class="card new-key" aria-labelledby="new-key-heading">
  <h2 id="new-key-heading">Your new key "${created.info.name}"</h2>
  <p><strong>Copy it now: it is shown this once and cannot be shown again.</strong> Only its hash is kept. If you lose it, revoke it and create another.</p>
  <div class="row">
    <label class="visually-hidden" for="new-key">API key ${created.info.name}</label>
    <input id="new-key" type="text" readonly value="${created.key}" autocomplete="off" spellcheck="false">
    <button type="button" data-copy="new-key" hidden>Copy</button>
  </div>
  <p id="new-key-status" role="status" class="hint"></p>
  <p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>X-API-Key: &lt;key&gt;</code>.</p>
</section>`
}

/**
 * `grantable`: the roles a new key may have (up to the viewer's own, highest first, so the default
 * choice is their own role).
 */
export function apiKeysView(keys: ApiKeyInfo[], form: FormState, grantable: readonly Role[], created?: { key: string; info: ApiKeyInfo }): string {
  const list =
    keys.length === 0
      ? html`<p>No API keys yet.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Your API keys"><table><caption class="visually-hidden">Your API keys</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Role</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>!${keys.map(keyRow).join('')}</tbody></table></section>`
  return html`<h1>API keys</h1>
!${created ? newKeyPanel(created) : ''}
<section class="card" aria-labelledby="keys-heading"><h2 id="keys-heading">Your keys</h2>!${list}</section>
<section class="card" aria-labelledby="create-heading">
  <h2 id="create-heading">New API key</h2>
  <p>Keys let scripts and the command line use the <a href="/swagger">management API</a> as you.</p>
  !${errorSummary(form, KEY_LABELS)}
  <form method="post" action="/user/api-keys" class="stack" novalidate>
    !${textField({ name: 'name', label: 'Name', hint: 'What the key is for, e.g. deploy script.', required: true, maxLength: 100, autocomplete: 'off', state: form })}
    !${selectField({ name: 'role', label: 'Role', hint: 'What the key may do in the team you act in: at most your own role. A status script needs no more than Responder.', options: grantable.map((role) => ({ value: role, label: roleLabel(role) })), state: form })}
    <button type="submit">Create key</button>
  </form>
</section>`
}

export function revokeKeyView(key: ApiKeyInfo): string {
  return html`<h1>Revoke "${key.name}"?</h1>
<section class="card danger">
  <p>Every request with the key <code>${key.prefix}…</code> will be refused (401) from now on. This cannot be undone; the key stays in the list as revoked.</p>
  <form method="post" action="/user/api-keys/${String(key.id)}/revoke">
    <button type="submit" class="danger">Revoke key</button>
    <a href="/user/api-keys">Cancel</a>
  </form>
</section>`
}
