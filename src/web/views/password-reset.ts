/** "Forgot password?": ask for a link, the mail is on its way, choose a new password, a dead link. */
import { html } from '../../lib/html.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import { layout } from '../kit/layout.ts'

const LABELS = { email: 'Email', new_password: 'New password' }

/** With mail off there are no links: an administrator sets a new password. */
export const ASK_AN_ADMINISTRATOR =
  'Forgot your password? Ask an administrator of this Lantern to set a new one (lantern user set-password on the server).'

export function resetRequestView(state: FormState): string {
  return layout(
    { title: 'Reset your password', noindex: true },
    html`<section class="card narrow">
  <h1>Reset your password</h1>
  <p>Enter the address of your account. If it has one, we mail it a link to choose a new password; the link works once, for 30 minutes.</p>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/password-reset" novalidate>
    !${textField({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, state })}
    <button type="submit">Send the link</button>
  </form>
  <p><a href="/user/login">Back to log in</a></p>
</section>`,
  )
}

export function resetSentView(): string {
  return layout(
    { title: 'Check your mail', noindex: true },
    html`<section class="card narrow">
  <h1>Check your mail</h1>
  <p>If an account has this address, a link to choose a new password is on its way. It works once, for 30 minutes.</p>
  <p>Nothing arrived? Check the spam folder, or ask again in a few minutes.</p>
  <p><a href="/user/login">Back to log in</a></p>
</section>`,
  )
}

export function resetNoMailView(): string {
  return layout(
    { title: 'Reset your password', noindex: true },
    html`<section class="card narrow">
  <h1>Reset your password</h1>
  <p>${ASK_AN_ADMINISTRATOR}</p>
  <p><a href="/user/login">Back to log in</a></p>
</section>`,
  )
}

export function resetFormView(token: string, email: string, state: FormState): string {
  return layout(
    { title: 'Choose a new password', noindex: true },
    html`<section class="card narrow">
  <h1>Choose a new password</h1>
  <p>For the account <strong>${email}</strong>. Setting it logs this account out everywhere.</p>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/password-reset/${token}" novalidate>
    <input type="text" name="username" value="${email}" autocomplete="username" hidden>
    !${textField({ name: 'new_password', label: 'New password', hint: 'At least 8 characters.', type: 'password', autocomplete: 'new-password', required: true, state })}
    <button type="submit">Set the new password</button>
  </form>
</section>`,
  )
}

export function resetDeadLinkView(): string {
  return layout(
    { title: 'This link no longer works', noindex: true },
    html`<section class="card narrow">
  <h1>This link no longer works</h1>
  <p>A reset link works once, for 30 minutes, and only the newest one sent to an account. <a href="/user/password-reset">Ask for a new link</a>.</p>
</section>`,
  )
}
