/**
 * Teams, members and invitations. The acting team is the `owner` of the request (its id, plan and
 * the member's role); the route's permission was checked already (accounts/route-permissions.ts),
 * the rules here are those the matrix cannot say: nobody grants a role above their own, only an
 * owner touches owners, the last owner stays, a personal team keeps its account, seats come from
 * the plan; a claimed email domain is one's own and one team's. Invitations are single-use links valid 7 days, mailed through the outbox; only a hash
 * of their token is stored.
 */
import type { Clock } from '../../lib/clock.ts'
import { randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../lib/errors.ts'
import { isUniqueViolationOn } from '../../db/errors.ts'
import { parseText } from '../../lib/text.ts'
import { normalizeEmail, type Owner } from '../accounts/service.ts'
import type { OutboundMail, OutboxWriter } from '../notify/contract.ts'
import { planLabel, PLANS, type Plan } from '../plans/matrix.ts'
import { isRole, roleAtMost, roleLabel, ROLES, seatsOf, teamSecurityAllowed, type Role } from '../plans/roles.ts'
import type { TeamsRepo } from './repo.ts'

/** The plans whose teams may require two-factor, as people read them ("Business, OSS Hero or Enterprise"). */
export const TEAM_SECURITY_PLANS = ((labels: string[]) => `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`)(PLANS.filter(teamSecurityAllowed).map(planLabel))

export const INVITATION_TTL_MS = 7 * 24 * 3600_000
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

export interface Team {
  id: number
  name: string
  plan: Plan
  personal: boolean
  role: Role
  /** Members acting in it by a session must have two-factor on (API keys are exempt). */
  requireTwoFactor: boolean
}

/** A team's claim of an email domain: people signing in through SSO with it join with `role`. */
export interface SsoDomainClaim {
  domain: string
  role: Role
}

/** What a sign-in through SSO did about the team that claimed its address's domain. */
export type DomainJoin =
  | { outcome: 'joined'; teamId: number; teamName: string; role: Role }
  | { outcome: 'full'; teamId: number; teamName: string }

const DOMAIN_PATTERN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

/**
 * An email domain as people type it (`Example.COM`, `@example.com`, `bücher.example`) in the form
 * it is compared in: lower case, IDN as punycode. Anything else is 400.
 */
export function parseEmailDomain(raw: unknown): string {
  if (typeof raw !== 'string') throw badRequest('domain must be a domain name such as example.com')
  const typed = raw.trim().replace(/^@/, '').toLowerCase()
  let domain = ''
  if (typed.length > 0 && typed.length <= 253 && !/[\s/\\?#@:%\u0000-\u001f\u007f]/.test(typed)) {
    try {
      domain = new URL(`http://${typed}`).hostname
    } catch {
      domain = ''
    }
  }
  if (!DOMAIN_PATTERN.test(domain) || /^[\d.]+$/.test(domain)) throw badRequest('domain must be a domain name such as example.com')
  return domain
}

export interface Member {
  userId: number
  email: string
  role: Role
  joinedAt: number
  /** They have a second factor (the authenticator app or a passkey): they may act in a team that requires two-factor. */
  twoFactor: boolean
}

export interface Invitation {
  id: number
  email: string
  role: Role
  createdAt: number
  expiresAt: number
}

export interface InvitationOffer {
  teamName: string
  role: Role
  expiresAt: number
  /** Why it can no longer be accepted; null while it can. */
  closed: string | null
}

export interface TeamsServiceDeps {
  repo: TeamsRepo
  outbox: OutboxWriter
  clock: Clock
  baseUrl: string
  /** Whether a user has a second factor (the two-factor module, through accounts). */
  hasSecondFactor: (userId: number) => Promise<boolean>
}

const toInvitation = (row: { id: number; email: string; role: Role; created_at: number; expires_at: number }): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

function parseRole(raw: unknown): Role {
  if (!isRole(raw)) throw badRequest(`role must be one of ${ROLES.join(', ')}`)
  return raw
}

export class TeamsService {
  constructor(private readonly deps: TeamsServiceDeps) {}

  get mailEnabled(): boolean {
    return this.deps.outbox.mailEnabled
  }

  invitationLink(token: string): string {
    return `${this.deps.baseUrl}/user/invitations/${token}`
  }

  /** A new shared team on the plan of the acting team, with the person as its owner. */
  async create(owner: Owner, rawName: string): Promise<Team> {
    const name = parseText('name', rawName, { max: 100 })
    const { repo } = this.deps
    const id = await repo.insertTeam(repo.db, { name, plan: owner.plan, ownerId: owner.userId, now: this.deps.clock.now() })
    return { id, name, plan: owner.plan, personal: false, role: 'owner', requireTwoFactor: false }
  }

  async teamsOf(owner: Owner): Promise<Team[]> {
    return (await this.deps.repo.teamsOf(this.deps.repo.db, owner.userId)).map((row) => ({ id: row.id, name: row.name, plan: row.plan, personal: row.personal_of !== null, role: row.role, requireTwoFactor: row.require_two_factor === 1 }))
  }

  /**
   * The acting team with its seats (members and pending invitations; null limit: no limit) and,
   * for a personal team, its account (`personalOf`), which stays its owner.
   */
  async current(owner: Owner): Promise<Team & { seats: { used: number; limit: number | null }; personalOf: number | null; ssoDomain: SsoDomainClaim | null }> {
    const { repo } = this.deps
    const team = await repo.findTeam(repo.db, owner.id)
    if (!team) throw notFound()
    const used = await repo.seatsTaken(repo.db, owner.id, this.deps.clock.now())
    return {
      id: team.id,
      name: team.name,
      plan: team.plan,
      personal: team.personal_of !== null,
      role: owner.role,
      requireTwoFactor: team.require_two_factor === 1,
      seats: { used, limit: seatsOf(team.plan) },
      personalOf: team.personal_of,
      ssoDomain: team.sso_domain !== null && team.sso_role !== null ? { domain: team.sso_domain, role: team.sso_role } : null,
    }
  }

  /**
   * Claims an email domain for the acting team (the route asked for `manage`): whoever signs in
   * through single sign-on with a verified address of it joins with `role`. The role is not owner
   * and not above the claimer's own (400). A personal team claims none (409); a domain belongs to
   * one team at most (409). Only a domain of one's own address may be claimed (403), unless one
   * administers this Lantern: no team can gather another company's people.
   */
  async setSsoDomain(owner: Owner, input: { domain: unknown; role: unknown }): Promise<SsoDomainClaim> {
    const domain = parseEmailDomain(input.domain)
    const role = parseRole(input.role)
    if (role === 'owner') throw badRequest('people joining by their domain cannot be owners: choose admin or a lower role')
    if (!roleAtMost(role, owner.role)) throw badRequest(`role cannot be above your own (${roleLabel(owner.role)})`)
    const { repo } = this.deps
    const team = await repo.findTeam(repo.db, owner.id)
    if (!team) throw notFound()
    if (team.personal_of !== null) throw conflict('a personal team cannot claim a domain: create a shared team (Teams) and claim it there')
    const ownDomain = owner.email.slice(owner.email.lastIndexOf('@') + 1).toLowerCase()
    if (domain !== ownDomain && !owner.isAdmin) {
      throw forbidden(`you may claim only the domain of your own address (${ownDomain}); an administrator of this Lantern may claim any`)
    }
    const holder = await repo.teamBySsoDomain(repo.db, domain)
    if (holder && holder.id !== owner.id) throw conflict(`${domain} is claimed by another team already`)
    try {
      await repo.setSsoDomain(repo.db, owner.id, { domain, role })
    } catch (error) {
      if (isUniqueViolationOn(error, 'teams', 'sso_domain')) throw conflict(`${domain} is claimed by another team already`)
      throw error
    }
    return { domain, role }
  }

  /** Releases the acting team's domain: nobody joins by it any more (members stay). */
  async clearSsoDomain(owner: Owner): Promise<void> {
    await this.deps.repo.setSsoDomain(this.deps.repo.db, owner.id, null)
  }

  /**
   * A person signed in through SSO with the verified address `email`: if a team claimed its domain
   * and they are not a member yet, they join it with the claim's role — when a seat is free (a
   * full team is answered as `full` and they join nothing). Undefined: no claim, or a member already.
   */
  async joinByDomain(user: { id: number; email: string }): Promise<DomainJoin | undefined> {
    const domain = user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase()
    const { repo } = this.deps
    const now = this.deps.clock.now()
    return repo.transaction(async (db) => {
      const team = await repo.teamBySsoDomain(db, domain)
      if (!team || team.sso_role === null || team.personal_of !== null) return undefined
      if (await repo.member(db, team.id, user.id)) return undefined
      const seats = seatsOf(team.plan)
      if (seats !== null && (await repo.seatsTaken(db, team.id, now)) >= seats) return { outcome: 'full' as const, teamId: team.id, teamName: team.name }
      await repo.addMember(db, { teamId: team.id, userId: user.id, role: team.sso_role, now })
      return { outcome: 'joined' as const, teamId: team.id, teamName: team.name, role: team.sso_role }
    })
  }

  async members(owner: Owner): Promise<Member[]> {
    return (await this.deps.repo.members(this.deps.repo.db, owner.id)).map((row) => ({
      userId: row.user_id,
      email: row.email,
      role: row.role,
      joinedAt: row.created_at,
      twoFactor: (row.two_factor_at !== null && row.two_factor_at !== undefined) || Number(row.passkeys ?? 0) > 0,
    }))
  }

  /**
   * Turns the team's requirement of two-factor on or off (the route asked for `manage`). The plan
   * must allow it (403, naming the plans that do); whoever turns it on must have two-factor
   * themselves (409), so nobody locks themselves out. A personal team may require it too: its
   * account then needs two-factor to act in it, like any member.
   */
  async setRequireTwoFactor(owner: Owner, on: boolean): Promise<void> {
    const { repo } = this.deps
    const team = await repo.findTeam(repo.db, owner.id)
    if (!team) throw notFound()
    if (on && !teamSecurityAllowed(team.plan)) {
      throw new HttpError(403, `requiring two-factor of members comes with the ${TEAM_SECURITY_PLANS} plans; ${team.name} is on ${planLabel(team.plan)}`)
    }
    if (on && !(await this.deps.hasSecondFactor(owner.userId))) {
      throw conflict('turn on two-factor sign-in for your own account first (Account → Two-factor sign-in), then require it of the team')
    }
    await repo.setRequireTwoFactor(repo.db, owner.id, on)
  }

  /** Changes a member's role; from the next request on it is what they (and their keys) may do. */
  async setRole(owner: Owner, userId: number, rawRole: unknown): Promise<Member> {
    const role = parseRole(rawRole)
    const { repo } = this.deps
    await repo.transaction(async (db) => {
      const member = await repo.member(db, owner.id, userId)
      if (!member) throw notFound('no such member')
      this.checkCanTouch(owner, member.role, role)
      if (member.role === 'owner' && role !== 'owner') await this.keepAnOwner(db, owner.id)
      await this.keepPersonalOwner(db, owner.id, userId, role)
      await repo.setRole(db, owner.id, userId, role)
    })
    return (await this.members(owner)).find((m) => m.userId === userId)!
  }

  /** Removes a member (or lets one leave): their sessions and keys stop acting in the team at once. */
  async removeMember(owner: Owner, userId: number): Promise<void> {
    const { repo } = this.deps
    await repo.transaction(async (db) => {
      const member = await repo.member(db, owner.id, userId)
      if (!member) throw notFound('no such member')
      if (userId !== owner.userId) this.checkCanTouch(owner, member.role, member.role)
      if (member.role === 'owner') await this.keepAnOwner(db, owner.id)
      await this.keepPersonalOwner(db, owner.id, userId, undefined)
      await repo.removeMember(db, owner.id, userId)
    })
  }

  async invitations(owner: Owner): Promise<Invitation[]> {
    return (await this.deps.repo.pendingInvitations(this.deps.repo.db, owner.id, this.deps.clock.now())).map(toInvitation)
  }

  /**
   * Invites an address with a role no higher than the inviter's, within the plan's seats. With
   * mail on the link goes by mail; with mail off it is answered (`link`) for the inviter to pass on.
   */
  async invite(owner: Owner, input: { email: string; role: unknown }): Promise<{ invitation: Invitation; link: string | null }> {
    const email = normalizeEmail(input.email)
    const role = parseRole(input.role)
    if (!roleAtMost(role, owner.role)) throw badRequest(`role cannot be above your own (${roleLabel(owner.role)})`)
    const token = randomToken(32)
    const tokenHash = await sha256Hex(token)
    const now = this.deps.clock.now()
    const { repo } = this.deps
    const id = await repo.transaction(async (db) => {
      const team = (await repo.findTeam(db, owner.id))!
      if (await repo.memberByEmail(db, owner.id, email)) throw conflict(`${email} is a member of ${team.name} already`)
      if (await repo.pendingInvitationTo(db, owner.id, email, now)) throw conflict(`${email} has a pending invitation already: revoke it to send a new one`)
      const seats = seatsOf(team.plan)
      if (seats !== null && (await repo.seatsTaken(db, owner.id, now)) >= seats) {
        throw conflict(`the ${planLabel(team.plan)} plan has ${seats} seat${seats === 1 ? '' : 's'} (members and pending invitations), all taken`)
      }
      const id = await repo.insertInvitation(db, { teamId: owner.id, email, role, tokenHash, invitedBy: owner.userId, now, expiresAt: now + INVITATION_TTL_MS })
      if (this.mailEnabled) {
        await this.deps.outbox.enqueue(db, [{ target: `address:${email}`, mail: invitationMail(email, team.name, owner.email, role, this.invitationLink(token)) }])
      }
      return id
    })
    const row = (await repo.findInvitation(repo.db, id))!
    return { invitation: toInvitation(row), link: this.mailEnabled ? null : this.invitationLink(token) }
  }

  async revokeInvitation(owner: Owner, id: number): Promise<void> {
    if (!(await this.deps.repo.revokeInvitation(this.deps.repo.db, owner.id, id, this.deps.clock.now()))) throw notFound('no pending invitation with this id')
  }

  /**
   * What an invitation offers, for the screen of its link: the same 404 as `accept` for an unknown
   * token or another address's; a used, revoked or expired one is answered with why (`closed`).
   */
  async invitationOffer(owner: Owner, token: string): Promise<InvitationOffer> {
    if (!TOKEN_PATTERN.test(token)) throw notFound()
    const { repo } = this.deps
    const row = await repo.findInvitationByToken(repo.db, await sha256Hex(token))
    if (!row || row.email !== owner.email.toLowerCase()) throw notFound()
    const team = (await repo.findTeam(repo.db, row.team_id))!
    const now = this.deps.clock.now()
    const open = row.accepted_at === null && row.revoked_at === null && row.expires_at > now
    return { teamName: team.name, role: row.role, expiresAt: row.expires_at, closed: open ? null : gone(row, now).message }
  }

  /**
   * The person joins the team of the invitation with its role. The invitation is for an address:
   * another account's token is 404 (as an unknown one); a used, revoked or expired one is 410.
   */
  async accept(owner: Owner, token: string): Promise<Team> {
    if (!TOKEN_PATTERN.test(token)) throw notFound()
    const { repo } = this.deps
    const row = await repo.findInvitationByToken(repo.db, await sha256Hex(token))
    if (!row || row.email !== owner.email.toLowerCase()) throw notFound()
    const now = this.deps.clock.now()
    if (row.accepted_at !== null || row.revoked_at !== null || row.expires_at <= now) throw gone(row, now)
    await repo.transaction(async (db) => {
      if (!(await repo.acceptInvitation(db, row.id, now))) throw gone((await repo.findInvitation(db, row.id))!, now)
      if (await repo.member(db, row.team_id, owner.userId)) throw conflict('you are a member of this team already')
      await repo.addMember(db, { teamId: row.team_id, userId: owner.userId, role: row.role, now })
    })
    const team = (await repo.findTeam(repo.db, row.team_id))!
    return { id: team.id, name: team.name, plan: team.plan, personal: team.personal_of !== null, role: row.role, requireTwoFactor: team.require_two_factor === 1 }
  }

  /** Only an owner grants, takes or touches the owner role; nobody grants above their own. */
  private checkCanTouch(owner: Owner, current: Role, next: Role): void {
    if ((current === 'owner' || next === 'owner') && owner.role !== 'owner') throw new HttpError(403, 'only an owner may change an owner or make one')
    if (!roleAtMost(next, owner.role)) throw badRequest(`role cannot be above your own (${roleLabel(owner.role)})`)
  }

  private async keepAnOwner(db: TeamsRepo['db'], teamId: number): Promise<void> {
    if ((await this.deps.repo.countOwners(db, teamId)) <= 1) throw conflict('a team keeps at least one owner: make another member owner first')
  }

  /** A personal team's account stays its owner. */
  private async keepPersonalOwner(db: TeamsRepo['db'], teamId: number, userId: number, role: Role | undefined): Promise<void> {
    const team = await this.deps.repo.findTeam(db, teamId)
    if (team?.personal_of === userId && role !== 'owner') throw conflict('this is the personal team of that account: it stays its owner')
  }
}

function gone(row: { accepted_at: number | null; revoked_at: number | null; expires_at: number }, now: number): HttpError {
  if (row.accepted_at !== null) return new HttpError(410, 'this invitation was used already')
  if (row.revoked_at !== null) return new HttpError(410, 'this invitation was revoked')
  return new HttpError(410, row.expires_at <= now ? 'this invitation has expired' : 'this invitation no longer applies')
}

function invitationMail(to: string, teamName: string, inviter: string, role: Role, link: string): OutboundMail {
  return {
    to,
    subject: `${inviter} invites you to the team "${teamName}" on Lantern`,
    text: `${inviter} invites you to join the team "${teamName}" on Lantern as ${roleLabel(role)}.

Accept the invitation (sign in, or create an account with this address first):
${link}

The link works once and for 7 days. If you did not expect this, ignore this mail.

-- 
Lantern`,
  }
}
