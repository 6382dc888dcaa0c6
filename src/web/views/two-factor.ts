/** Two-factor: the account's screen (on/off, enrol with a QR code, recovery codes once) and the sign-in step. */
import { html } from '../../lib/html.ts'
import type { Enrolment } from '../../modules/two-factor/service.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import { layout } from '../kit/layout.ts'
import type { Flash } from '../kit/flash.ts'
import { passkeySecondFactorBlock, PASSKEYS_SCRIPT } from './passkeys.ts'

const LABELS = { code: 'Code', password: 'Password' }

/** The QR code drawn on the server (an SVG the QR library made from our own URI), sized here. */
const qr = (svg: string) => svg.replace('<svg ', '<svg width="200" height="200" aria-hidden="true" focusable="false" ')

export function twoFactorView(options: { enabled: boolean; recoveryCodesLeft: number; enrolment?: Enrolment; state: FormState; recoveryCodes?: string[] }): string {
  const { enabled, enrolment, state } = options
  if (options.recoveryCodes) {
    return html`<section class="card">
  <h1>Two-factor sign-in is on</h1>
  <p>Keep these recovery codes somewhere safe, apart from your phone: each one signs you in once instead of a code from the app. They are shown only this once.</p>
  <ul class="recovery-codes" aria-label="Recovery codes">!${options.recoveryCodes.map((code) => html`<li><code>${code}</code></li>`).join('')}</ul>
  <p><a href="/user/two-factor">Done</a></p>
</section>`
  }
  if (enabled) {
    return html`<section class="card">
  <h1>Two-factor sign-in</h1>
  <p><strong>On.</strong> Logging in asks for a code from your authenticator app after the password. Recovery codes left: ${String(options.recoveryCodesLeft)}.</p>
  <p>API keys are not subject to two-factor: keep them as secret as the password.</p>
  <h2>Turn it off</h2>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/two-factor/disable" novalidate>
    !${textField({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', required: true, state })}
    <button type="submit" class="danger">Turn two-factor off</button>
  </form>
</section>`
  }
  if (enrolment) {
    return html`<section class="card">
  <h1>Set up two-factor sign-in</h1>
  <p>Scan this code with an authenticator app (any app that speaks TOTP), then type the 6 digits it shows.</p>
  <div class="qr" role="img" aria-label="QR code for your authenticator app">!${qr(enrolment.qrSvg)}</div>
  <p>Cannot scan? Type this secret into the app instead: <code class="secret">${enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code></p>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/two-factor/confirm" novalidate>
    !${textField({ name: 'code', label: 'Code', hint: 'The 6 digits the app shows now.', autocomplete: 'one-time-code', required: true, state })}
    <button type="submit">Turn two-factor on</button>
  </form>
</section>`
  }
  return html`<section class="card">
  <h1>Two-factor sign-in</h1>
  <p><strong>Off.</strong> With it on, logging in asks for a code from an authenticator app on your phone after the password, so a stolen password alone does not get in. You also get ten single-use recovery codes.</p>
  <p>API keys are not subject to two-factor.</p>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/two-factor/enrol"><button type="submit">Set up two-factor</button></form>
</section>`
}

export function twoFactorStepView(options: { next: string; state: FormState; flash?: Flash; authenticator: boolean; passkey: boolean }): string {
  const ways = options.authenticator && options.passkey
    ? 'Type the 6 digits your authenticator app shows or one of your recovery codes, or use a passkey.'
    : options.passkey
      ? 'Use your passkey to finish signing in.'
      : 'Type the 6 digits your authenticator app shows, or one of your recovery codes.'
  return layout(
    { title: 'Two-factor code', noindex: true, flash: options.flash, scripts: options.passkey ? [PASSKEYS_SCRIPT] : [] },
    html`<section class="card narrow">
  <h1>Two-factor code</h1>
  <p>${ways}</p>
  !${options.passkey ? passkeySecondFactorBlock(options.next) : ''}
  !${errorSummary(options.state, LABELS)}
  !${
    options.authenticator
      ? html`<form method="post" action="/user/login/two-factor" novalidate>
    <input type="hidden" name="next" value="${options.next}">
    !${textField({ name: 'code', label: 'Code', autocomplete: 'one-time-code', required: true, state: options.state })}
    <button type="submit">Log in</button>
  </form>`
      : ''
  }
  <p><a href="/user/login">Start again</a></p>
</section>`,
  )
}
