/**
 * The members and invitations screen of the acting team: its name and seats, its Security card
 * (requiring two-factor of members), the members with their role, two-factor and since when, the
 * pending invitations, and the invite form; the link of an
 * invitation made with mail off, shown once; the removal confirmation. Buttons appear only where
 * the viewer's role allows them (admins and owners; only an owner touches owners, nobody grants
 * above their own role, the last owner and a personal team's account stay owners). The server
 * refuses the rest anyway (route-permissions.ts and TeamsService).
 */
import { html } from '../../lib/html.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { planLabel } from '../../modules/plans/matrix.ts'
import { roleLabel, roleMay, rolesUpTo, roleSummary, teamSecurityAllowed, type Role } from '../../modules/plans/roles.ts'
import { TEAM_SECURITY_PLANS, type Invitation, type Member, type SsoDomainClaim, type Team } from '../../modules/teams/service.ts'
import { checkboxField, emptyForm, errorSummary, selectField, textField, type FormState } from '../kit/forms.ts'
import { when } from './account.ts'

export const TEAM_HEAD = '<link rel="stylesheet" href="/static/user/account.css">'

export interface TeamScreenInput {
  user: Owner
  team: Team & { seats: { used: number; limit: number | null }; personalOf: number | null; ssoDomain: SsoDomainClaim | null }
  members: readonly Member[]
  invitations: readonly Invitation[]
  form: FormState
  /** The link of the invitation just made with mail off (shown this once). */
  created?: { email: string; link: string }
  /** Single sign-on is set up on this Lantern, with this provider's name; undefined: it is not. */
  sso?: string | undefined
  /** The domain form's values and errors after a refused save. */
  domainForm?: FormState
}

const LABELS = { email: 'Email address', role: 'Role' }

type ViewInput = TeamScreenInput & { manage: boolean }

/** The roles `user` may grant: none above their own. */
const grantable = (user: Owner): Role[] => rolesUpTo(user.role)

/** What `user` may do to `member`, as the service decides it. */
function controls(user: Owner, member: Member, input: ViewInput): { change: boolean; remove: boolean; note?: string } {
  if (!roleMay(user.role, 'manage')) return { change: false, remove: false }
  if (member.role === 'owner' && user.role !== 'owner') return { change: false, remove: false }
  if (input.team.personalOf === member.userId) return { change: false, remove: false, note: 'Its personal team: stays owner' }
  const owners = input.members.filter((m) => m.role === 'owner').length
  if (member.role === 'owner' && owners <= 1) return { change: false, remove: false, note: 'Last owner' }
  return { change: true, remove: true }
}

function memberRow(member: Member, input: ViewInput): string {
  const { user } = input
  const can = controls(user, member, input)
  const you = member.userId === user.userId
  const id = `role-${member.userId}`
  const roleForm = can.change
    ? html`<form method="post" action="/user/team/members/${String(member.userId)}/role" class="inline">
  <label class="visually-hidden" for="${id}">Role of ${member.email}</label>
  <select id="${id}" name="role">!${grantable(user)
    .map((role) => html`<option value="${role}"!${role === member.role ? ' selected' : ''}>${roleLabel(role)}</option>`)
    .join('')}</select>
  <button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${member.email}</span></button>
</form>`
    : ''
  const remove = can.remove
    ? html`<a class="button" href="/user/team/members/${String(member.userId)}/remove">${you ? 'Leave' : 'Remove'}<span class="visually-hidden"> ${member.email}</span></a>`
    : ''
  const note = can.note ? html`<span class="muted">${can.note}</span>` : ''
  const actions = [roleForm, remove, note].filter(Boolean).join('')
  return html`<tr>
  <td>${member.email}!${you ? ' <span class="muted">(you)</span>' : ''}</td>
  <td>${roleLabel(member.role)}</td>
  <td>${member.twoFactor ? 'On' : 'Off'}</td>
  <td>!${when(member.joinedAt)}</td>
  !${input.manage ? html`<td><div class="member-actions">!${actions}</div></td>` : ''}
</tr>`
}

function invitationRow(invitation: Invitation, manage: boolean): string {
  const revoke = html`<form method="post" action="/user/team/invitations/${String(invitation.id)}/revoke" class="inline">
  <button type="submit" class="secondary">Revoke<span class="visually-hidden"> the invitation of ${invitation.email}</span></button>
</form>`
  return html`<tr>
  <td>${invitation.email}</td>
  <td>${roleLabel(invitation.role)}</td>
  <td>!${when(invitation.expiresAt)}</td>
  !${manage ? html`<td>!${revoke}</td>` : ''}
</tr>`
}

/** The invitation link made with mail off, shown this once with a copy button (copy.js reveals it). */
function linkPanel(created: { email: string; link: string }): string {
  return html`<section class="card new-key" aria-labelledby="new-link-heading">
  <h2 id="new-link-heading">Invitation link for ${created.email}</h2>
  <p><strong>Mail is off: pass this link on yourself.</strong> It is shown this once (only its hash is kept), works once and for 7 days, and only for an account with this address.</p>
  <div class="row">
    <label class="visually-hidden" for="new-link">Invitation link for ${created.email}</label>
    <input id="new-link" type="text" readonly value="${created.link}" autocomplete="off" spellcheck="false">
    <button type="button" data-copy="new-link" hidden>Copy</button>
  </div>
  <p id="new-link-status" role="status" class="hint"></p>
</section>`
}

/**
 * The team's security settings: requiring two-factor of every member. Admins and owners on a plan
 * that has it change it; everyone else reads its state (and, on another plan, which plans have it).
 */
function securityCard(input: ViewInput): string {
  const { team, members } = input
  const allowed = teamSecurityAllowed(team.plan)
  const state = team.requireTwoFactor
    ? 'Every member must have two-factor sign-in on to act in this team; a member without it is asked to turn it on first.'
    : 'Two-factor sign-in is up to each member.'
  const without = members.filter((member) => !member.twoFactor).length
  const who = without === 0 ? 'Every member has two-factor on.' : `${without} member${without === 1 ? ' has' : 's have'} two-factor off (see Two-factor in the members below): they will be asked to turn it on.`
  const selfWithout = input.manage && allowed && !team.requireTwoFactor && members.some((member) => member.userId === input.user.userId && !member.twoFactor)
  const first = selfWithout ? html`<p>To require it, first turn on <a href="/user/two-factor">two-factor sign-in</a> for your own account.</p>` : ''
  const plan = allowed ? '' : html`<p>Requiring two-factor of members comes with the ${TEAM_SECURITY_PLANS} plans; this team is on ${planLabel(team.plan)}.</p>`
  const form =
    input.manage && (allowed || team.requireTwoFactor)
      ? html`<form method="post" action="/user/team/security" class="stack">
    !${checkboxField({ name: 'require_two_factor', label: 'Require two-factor sign-in for every member', hint: 'API keys are not subject to two-factor. To turn it on, have two-factor on yourself.', state: emptyForm({ require_two_factor: team.requireTwoFactor ? 'on' : '' }) })}
    <button type="submit">Save security settings</button>
  </form>`
      : ''
  return html`<section class="card" aria-labelledby="security-heading">
  <h2 id="security-heading">Security</h2>
  <p>${state}!${team.requireTwoFactor || input.manage ? html` ${who}` : ''}</p>
  !${plan}
  !${first}
  !${form}
  !${domainPart(input)}
</section>`
}

const DOMAIN_LABELS = { sso_domain: 'Email domain', sso_role: 'Role of people joining by it' }

/**
 * The team's claim of an email domain for single sign-on: who signs in through it with a verified
 * address of the domain joins with the role. Admins and owners of a shared team change it.
 */
function domainPart(input: ViewInput): string {
  const { team, user } = input
  const claim = team.ssoDomain
  const provider = input.sso === undefined
    ? html`<p>Single sign-on is not set up on this Lantern (its administrator sets it up with the <code>OIDC_*</code> settings): a claimed domain takes effect once it is.</p>`
    : ''
  const state = claim
    ? html`<p>This team claims <strong>${claim.domain}</strong>: whoever signs in through single sign-on!${input.sso ? html` (${input.sso})` : ''} with a verified address at ${claim.domain} joins it as ${roleLabel(claim.role)}, while a seat is free.</p>`
    : html`<p>No email domain is claimed: people join only by invitation.</p>`
  if (!input.manage) return html`<h3>Single sign-on domain</h3>!${state}`
  if (team.personal) return html`<h3>Single sign-on domain</h3>!${state}<p>A personal team claims no domain: <a href="/user/teams">create a team</a> to claim one there.</p>`
  const form = input.domainForm ?? emptyForm({ sso_domain: claim?.domain ?? '', sso_role: claim?.role ?? '' })
  const roles = grantable(user).filter((role) => role !== 'owner')
  const release = claim
    ? html`<form method="post" action="/user/team/sso-domain/release" class="inline">
    <button type="submit" class="secondary">Release ${claim.domain}</button>
  </form>`
    : ''
  return html`<h3>Single sign-on domain</h3>
  !${state}
  !${provider}
  !${errorSummary(form, DOMAIN_LABELS)}
  <form method="post" action="/user/team/sso-domain" class="stack" novalidate>
    !${textField({ name: 'sso_domain', label: DOMAIN_LABELS.sso_domain, hint: 'Only the domain of your own address, unless you administer this Lantern. A domain belongs to one team.', autocomplete: 'off', required: true, maxLength: 253, state: form })}
    !${selectField({ name: 'sso_role', label: DOMAIN_LABELS.sso_role, hint: 'Never owner, none above your own role.', options: roles.map((role) => ({ value: role, label: `${roleLabel(role)}: ${roleSummary(role)}` })), required: true, state: form, fallback: 'viewer' })}
    <button type="submit">Save domain</button>
  </form>
  !${release}`
}

export function teamMembersView(raw: TeamScreenInput): string {
  const input: ViewInput = { ...raw, manage: roleMay(raw.user.role, 'manage') }
  const { team, members, invitations, form, user } = input
  const seats = team.seats.limit === null ? `${team.seats.used} used, no limit` : `${team.seats.used} of ${team.seats.limit} used`
  const actionHead = input.manage ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''
  const memberList = html`<section class="scroll" tabindex="0" aria-label="Members of ${team.name}"><table><caption class="visually-hidden">Members of ${team.name}</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Two-factor</th><th scope="col">Since</th>!${actionHead}</tr></thead>
<tbody>!${members.map((member) => memberRow(member, input)).join('')}</tbody></table></section>`
  const invitationList =
    invitations.length === 0
      ? html`<p>No pending invitations.</p>`
      : html`<section class="scroll" tabindex="0" aria-label="Invitations waiting for an answer"><table><caption class="visually-hidden">Pending invitations</caption>
<thead><tr><th scope="col">Address</th><th scope="col">Role</th><th scope="col">Expires</th>!${actionHead}</tr></thead>
<tbody>!${invitations.map((invitation) => invitationRow(invitation, input.manage)).join('')}</tbody></table></section>`
  const inviteForm = input.manage
    ? html`<section class="card" aria-labelledby="invite-heading">
  <h2 id="invite-heading">Invite someone</h2>
  <p>!${team.personal ? 'This is a personal team: to share pages, <a href="/user/teams">create a team</a> and invite people there. ' : ''}The invitation is a single-use link valid 7 days, for an account with this address; a pending invitation takes a seat.</p>
  !${errorSummary(form, LABELS)}
  <form method="post" action="/user/team/invitations" class="stack" novalidate>
    !${textField({ name: 'email', label: LABELS.email, type: 'email', autocomplete: 'off', required: true, maxLength: 320, state: form })}
    !${selectField({ name: 'role', label: LABELS.role, hint: 'None above your own role.', options: grantable(user).map((role) => ({ value: role, label: `${roleLabel(role)}: ${roleSummary(role)}` })), required: true, state: form, fallback: 'viewer' })}
    <button type="submit">Send invitation</button>
  </form>
</section>`
    : ''
  return html`<h1>Members of ${team.name}</h1>
!${input.created ? linkPanel(input.created) : ''}
<section class="card" aria-labelledby="team-heading">
  <h2 id="team-heading">Team</h2>
  <dl class="facts">
    <dt>Name</dt><dd>${team.name}!${team.personal ? ' <span class="muted">(personal)</span>' : ''}</dd>
    <dt>Your role</dt><dd>${roleLabel(user.role)}: ${roleSummary(user.role)}</dd>
    <dt>Seats</dt><dd>${seats} <span class="muted">(members and pending invitations)</span></dd>
  </dl>
  <p><a href="/user/teams">Your teams</a>: act in another team there.!${input.manage ? ' <a href="/user/team/audit">Audit log</a>: who changed what in this team.' : ''}</p>
</section>
!${securityCard(input)}
<section class="card" aria-labelledby="members-heading">
  <h2 id="members-heading">Members</h2>
  !${input.manage ? '' : html`<p>Your role (${roleLabel(user.role)}) reads the members; admins and owners change them.</p>`}
  !${memberList}
</section>
<section class="card" aria-labelledby="invitations-heading">
  <h2 id="invitations-heading">Pending invitations</h2>
  !${invitationList}
</section>
!${inviteForm}`
}

export function removeMemberView(member: Member, team: Team, self: boolean): string {
  const title = self ? `Leave ${team.name}?` : `Remove ${member.email}?`
  const consequence = self
    ? html`You stop acting in ${team.name} at once, in every browser and with every API key; to come back you need a new invitation.`
    : html`${member.email} stops acting in ${team.name} at once: their sessions and API keys no longer reach its pages. To bring them back, invite them again.`
  return html`<h1>${title}</h1>
<section class="card danger">
  <p>!${consequence}</p>
  <form method="post" action="/user/team/members/${String(member.userId)}/remove">
    <button type="submit" class="danger">${self ? 'Leave team' : 'Remove member'}</button>
    <a href="/user/team">Cancel</a>
  </form>
</section>`
}
