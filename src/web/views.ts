/**
 * The account screens (log in, sign up, change password) on the kit (kit/layout.ts, kit/forms.ts).
 * `layout` and `messagePage` are re-exported for the analytics screens.
 */
import { html } from '../lib/html.ts'
import type { Owner } from '../modules/accounts/service.ts'
import { emptyForm, formError, textField, type FormState } from './kit/forms.ts'
import { layout } from './kit/layout.ts'
import type { Flash } from './kit/flash.ts'
import { ASK_AN_ADMINISTRATOR } from './views/password-reset.ts'
import { ssoButton } from './views/sso.ts'
import { passkeySignInBlock, PASSKEYS_SCRIPT } from './views/passkeys.ts'

export { layout, messagePage, type LayoutOptions } from './kit/layout.ts'

const withError = (state: FormState, error: string | undefined): FormState => (error ? { ...state, errors: { _form: error } } : state)

export function loginPage(options: {
  error?: string
  email?: string
  next?: string
  signupOpen: boolean
  /** Mail is on: "Forgot password?" mails a link; otherwise the page says to ask an administrator. */
  resetByMail: boolean
  flash?: Flash
  setupPending?: boolean
  /** Single sign-on is set up: its provider's button. */
  sso?: { name: string } | undefined
}): string {
  const state = withError(emptyForm({ email: options.email }), options.error)
  return layout(
    { title: 'Log in', flash: options.flash, scripts: [PASSKEYS_SCRIPT] },
    html`<section class="card narrow">
  <h1>Log in</h1>
  !${options.setupPending ? html`<p>This Lantern has no accounts yet. Open the setup link the server printed when it started (<q>no accounts yet — create the first one at …</q>) to create the first one.</p>` : ''}
  !${formError(state)}
  <form method="post" action="/user/login">
    <input type="hidden" name="next" value="${options.next ?? '/user'}">
    !${textField({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, state })}
    !${textField({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, state })}
    <button type="submit">Log in</button>
  </form>
  !${options.sso ? ssoButton(options.sso.name, options.next ?? '/user') : ''}
  !${passkeySignInBlock(options.next ?? '/user')}
  !${options.resetByMail ? html`<p><a href="/user/password-reset">Forgot password?</a></p>` : html`<p class="hint">${ASK_AN_ADMINISTRATOR}</p>`}
  !${options.signupOpen ? html`<p>No account yet? <a href="/user/signup">Sign up</a>.</p>` : ''}
</section>`,
  )
}

export function signupPage(options: { error?: string; email?: string }): string {
  const state = withError(emptyForm({ email: options.email }), options.error)
  return layout(
    { title: 'Sign up' },
    html`<section class="card narrow">
  <h1>Create an account</h1>
  !${formError(state)}
  <form method="post" action="/user/signup">
    !${textField({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, state })}
    !${textField({ name: 'password', label: 'Password', hint: 'At least 8 characters.', type: 'password', autocomplete: 'new-password', required: true, state })}
    <button type="submit">Sign up</button>
  </form>
  <p>Already have an account? <a href="/user/login">Log in</a>.</p>
</section>`,
  )
}

export function passwordPage(user: Owner, options: { error?: string; done?: boolean }): string {
  const state = withError(emptyForm(), options.error)
  return layout(
    {
      title: 'Change password',
      user,
      path: '/user/password',
      crumbs: [{ label: 'Account', href: '/user/account' }, { label: 'Change password' }],
      flash: options.done ? { kind: 'notice', text: 'Password changed. Other sessions were logged out.' } : undefined,
    },
    html`<section class="card narrow">
  <h1>Change password</h1>
  <p>Changing your password logs out every other browser signed in to this account.</p>
  !${formError(state)}
  <form method="post" action="/user/password">
    !${textField({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password', required: true, state })}
    !${textField({ name: 'new_password', label: 'New password', hint: 'At least 8 characters.', type: 'password', autocomplete: 'new-password', required: true, state })}
    <button type="submit">Change password</button>
  </form>
</section>`,
  )
}
