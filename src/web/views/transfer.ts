/**
 * The transfer screens: the owner's card on the settings screen (pending notice with Cancel, or a
 * link to start), the start form (recipient address + own password), and the recipient's offer
 * (page, counts, what moves) with Accept and Decline.
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import type { Transfer, TransferOffer } from '../../modules/transfers/service.ts'
import { WHAT_MOVES, WHAT_STAYS } from '../../modules/transfers/mails.ts'
import { errorSummary, formError, textField, type FormState } from '../kit/forms.ts'
import { sectionNav } from './pages.ts'

const LABELS: Record<string, string> = { email: "Recipient's email", password: 'Your password' }

function pendingNotice(page: StatusPage, transfer: Transfer): string {
  return html`<div class="transfer-pending" role="status">
  <p><strong>Transfer pending</strong> to ${transfer.toEmail}, started ${formatDateTime(transfer.createdAt)}, expires ${formatDateTime(transfer.expiresAt)}.</p>
  <form method="post" action="/user/pages/${String(page.id)}/transfer/cancel" class="inline"><button type="submit" class="secondary">Cancel transfer</button></form>
</div>`
}

/** The card at the foot of the settings screen. */
export function transferSettingsCard(page: StatusPage, pending: Transfer | null): string {
  const body = pending
    ? pendingNotice(page, pending)
    : html`<p>Hand this page, with its components, monitors, history, subscribers and domain, to another Lantern account.</p>
<p><a class="button" href="/user/pages/${String(page.id)}/transfer">Transfer this page…</a></p>`
  return html`<section class="card" aria-labelledby="transfer-heading"><h2 id="transfer-heading">Transfer ownership</h2>!${body}</section>`
}

const movesList = () => html`<h3>What moves</h3><ul>!${WHAT_MOVES.map((item) => html`<li>${item}</li>`).join('')}</ul>
<h3>What does not move</h3><ul>!${WHAT_STAYS.map((item) => html`<li>${item}</li>`).join('')}</ul>`

export function transferStartView(page: StatusPage, pending: Transfer | null, form: FormState, mailEnabled: boolean): string {
  const mailOff = mailEnabled
    ? ''
    : html`<p class="error" role="note">Mail is off on this server (no SMTP settings): the recipient gets no link. An administrator can complete a pending transfer with <code>lantern page transfer --email RECIPIENT --id ${String(page.id)} --accept</code>.</p>`
  const body = pending
    ? pendingNotice(page, pending)
    : html`!${errorSummary(form, LABELS)}
<form method="post" action="/user/pages/${String(page.id)}/transfer" class="stack" novalidate>
  !${textField({ name: 'email', label: LABELS.email!, type: 'email', autocomplete: 'off', required: true, maxLength: 320, hint: 'It must belong to an account on this Lantern. For privacy, the answer is the same either way.', state: form })}
  !${textField({ name: 'password', label: LABELS.password!, type: 'password', autocomplete: 'current-password', required: true, hint: 'To confirm it is you.', state: form })}
  <button type="submit">Send transfer invitation</button>
</form>`
  return html`<h1>Transfer: ${page.name}</h1>
!${sectionNav(page, 'Settings')}
<section class="card" aria-labelledby="start-heading">
  <h2 id="start-heading">Transfer ownership</h2>
  <p>The recipient gets a mail with a link. The page moves only when they accept, within 7 days; until then you can cancel.</p>
  !${mailOff}
  !${body}
</section>
<section class="card" aria-labelledby="moves-heading"><h2 id="moves-heading">What the recipient gets</h2>!${movesList()}</section>`
}

const STATUS_TEXT: Record<string, string> = {
  accepted: 'This transfer was accepted.',
  declined: 'This transfer was declined.',
  cancelled: 'This transfer was cancelled by the owner.',
  expired: 'This transfer has expired.',
}

export function transferOfferView(offer: TransferOffer, token: string, form: FormState): string {
  const decided = offer.status !== 'pending'
  const actions = decided
    ? html`<p role="status">${STATUS_TEXT[offer.status] ?? ''}</p>`
    : html`!${formError(form)}
<div class="actions">
  <form method="post" action="/user/transfers/${token}/accept" class="inline"><button type="submit">Accept transfer</button></form>
  <form method="post" action="/user/transfers/${token}/decline" class="inline"><button type="submit" class="secondary">Decline</button></form>
</div>`
  return html`<h1>Transfer of ${offer.pageName}</h1>
<section class="card" aria-labelledby="offer-heading">
  <h2 id="offer-heading">${offer.fromEmail} offers you this status page</h2>
  <dl class="facts">
    <dt>Page</dt><dd>${offer.pageName} (${offer.pageSlug})</dd>
    <dt>Monitors</dt><dd>${String(offer.monitorCount)}</dd>
    <dt>Components</dt><dd>${String(offer.componentCount)}</dd>
    <dt>Subscribers</dt><dd>${String(offer.subscriberCount)}</dd>
    <dt>Custom domain</dt><dd>${offer.customDomain ?? 'None'}</dd>
    <dt>Visibility</dt><dd>${offer.visibility === 'private' ? 'Private' : 'Public'}</dd>
    <dt>Offer expires</dt><dd>${formatDateTime(offer.expiresAt)}</dd>
  </dl>
  !${actions}
</section>
<section class="card" aria-labelledby="moves-heading"><h2 id="moves-heading">What comes with it</h2>!${movesList()}</section>`
}
