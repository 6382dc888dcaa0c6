/**
 * The SQL of teams, members and invitations. Methods take the connection to run on, so the
 * service can put a check and its write (and the invitation mail in the outbox) in one transaction.
 */
import type { Db } from '../../db/client.ts'
import type { Plan } from '../plans/matrix.ts'
import type { Role } from '../plans/roles.ts'

export class TeamsRepo {
  constructor(readonly db: Db) {}

  transaction<T>(work: (db: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work)
  }

  findTeam(db: Db, teamId: number) {
    return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst()
  }

  async insertTeam(db: Db, team: { name: string; plan: Plan; ownerId: number; now: number }): Promise<number> {
    const row = await db
      .insertInto('teams')
      .values({ name: team.name, plan: team.plan, personal_of: null, require_two_factor: 0, sso_domain: null, sso_role: null, created_at: team.now })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db.insertInto('team_members').values({ team_id: row.id, user_id: team.ownerId, role: 'owner', created_at: team.now }).execute()
    return row.id
  }

  /** The teams of a person with their role there, oldest first. */
  teamsOf(db: Db, userId: number) {
    return db
      .selectFrom('team_members as m')
      .innerJoin('teams', 'teams.id', 'm.team_id')
      .select(['teams.id', 'teams.name', 'teams.plan', 'teams.personal_of', 'teams.require_two_factor', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('teams.id')
      .execute()
  }

  /** The members with whether their authenticator app is confirmed (`two_factor_at`: null when off) and how many passkeys they have. */
  members(db: Db, teamId: number) {
    return db
      .selectFrom('team_members as m')
      .innerJoin('users', 'users.id', 'm.user_id')
      .leftJoin('totp_factors as f', 'f.user_id', 'm.user_id')
      .select(['m.user_id', 'users.email', 'm.role', 'm.created_at', 'f.confirmed_at as two_factor_at'])
      .select((eb) => eb.selectFrom('passkeys as p').select((sub) => sub.fn.countAll<number>().as('n')).whereRef('p.user_id', '=', 'm.user_id').as('passkeys'))
      .where('m.team_id', '=', teamId)
      .orderBy('m.created_at')
      .orderBy('m.user_id')
      .execute()
  }

  member(db: Db, teamId: number, userId: number) {
    return db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst()
  }

  memberByEmail(db: Db, teamId: number, email: string) {
    return db
      .selectFrom('team_members as m')
      .innerJoin('users', 'users.id', 'm.user_id')
      .select('m.user_id')
      .where('m.team_id', '=', teamId)
      .where('users.email', '=', email)
      .executeTakeFirst()
  }

  async countOwners(db: Db, teamId: number): Promise<number> {
    const row = await db.selectFrom('team_members').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).where('role', '=', 'owner').executeTakeFirstOrThrow()
    return Number(row.n)
  }

  /** Members and invitations still pending at `now`: what the plan's seats count. */
  async seatsTaken(db: Db, teamId: number, now: number): Promise<number> {
    const members = await db.selectFrom('team_members').select((eb) => eb.fn.countAll<number>().as('n')).where('team_id', '=', teamId).executeTakeFirstOrThrow()
    const pending = await db
      .selectFrom('team_invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow()
    return Number(members.n) + Number(pending.n)
  }

  setRequireTwoFactor(db: Db, teamId: number, on: boolean) {
    return db.updateTable('teams').set({ require_two_factor: on ? 1 : 0 }).where('id', '=', teamId).execute()
  }

  /** The shared team that claimed `domain` for single sign-on, with the role it gives. */
  teamBySsoDomain(db: Db, domain: string) {
    return db.selectFrom('teams').selectAll().where('sso_domain', '=', domain).executeTakeFirst()
  }

  /** Claims (or with null releases) the team's email domain for single sign-on. */
  setSsoDomain(db: Db, teamId: number, claim: { domain: string; role: Role } | null) {
    return db
      .updateTable('teams')
      .set({ sso_domain: claim?.domain ?? null, sso_role: claim?.role ?? null })
      .where('id', '=', teamId)
      .execute()
  }

  setRole(db: Db, teamId: number, userId: number, role: Role) {
    return db.updateTable('team_members').set({ role }).where('team_id', '=', teamId).where('user_id', '=', userId).execute()
  }

  /** Removes the member; their sessions acting in the team fall back to their personal team. */
  async removeMember(db: Db, teamId: number, userId: number): Promise<void> {
    await db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).execute()
    await db.updateTable('sessions').set({ team_id: null }).where('team_id', '=', teamId).where('user_id', '=', userId).execute()
  }

  addMember(db: Db, member: { teamId: number; userId: number; role: Role; now: number }) {
    return db.insertInto('team_members').values({ team_id: member.teamId, user_id: member.userId, role: member.role, created_at: member.now }).execute()
  }

  pendingInvitations(db: Db, teamId: number, now: number) {
    return db
      .selectFrom('team_invitations')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id')
      .execute()
  }

  pendingInvitationTo(db: Db, teamId: number, email: string, now: number) {
    return db
      .selectFrom('team_invitations')
      .select('id')
      .where('team_id', '=', teamId)
      .where('email', '=', email)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
  }

  async insertInvitation(db: Db, row: { teamId: number; email: string; role: Role; tokenHash: string; invitedBy: number; now: number; expiresAt: number }): Promise<number> {
    const inserted = await db
      .insertInto('team_invitations')
      .values({ team_id: row.teamId, email: row.email, role: row.role, token_hash: row.tokenHash, invited_by: row.invitedBy, created_at: row.now, expires_at: row.expiresAt, accepted_at: null, revoked_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    return inserted.id
  }

  findInvitation(db: Db, id: number) {
    return db.selectFrom('team_invitations').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findInvitationByToken(db: Db, tokenHash: string) {
    return db.selectFrom('team_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
  }

  /** Revokes a pending invitation of the team; false when there is none with that id. */
  async revokeInvitation(db: Db, teamId: number, id: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('team_invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('team_id', '=', teamId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  /** Marks the invitation used; false when another request used, or someone revoked, it first. */
  async acceptInvitation(db: Db, id: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('team_invitations')
      .set({ accepted_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }
}
