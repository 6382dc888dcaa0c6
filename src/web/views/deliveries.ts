/**
 * What webhook channels and webhook subscribers share on their screens (pure): the delivery log
 * with "Send again", the signing secret shown once, and the button that makes a new one.
 */
import { html } from '../../lib/html.ts'
import { DELIVERY_LOG_RETENTION_DAYS, type DeliveryEntry } from '../../modules/notify/delivery-log.ts'

const when = (ms: number | null) => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC')

const STATUS_WORDS = { queued: 'Waiting', sent: 'Delivered', dead: 'Gave up' } as const

function row(entry: DeliveryEntry, resendAction: (id: number) => string): string {
  const status = entry.status === 'queued' && entry.attempts > 0 ? 'Failed, will retry' : STATUS_WORDS[entry.status]
  const again =
    entry.status === 'queued'
      ? ''
      : html`<form method="post" action="${resendAction(entry.id)}"><button type="submit" class="secondary" aria-label="Send again: delivery ${String(entry.id)}">Send again</button></form>`
  return html`<tr>
<td>${when(entry.queuedAt)}!${entry.resendOf !== null ? html`<br><small>again, of ${String(entry.resendOf)}</small>` : ''}</td>
<td>${entry.what ?? '—'}</td>
<td>${status}</td>
<td>${entry.statusCode === null ? '—' : String(entry.statusCode)}</td>
<td>${entry.latencyMs === null ? '—' : `${entry.latencyMs} ms`}</td>
<td>${String(entry.attempts)}</td>
<td>${when(entry.lastAttemptAt)}</td>
<td>${when(entry.nextAttemptAt)}</td>
<td>${entry.error ?? ''}</td>
<td>!${again}</td>
</tr>`
}

/** The delivery log: newest first, with "Send again" on the finished ones. */
export function deliveryLogSection(entries: readonly DeliveryEntry[], resendAction: (id: number) => string): string {
  const table =
    entries.length === 0
      ? html`<p>Nothing sent yet.</p>`
      : html`<div class="scroll"><table class="deliveries"><caption class="visually-hidden">Deliveries, newest first</caption>
<thead><tr><th scope="col">Queued</th><th scope="col">What</th><th scope="col">Status</th><th scope="col">HTTP status</th><th scope="col">Latency</th><th scope="col">Attempts</th><th scope="col">Last attempt</th><th scope="col">Next retry</th><th scope="col">Error</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>!${entries.map((entry) => row(entry, resendAction)).join('')}</tbody></table></div>`
  return html`<section class="card" aria-labelledby="deliveries-heading">
  <h2 id="deliveries-heading">Delivery log</h2>
  <p class="hint">The latest deliveries, newest first; finished ones are kept ${String(DELIVERY_LOG_RETENTION_DAYS)} days. "Send again" queues the same message (same body and <code>webhook-id</code>) once more.</p>
  !${table}
</section>`
}

/** A new signing secret, shown once: in the answer that made it. */
export function signingSecretNotice(secret: string, forWhom: string): string {
  return html`<section class="card signing-secret" aria-labelledby="secret-heading">
  <h2 id="secret-heading">Signing secret</h2>
  <p>${forWhom} <strong>It is shown only now</strong>: copy it.</p>
  <p><code class="secret">${secret}</code></p>
</section>`
}

/** The "New signing secret" button, with what it does. */
export function signingSecretSection(action: string, masked: string | undefined): string {
  return html`<section class="card" aria-labelledby="signing-heading">
  <h2 id="signing-heading">Signatures</h2>
  <p>Every request carries the Standard Webhooks headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>, signed with the secret!${masked ? html` <code>${masked}</code>` : ''}. See the <a href="/docs/notifications">guide</a> for how to check them.</p>
  <form method="post" action="${action}" class="inline"><button type="submit" class="secondary">New signing secret</button></form>
  <p class="hint">The new secret replaces the old one at once, for retries too.</p>
</section>`
}
