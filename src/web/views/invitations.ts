/**
 * The screen of an invitation's link: which team, with which role, until when, and Accept; or why
 * it can no longer be accepted.
 */
import { formatDateTime } from '../../lib/human-time.ts'
import { html } from '../../lib/html.ts'
import { roleLabel, roleSummary } from '../../modules/plans/roles.ts'
import type { InvitationOffer } from '../../modules/teams/service.ts'
import { formError, type FormState } from '../kit/forms.ts'

export function invitationView(offer: InvitationOffer, token: string, form: FormState): string {
  const actions = offer.closed
    ? html`<p role="status">${sentence(offer.closed)}</p>`
    : html`!${formError(form)}
<form method="post" action="/user/invitations/${token}/accept" class="inline"><button type="submit">Join ${offer.teamName}</button></form>`
  return html`<h1>Join ${offer.teamName}</h1>
<section class="card" aria-labelledby="invitation-heading">
  <h2 id="invitation-heading">You are invited to the team ${offer.teamName}</h2>
  <dl class="facts">
    <dt>Role</dt><dd>${roleLabel(offer.role)}: ${roleSummary(offer.role)}</dd>
    <dt>Invitation expires</dt><dd>${formatDateTime(offer.expiresAt)}</dd>
  </dl>
  <p>Your own team and its pages stay yours. Once you join, choose the team you act in from your account.</p>
  !${actions}
</section>`
}

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
