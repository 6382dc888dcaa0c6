/**
 * The teams screen: the teams a person belongs to with their role there, which one the browser
 * acts in (and a button to act in another), and a form to create a shared team.
 */
import { html } from '../../lib/html.ts'
import { roleLabel } from '../../modules/plans/roles.ts'
import type { Team } from '../../modules/teams/service.ts'
import { errorSummary, textField, type FormState } from '../kit/forms.ts'

export function teamsView(teams: readonly Team[], actingId: number, form: FormState): string {
  const rows = teams.map((team) => {
    const acting = team.id === actingId
    const action = acting
      ? html`<span class="badge ok">Acting in it</span>`
      : html`<form method="post" action="/user/teams/${String(team.id)}/choose" class="inline"><button type="submit" class="secondary">Act in ${team.name}</button></form>`
    return html`<tr><th scope="row">${team.name}!${team.personal ? ' <span class="muted">(personal)</span>' : ''}</th><td>${roleLabel(team.role)}</td><td>!${action}</td></tr>`
  })
  return html`<h1>Teams</h1>
<section class="card" aria-labelledby="teams-heading">
  <h2 id="teams-heading">Your teams</h2>
  <p>Pages, monitors and channels belong to a team. The screens show the team you act in; your role there decides what you may change.</p>
  <p><a href="/user/team">Members and invitations</a> of the team you act in: roles, invite people, remove a member.</p>
  <section class="scroll" tabindex="0" aria-label="Teams you belong to"><table><caption class="visually-hidden">Teams you belong to</caption>
    <thead><tr><th scope="col">Team</th><th scope="col">Your role</th><th scope="col">Acting</th></tr></thead>
    <tbody>!${rows.join('')}</tbody>
  </table></section>
</section>
<section class="card" aria-labelledby="new-team-heading">
  <h2 id="new-team-heading">Create a team</h2>
  <p>A shared team on the plan of the team you act in, with you as its owner. Act in it, then invite people on its <a href="/user/team">Members</a> screen.</p>
  !${errorSummary(form, { name: 'Team name' })}
  <form method="post" action="/user/teams">
    !${textField({ name: 'name', label: 'Team name', state: form, required: true, maxLength: 100 })}
    <button type="submit">Create team</button>
  </form>
</section>`
}
