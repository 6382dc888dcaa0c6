/**
 * The members and invitations screen of the team the browser acts in (views in
 * views/team-members.ts), on the TeamsService methods the API's /user/api/v1/team routes call:
 *
 *   GET  /user/team                              name, seats, members, pending invitations, invite form
 *   POST /user/team/invitations                  invite (mailed; with mail off the link is shown once)
 *   POST /user/team/invitations/:id/revoke       revoke a pending invitation
 *   POST /user/team/security                     require two-factor of every member, or not
 *   POST /user/team/sso-domain                   claim an email domain for single sign-on, with a role
 *   POST /user/team/sso-domain/release           release it
 *   POST /user/team/members/:user_id/role        change a member's role
 *   GET  /user/team/members/:user_id/remove      confirmation   POST same   remove (or leave)
 *
 * Reading needs `read`, every post `manage` (route-permissions.ts, as the API's team routes); the
 * service keeps the rest (owners, roles above one's own, the last owner, seats).
 */
import { Elysia, t } from 'elysia'
import { HttpError, notFound } from '../../lib/errors.ts'
import type { Owner } from '../../modules/accounts/service.ts'
import { roleLabel } from '../../modules/plans/roles.ts'
import { emptyForm, errorStatus, formFields, serviceErrorState, type FormState } from '../kit/forms.ts'
import type { Flash } from '../kit/flash.ts'
import { idParam, screens, type ScreenContext } from '../kit/guard.ts'
import { removeMemberView, TEAM_HEAD, teamMembersView } from '../views/team-members.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const IdPath = t.Object({ id: t.String() })
const UserIdPath = t.Object({ user_id: t.String() })
const CRUMBS = [{ label: 'Teams', href: '/user/teams' }, { label: 'Members' }]

/** A refusal of the service a screen answers on the page itself (others go to the error page). */
const isRefusal = (error: unknown): error is HttpError => error instanceof HttpError && [400, 403, 409].includes(error.status)

export function teamMemberScreens(deps: ScreenDeps<'accounts' | 'teams' | 'sso'>) {
  const { services, config } = deps
  const { teams } = services
  const sso = services.sso.available ? services.sso.providerName : undefined
  const screen = screens({ accounts: services.accounts, config })

  const teamPage = async (
    user: Owner,
    render: ScreenContext['render'],
    options: { form?: FormState; domainForm?: FormState; status?: number; flash?: Flash; created?: { email: string; link: string } } = {},
  ) => {
    const [team, members, invitations] = await Promise.all([teams.current(user), teams.members(user), teams.invitations(user)])
    const body = teamMembersView({ user, team, members, invitations, form: options.form ?? emptyForm(), created: options.created, sso, domainForm: options.domainForm })
    return render({ title: `Members of ${team.name}`, crumbs: CRUMBS, head: TEAM_HEAD, scripts: ['/static/user/copy.js'], flash: options.flash }, body, options.status)
  }

  const memberOf = async (user: Owner, raw: string | undefined) => {
    const userId = idParam(raw)
    const member = (await teams.members(user)).find((candidate) => candidate.userId === userId)
    if (!member) throw notFound('no such member')
    return member
  }

  return new Elysia()
    .get('/user/team', screen(({ user, render }) => teamPage(user, render)), {
      response: { 200: HtmlResponse },
      detail: detail('The team you act in: members, roles and invitations'),
    })
    .post(
      '/user/team/invitations',
      screen(async ({ user, body, render, redirect }) => {
        const fields = formFields(body)
        const values = { email: fields.email ?? '', role: fields.role ?? '' }
        try {
          const { invitation, link } = await teams.invite(user, values)
          if (link === null) return redirect('/user/team', `Invitation mailed to ${invitation.email}.`)
          const flash = { kind: 'notice' as const, text: `Invitation for ${invitation.email} made. Mail is off: copy its link and pass it on, it is shown only this once.` }
          return teamPage(user, render, { flash, created: { email: invitation.email, link } })
        } catch (error) {
          return teamPage(user, render, { form: serviceErrorState(error, { values, errors: {} }), status: errorStatus(error) })
        }
      }),
      { response: { 200: HtmlResponse, 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 409: HtmlResponse }, detail: detail('Invite someone to the team (form post)') },
    )
    .post(
      '/user/team/security',
      screen(async ({ user, body, render, redirect }) => {
        const on = ['on', 'true', '1'].includes(formFields(body).require_two_factor ?? '')
        try {
          await teams.setRequireTwoFactor(user, on)
        } catch (error) {
          if (!isRefusal(error)) throw error
          return teamPage(user, render, { flash: { kind: 'error', text: `Security settings not saved: ${error.message}.` }, status: error.status })
        }
        return redirect('/user/team', on ? `${user.teamName} requires two-factor sign-in of every member now.` : `Two-factor sign-in is up to each member of ${user.teamName} now.`)
      }),
      { response: { 303: t.Void(), 403: HtmlResponse, 409: HtmlResponse }, detail: detail('Require two-factor of every member, or not (form post)') },
    )
    .post(
      '/user/team/sso-domain',
      screen(async ({ user, body, render, redirect }) => {
        const fields = formFields(body)
        const values = { domain: fields.sso_domain ?? '', role: fields.sso_role ?? '' }
        try {
          const claim = await teams.setSsoDomain(user, values)
          return redirect('/user/team', `${user.teamName} claims ${claim.domain}: people signing in through single sign-on with it join as ${roleLabel(claim.role)}.`)
        } catch (error) {
          if (!isRefusal(error)) throw error
          // The service names `domain` and `role`; the form's fields are `sso_…` (the invite form has a `role`).
          const { errors } = serviceErrorState(error, { values, errors: {} })
          const domainForm: FormState = {
            values: { sso_domain: values.domain, sso_role: values.role },
            errors: Object.fromEntries(Object.entries(errors).map(([name, message]) => [name === '_form' ? name : `sso_${name}`, message])),
          }
          return teamPage(user, render, { domainForm, status: error.status })
        }
      }),
      {
        body: t.Object({ sso_domain: t.Optional(t.String({ maxLength: 300 })), sso_role: t.Optional(t.String({ maxLength: 20 })) }),
        response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 409: HtmlResponse },
        detail: detail('Claim an email domain for single sign-on (form post)'),
      },
    )
    .post(
      '/user/team/sso-domain/release',
      screen(async ({ user, redirect }) => {
        const claim = (await teams.current(user)).ssoDomain
        await teams.clearSsoDomain(user)
        return redirect('/user/team', claim ? `${claim.domain} released: nobody joins ${user.teamName} by it any more.` : 'No domain was claimed.')
      }),
      { response: { 303: t.Void(), 403: HtmlResponse }, detail: detail('Release the claimed email domain (form post)') },
    )
    .post(
      '/user/team/invitations/:id/revoke',
      screen(async ({ user, params, redirect }) => {
        const id = idParam(params.id)
        const invitation = (await teams.invitations(user)).find((candidate) => candidate.id === id)
        if (!invitation) throw notFound('no pending invitation with this id')
        await teams.revokeInvitation(user, id)
        return redirect('/user/team', `Invitation of ${invitation.email} revoked: its link no longer works.`)
      }),
      { params: IdPath, response: { 303: t.Void(), 403: HtmlResponse, 404: HtmlResponse }, detail: detail('Revoke a pending invitation (form post)') },
    )
    .post(
      '/user/team/members/:user_id/role',
      screen(async ({ user, params, body, render, redirect }) => {
        const member = await memberOf(user, params.user_id)
        try {
          const changed = await teams.setRole(user, member.userId, formFields(body).role ?? '')
          return redirect('/user/team', `${changed.email} is ${roleLabel(changed.role)} now.`)
        } catch (error) {
          if (!isRefusal(error)) throw error
          return teamPage(user, render, { flash: { kind: 'error', text: `${member.email} keeps the role ${roleLabel(member.role)}: ${error.message}.` }, status: error.status })
        }
      }),
      { params: UserIdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }, detail: detail("Change a member's role (form post)") },
    )
    .get(
      '/user/team/members/:user_id/remove',
      screen(async ({ user, params, render }) => {
        const member = await memberOf(user, params.user_id)
        const team = await teams.current(user)
        const self = member.userId === user.userId
        const crumbs = [{ label: 'Teams', href: '/user/teams' }, { label: 'Members', href: '/user/team' }, { label: self ? 'Leave' : 'Remove' }]
        return render({ title: self ? `Leave ${team.name}` : `Remove ${member.email}`, crumbs }, removeMemberView(member, team, self))
      }),
      { params: UserIdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('Remove a member: confirmation') },
    )
    .post(
      '/user/team/members/:user_id/remove',
      screen(async ({ user, params, render, redirect }) => {
        const member = await memberOf(user, params.user_id)
        const team = await teams.current(user)
        try {
          await teams.removeMember(user, member.userId)
        } catch (error) {
          if (!isRefusal(error)) throw error
          return teamPage(user, render, { flash: { kind: 'error', text: `${member.email} stays in the team: ${error.message}.` }, status: error.status })
        }
        if (member.userId === user.userId) return redirect('/user/teams', `You left ${team.name}.`)
        return redirect('/user/team', `${member.email} removed from ${team.name}.`)
      }),
      { params: UserIdPath, response: { 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 409: HtmlResponse }, detail: detail('Remove a member, or leave the team (form post)') },
    )
}
