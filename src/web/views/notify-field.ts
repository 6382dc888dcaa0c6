/**
 * The "Notify subscribers" checkbox of the incident and maintenance forms: it sends the API's
 * `notify_subscribers` (unticked by default, as the API's default is false).
 */
import { html } from '../../lib/html.ts'
import { checkboxField, type FormState } from '../kit/forms.ts'

export function notifySubscribersField(form: FormState, hint: string): string {
  return checkboxField({ name: 'notify_subscribers', label: 'Notify subscribers', hint, state: form })
}

/** The same box for a second form on one screen (Resolve beside Post an update): its own id. */
export function notifySubscribersBox(idPrefix: string): string {
  const id = `${idPrefix}-notify_subscribers`
  return html`<div class="field check">
  <input id="${id}" name="notify_subscribers" type="checkbox">
  <label for="${id}">Notify subscribers</label>
</div>`
}
