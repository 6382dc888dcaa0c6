/** The password gate of a private page (pure): noindex, nothing of the page but its name. */
import { html } from '../../../lib/html.ts'
import { statusPage, type Assets } from './shared.ts'

export interface GateView {
  name: string
  error: string | undefined
  next: string
  assets: Assets
  passwordConfigured: boolean
}

export function renderGatePage(view: GateView): string {
  return statusPage(`${view.name} status · private`, view.assets, { noindex: true }, html`
<main id="main" class="gate card">
<h1>${view.name}</h1>
<p>This status page is private. Enter the password you were given to view it.</p>
!${
    view.passwordConfigured
      ? html`<form method="post" action="/_lantern/access">
<input type="hidden" name="next" value="${view.next}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required minlength="4" maxlength="1024"!${view.error ? ' aria-invalid="true" aria-describedby="gate-error"' : ''}>
!${view.error ? html`<p class="alert" id="gate-error" role="alert">${view.error}</p>` : ''}
<button type="submit">View status</button>
</form>`
      : '<p class="alert">The owner has not set a password for this page yet.</p>'
  }
</main>
`)
}
