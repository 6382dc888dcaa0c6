/**
 * The Subscribers section of a page: counts against the plan, the list with Remove, add one (the
 * owner's consent tick, no confirmation mail), import a CSV (all or nothing), export.
 */
import { noun } from '../../lib/words.ts'
import { html } from '../../lib/html.ts'
import type { DeliveryEntry } from '../../modules/notify/delivery-log.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { Subscriber, SubscriberCounts } from '../../modules/subscribers/service.ts'
import { checkboxField, errorSummary, formError, selectField, textArea, textField, type FormState } from '../kit/forms.ts'
import { deliveryLogSection, signingSecretNotice, signingSecretSection } from './deliveries.ts'
import { sectionNav } from './pages.ts'

export interface SubscribersViewInput {
  page: StatusPage
  subscribers: Subscriber[]
  counts: SubscriberCounts
  components: ReadonlyArray<{ id: number; name: string }>
  mailEnabled: boolean
  statusUrl: string
  addForm: FormState
  importForm: FormState
  /** Shown at most this many; the export has them all. */
  shownMax: number
}

const KIND_OPTIONS = [
  { value: 'email', label: 'Email' },
  { value: 'webhook', label: 'Webhook (Statuspage-shaped JSON)' },
  { value: 'slack', label: 'Slack channel (incoming webhook)' },
  { value: 'teams', label: 'Microsoft Teams channel (Workflows URL)' },
]
const SOURCE_LABELS: Record<string, string> = { self: 'Signed up', owner: 'Added by you', import: 'Imported' }

function countsLine(counts: SubscriberCounts): string {
  const total = counts.email + counts.pending + counts.webhook
  const limit = counts.limit === null ? 'no limit on your plan' : `your plan allows ${counts.limit} per page`
  return html`<p><strong>${counts.email}</strong> confirmed, <strong>${counts.pending}</strong> waiting for confirmation, <strong>${counts.webhook}</strong> ${noun(counts.webhook, 'webhook or chat channel', 'webhooks or chat channels')}: ${total} in all; ${limit}.</p>`
}

function subscriberTable(input: SubscribersViewInput): string {
  if (input.subscribers.length === 0) return '<p>No subscribers yet.</p>'
  const names = new Map(input.components.map((c) => [c.id, c.name]))
  const rows = input.subscribers.map((s) => {
    const address = s.email ?? s.url ?? ''
    const components = s.componentIds === null ? 'All' : s.componentIds.map((id) => names.get(id) ?? `#${id}`).join(', ')
    return html`<tr>
<td class="address">${address}</td><td>${s.kind === 'email' ? 'Email' : 'Webhook'}</td><td>${components}</td>
<td>${s.status === 'confirmed' ? 'Confirmed' : 'Pending'}</td><td>${SOURCE_LABELS[s.source] ?? s.source}</td>
<td class="actions">!${s.kind === 'webhook' ? html`<a href="/user/pages/${input.page.id}/subscribers/${s.id}" aria-label="Deliveries and signing secret of ${address}">Deliveries</a>` : ''}<form method="post" action="/user/pages/${input.page.id}/subscribers/${s.id}/remove"><button type="submit" class="danger" aria-label="Remove ${address}">Remove</button></form></td>
</tr>`
  })
  return html`<section class="scroll" tabindex="0" aria-label="Subscribers of ${input.page.name}"><table><caption class="visually-hidden">Subscribers of ${input.page.name}</caption>
<thead><tr><th scope="col">Address</th><th scope="col">Kind</th><th scope="col">Components</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">Actions</th></tr></thead>
<tbody>!${rows.join('')}</tbody></table></section>`
}

export function subscribersView(input: SubscribersViewInput): string {
  const { page } = input
  const id = String(page.id)
  const total = input.counts.email + input.counts.pending + input.counts.webhook
  const visitors = page.visibility === 'private'
    ? '<p>This page is private: visitors cannot subscribe themselves, and only subscribers you add or import get its updates.</p>'
    : input.mailEnabled
      ? html`<p>Visitors subscribe on <a href="${input.statusUrl}/subscribe">${input.statusUrl}/subscribe</a> and confirm by mail.</p>`
      : ''
  return html`<h1>Subscribers: ${page.name}</h1>
!${sectionNav(page, 'Subscribers')}
!${input.mailEnabled ? '' : '<p class="form-error" role="note">Mail is off on this Lantern instance (no SMTP settings): email subscribers get nothing and visitors cannot subscribe. Webhook subscribers still get their updates.</p>'}
<section class="card" aria-labelledby="list-heading">
  <h2 id="list-heading">Who gets updates</h2>
  !${countsLine(input.counts)}
  !${visitors}
  <p>Incidents and maintenance posted with "notify subscribers" reach them.</p>
  <form method="get" action="/user/api/v1/status-pages/${id}/subscribers/export"><button type="submit" class="secondary">Export all as CSV</button></form>
  !${subscriberTable(input)}
  !${total > input.subscribers.length ? html`<p class="muted">Showing the first ${input.subscribers.length}; the export has all ${total}.</p>` : ''}
</section>
<section class="card" aria-labelledby="add-heading">
  <h2 id="add-heading">Add a subscriber</h2>
  <p>People you add are subscribed at once, without a confirmation mail: add only those who asked for it.</p>
  !${errorSummary(input.addForm, { kind: 'Kind', email: 'Email address', url: 'Webhook URL', consent: 'Consent' })}
  !${formError(input.addForm)}
  <form method="post" action="/user/pages/${id}/subscribers" class="stack" novalidate>
    !${selectField({ name: 'kind', label: 'Kind', options: KIND_OPTIONS, state: input.addForm, fallback: 'email' })}
    !${textField({ name: 'email', label: 'Email address', type: 'email', autocomplete: 'off', hint: 'For email subscribers.', maxLength: 254, state: input.addForm })}
    !${textField({ name: 'url', label: 'Webhook URL', type: 'url', hint: 'For webhook subscribers: we POST JSON to it. For Slack or Teams: the channel\'s incoming webhook or Workflows URL.', maxLength: 2000, state: input.addForm })}
    !${checkboxField({ name: 'consent', label: 'This person agreed to get status updates of this page', state: input.addForm })}
    <button type="submit">Add subscriber</button>
  </form>
</section>
<section class="card" aria-labelledby="import-heading">
  <h2 id="import-heading">Import from CSV</h2>
  <p>A header row with an <code>email</code> column (or <code>url</code> for webhooks), optionally <code>type</code> and <code>components</code> (component ids separated by <code>;</code>). Every row is checked first: if any row is wrong, nothing is imported and each fault is listed. Addresses already subscribed are skipped. An export imports back as it is.</p>
  !${errorSummary(input.importForm, { csv: 'CSV', import_consent: 'Consent' })}
  !${formError(input.importForm)}
  <form method="post" action="/user/pages/${id}/subscribers/import" enctype="multipart/form-data" class="stack" novalidate>
    <div class="field"><label for="f-file">CSV file</label><input id="f-file" name="file" type="file" accept=".csv,text/csv"></div>
    !${textArea({ name: 'csv', label: 'Or paste the CSV', rows: 5, state: input.importForm })}
    !${checkboxField({ name: 'import_consent', label: 'Everyone in this file agreed to get status updates of this page', state: input.importForm })}
    <button type="submit">Import</button>
  </form>
</section>`
}

/** One webhook subscriber: its signing secret (shown once when new) and its delivery log. */
export function subscriberView(input: { page: StatusPage; subscriber: Subscriber; deliveries: readonly DeliveryEntry[] }): string {
  const { page, subscriber } = input
  const base = `/user/pages/${page.id}/subscribers/${subscriber.id}`
  const address = subscriber.email ?? subscriber.url ?? ''
  return html`<h1>Subscriber ${address}</h1>
!${subscriber.revealedSigningSecret ? signingSecretNotice(subscriber.revealedSigningSecret, 'Give it to whoever runs this receiver: it checks each request with it.') : ''}
!${subscriber.kind === 'webhook' ? signingSecretSection(`${base}/signing-secret`, undefined) : ''}
!${deliveryLogSection(input.deliveries, (delivery) => `${base}/deliveries/${delivery}/resend`)}
<p><a href="/user/pages/${page.id}/subscribers">All subscribers of ${page.name}</a></p>`
}
