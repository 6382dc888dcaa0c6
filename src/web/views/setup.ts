/** The first-run setup form (/user/setup): create the first account of a new Lantern. */
import { html } from '../../lib/html.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'
import { layout } from '../kit/layout.ts'

const LABELS = { email: 'Email', password: 'Password' }

export function setupView(token: string, state: FormState): string {
  return layout(
    { title: 'Set up Lantern', noindex: true },
    html`<section class="card narrow">
  <h1>Set up Lantern</h1>
  <p>This Lantern has no accounts yet. Create the first one: it administers this instance and gets every feature.</p>
  !${errorSummary(state, LABELS)}
  <form method="post" action="/user/setup" novalidate>
    <input type="hidden" name="token" value="${token}">
    !${textField({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username', required: true, state })}
    !${textField({ name: 'password', label: 'Password', hint: 'At least 8 characters.', type: 'password', autocomplete: 'new-password', required: true, state })}
    <button type="submit">Create account</button>
  </form>
</section>`,
  )
}
