/**
 * Teams in the management API: the person's teams (create, list), the acting team (its seats, its
 * setting requiring two-factor of members, its claimed email domain for single sign-on, its members
 * and their roles, invitations) and joining by an invitation's token. The acting team is
 * the API key's (or the session's choice); the role matrix decides who may call what
 * (accounts/route-permissions.ts), the service the rules beyond it.
 */
import { Elysia, t, type Static } from 'elysia'
import { conflictResponse, errorResponses, IdParams, modelRef, namedModels, sharedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import type { Invitation, Member, SsoDomainClaim, Team, TeamsService } from './service.ts'

const RoleSchema = t.Union([t.Literal('owner'), t.Literal('admin'), t.Literal('editor'), t.Literal('responder'), t.Literal('viewer')], { description: 'owner, admin, editor, responder or viewer (see the permission matrix in the teams guide)' })

const TeamJson = t.Object({
  id: t.Integer(),
  name: t.String({ examples: ['Acme operations'] }),
  plan: t.Union([t.Literal('free'), t.Literal('pro'), t.Literal('growth'), t.Literal('business'), t.Literal('oss_hero'), t.Literal('enterprise')]),
  personal: t.Boolean({ description: 'The personal team of an account: it keeps its account as owner' }),
  role: RoleSchema,
  require_two_factor: t.Boolean({ description: 'Members signed in to the web app or the API by a session must have two-factor on to act in the team (API keys are not subject to two-factor)' }),
})
const MemberJson = t.Object({
  user_id: t.Integer(),
  email: t.String({ examples: ['ops@example.com'] }),
  role: RoleSchema,
  joined_at: t.String({ description: 'RFC 3339' }),
  two_factor: t.Boolean({ description: 'Their two-factor sign-in is on: a team that requires it lets them act' }),
})
const InvitationJson = t.Object({
  id: t.Integer(),
  email: t.String({ examples: ['new.colleague@example.com'] }),
  role: RoleSchema,
  created_at: t.String({ description: 'RFC 3339' }),
  expires_at: t.String({ description: 'RFC 3339: 7 days after it was made' }),
})

const SsoDomainJson = t.Object({
  domain: t.String({ examples: ['example.com'], description: 'The email domain, lower case (an international name as punycode)' }),
  role: RoleSchema,
})

const CurrentTeamJson = t.Composite([
  TeamJson,
  t.Object({
    seats: t.Object({ used: t.Integer({ description: 'Members and pending invitations' }), limit: t.Nullable(t.Integer({ description: 'Seats of the plan; null: no limit' })) }),
    sso_domain: t.Nullable(SsoDomainJson, { description: 'The email domain the team claimed: people signing in through single sign-on with a verified address of it join with its role; null: none' }),
  }),
])

const teamModels = namedModels({ Team: TeamJson, CurrentTeam: CurrentTeamJson, TeamMember: MemberJson, TeamInvitation: InvitationJson, TeamSsoDomain: SsoDomainJson })
const TeamRef = modelRef(teamModels, 'Team')
const CurrentTeamRef = modelRef(teamModels, 'CurrentTeam')
const SsoDomainRef = modelRef(teamModels, 'TeamSsoDomain')
const MemberRef = modelRef(teamModels, 'TeamMember')
const InvitationRef = modelRef(teamModels, 'TeamInvitation')

const teamJson = (team: Team): Static<typeof TeamJson> => ({ id: team.id, name: team.name, plan: team.plan, personal: team.personal, role: team.role, require_two_factor: team.requireTwoFactor })
const memberJson = (member: Member): Static<typeof MemberJson> => ({
  user_id: member.userId,
  email: member.email,
  role: member.role,
  joined_at: toIso(member.joinedAt),
  two_factor: member.twoFactor,
})
const invitationJson = (invitation: Invitation): Static<typeof InvitationJson> => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  created_at: toIso(invitation.createdAt),
  expires_at: toIso(invitation.expiresAt),
})

const currentJson = (team: Team & { seats: { used: number; limit: number | null }; ssoDomain: SsoDomainClaim | null }): Static<typeof CurrentTeamJson> => ({
  ...teamJson(team),
  seats: team.seats,
  sso_domain: team.ssoDomain,
})

const UserIdParams = t.Object({ user_id: IdParams.properties.id })
const TokenParams = t.Object({ token: t.String({ maxLength: 100, description: 'The token of the invitation link' }) })
const NO_STORE = { 'cache-control': 'no-store' }

export function teamsRoutes(deps: { accounts: AccountsService; teams: TeamsService }) {
  const { accounts, teams } = deps
  const detail = (summary: string, description: string) => ({ tags: ['Teams'], summary, description, security: apiKeySecurity })
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(teamModels)
    .use(ownerAuth(accounts))
    .get(
      '/teams',
      async ({ owner }) => {
        const list = (await teams.teamsOf(owner)).map(teamJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(TeamRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your teams', 'Every team you are a member of, with your role there, oldest first; your personal team among them.'),
      },
    )
    .post(
      '/teams',
      async ({ owner, body, status }) => status(201, { data: teamJson(await teams.create(owner, body.name)) }),
      {
        body: t.Object({ name: t.String({ minLength: 1, maxLength: 100, examples: ['Acme operations'], error: 'name must be 1 to 100 characters' }) }),
        response: { 201: t.Object({ data: TeamRef }), ...errorResponses },
        detail: detail('Create a team', 'A shared team on the plan of the team you act in, with you as its owner. An API key keeps acting in the team it was made in: make a key in the new team from a session to use it through the API.'),
      },
    )
    .post(
      '/invitations/:token/accept',
      async ({ owner, params }) => ({ data: teamJson(await teams.accept(owner, params.token)) }),
      {
        params: TokenParams,
        response: { 200: t.Object({ data: TeamRef }), 410: 'Error', ...errorResponses, ...conflictResponse },
        detail: detail('Accept an invitation', 'You join the invitation\'s team with its role. The invitation is for its address: another account\'s token is 404, as an unknown one. Used, revoked or expired: 410. Each link works once.'),
      },
    )
    .get(
      '/team',
      async ({ owner }) => ({ data: currentJson(await teams.current(owner)) }),
      {
        response: { 200: t.Object({ data: CurrentTeamRef }), ...errorResponses },
        detail: detail('The team you act in', 'Its plan, your role, whether it requires two-factor of its members, and its seats (members and pending invitations count; the plan sets the limit).'),
      },
    )
    .patch(
      '/team',
      async ({ owner, body }) => {
        await teams.setRequireTwoFactor(owner, body.require_two_factor)
        return { data: currentJson(await teams.current(owner)) }
      },
      {
        body: t.Object(
          { require_two_factor: t.Boolean({ description: 'true: every member acting by a session must have two-factor on (a member without it is refused until they turn it on); false: optional' }) },
          { examples: [{ require_two_factor: true }] },
        ),
        response: { 200: t.Object({ data: CurrentTeamRef }), ...errorResponses, ...conflictResponse },
        detail: detail(
          'Change the team\'s settings',
          'Admins and owners. `require_two_factor` comes with the Business, OSS Hero and Enterprise plans (403 on another plan, naming it). Whoever turns it on must have two-factor on themselves (409 until they do), so nobody locks themselves out. From the next request on, a member without two-factor acting by a session is refused (403) and sent to enrol in the web app; API keys are not subject to two-factor. A personal team may require it too.',
        ),
      },
    )
    .put(
      '/team/sso-domain',
      async ({ owner, body }) => ({ data: await teams.setSsoDomain(owner, body) }),
      {
        body: t.Object(
          {
            domain: t.String({ maxLength: 300, examples: ['example.com'], description: 'An email domain: example.com (a leading @ and upper case are fine)' }),
            role: t.Union([t.Literal('admin'), t.Literal('editor'), t.Literal('responder'), t.Literal('viewer')], { description: 'The role people joining by the domain get: admin, editor, responder or viewer (never owner), none above yours' }),
          },
          { examples: [{ domain: 'example.com', role: 'viewer' }] },
        ),
        response: { 200: t.Object({ data: SsoDomainRef }), ...errorResponses, ...conflictResponse },
        detail: detail(
          'Claim an email domain for single sign-on',
          'Admins and owners of a shared team. From now on, whoever signs in through the instance\'s single sign-on with a verified address of this domain and is not a member joins the team with `role`, while a seat is free (a full team lets them sign in without joining). Replaces the team\'s earlier claim. The domain must be that of your own address unless you administer this Lantern (403). A domain belongs to one team at most, and a personal team claims none (409). Owner, or a role above yours: 400.',
        ),
      },
    )
    .delete(
      '/team/sso-domain',
      async ({ owner }) => {
        await teams.clearSsoDomain(owner)
        return { data: currentJson(await teams.current(owner)) }
      },
      {
        response: { 200: t.Object({ data: CurrentTeamRef }), ...errorResponses },
        detail: detail('Release the claimed email domain', 'Admins and owners. Nobody joins by the domain any more; members who joined by it stay. Answers the team (its `sso_domain` is null); releasing when nothing is claimed changes nothing.'),
      },
    )
    .get(
      '/team/members',
      async ({ owner, set }) => {
        Object.assign(set.headers, NO_STORE)
        const list = (await teams.members(owner)).map(memberJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(MemberRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List the members', 'Everyone in the team you act in, with their role, oldest member first.'),
      },
    )
    .patch(
      '/team/members/:user_id',
      async ({ owner, params, body }) => ({ data: memberJson(await teams.setRole(owner, params.user_id, body.role)) }),
      {
        params: UserIdParams,
        body: t.Object({ role: RoleSchema }),
        response: { 200: t.Object({ data: MemberRef }), ...errorResponses, ...conflictResponse },
        detail: detail('Change a member\'s role', 'Admins and owners; only an owner makes or changes an owner, nobody grants a role above their own, and the last owner stays (409). It counts from the member\'s next request, for their sessions and keys alike.'),
      },
    )
    .delete(
      '/team/members/:user_id',
      async ({ owner, params }) => {
        await teams.removeMember(owner, params.user_id)
        return { data: { removed: params.user_id } }
      },
      {
        params: UserIdParams,
        response: { 200: t.Object({ data: t.Object({ removed: t.Integer() }) }), ...errorResponses, ...conflictResponse },
        detail: detail('Remove a member', 'Their sessions and API keys stop acting in the team at once. The last owner cannot be removed, nor the account of a personal team (409).'),
      },
    )
    .get(
      '/team/invitations',
      async ({ owner, set }) => {
        Object.assign(set.headers, NO_STORE)
        const list = (await teams.invitations(owner)).map(invitationJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(InvitationRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List pending invitations', 'Invitations neither accepted, revoked nor expired, oldest first.'),
      },
    )
    .post(
      '/team/invitations',
      async ({ owner, body, set, status }) => {
        Object.assign(set.headers, NO_STORE)
        const { invitation, link } = await teams.invite(owner, body)
        return status(201, { data: { ...invitationJson(invitation), link } })
      },
      {
        body: t.Object({ email: t.String({ maxLength: 320, examples: ['new.colleague@example.com'] }), role: RoleSchema }),
        response: {
          201: t.Object({ data: t.Composite([InvitationJson, t.Object({ link: t.Nullable(t.String({ description: 'With mail off, the link to pass on (once: only its hash is stored); null when it was mailed' })) })]) }),
          ...errorResponses,
          ...conflictResponse,
        },
        detail: detail('Invite someone', 'Mails a single-use link valid 7 days to the address (with mail off, answers it as `link`). A role no higher than yours. A member already, a pending invitation to the same address, or no seat left on the plan: 409.'),
      },
    )
    .delete(
      '/team/invitations/:id',
      async ({ owner, params }) => {
        await teams.revokeInvitation(owner, params.id)
        return { data: { revoked: params.id } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ revoked: t.Integer() }) }), ...errorResponses },
        detail: detail('Revoke an invitation', 'Its link stops working at once. An invitation of another team, or one no longer pending, is 404.'),
      },
    )
}
