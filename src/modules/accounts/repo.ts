import type { Db } from '../../db/client.ts'
import type { Plan } from '../plans/matrix.ts'
import type { Role } from '../plans/roles.ts'

export class AccountsRepo {
  constructor(private readonly db: Db) {}

  findUserById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findUserByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
  }

  /** A new account and its personal team (owned by it, on `plan`), in one transaction. */
  insertUser(user: { email: string; passwordHash: string; plan: Plan; isAdmin: boolean; now: number }) {
    return this.db.transaction().execute((trx) => insertUserWithTeam(trx, user))
  }

  /**
   * The plan of the user's personal team, and the account's own copy of it (what `User.plan` shows
   * and what the teams migration's down restores), in one transaction.
   */
  updatePlan(userId: number, plan: Plan) {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('teams').set({ plan }).where('personal_of', '=', userId).execute()
      return trx.updateTable('users').set({ plan }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow()
    })
  }

  insertApiKey(key: { userId: number; teamId: number; role: Role; publicId: string; secretHash: string; name: string; now: number }) {
    return this.db
      .insertInto('api_keys')
      .values({
        user_id: key.userId,
        team_id: key.teamId,
        role: key.role,
        public_id: key.publicId,
        secret_hash: key.secretHash,
        name: key.name,
        created_at: key.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  /** The key with its member and team; a key of someone no longer a member of its team is not found. */
  findActiveKeyWithUser(publicId: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .innerJoin('team_members as m', (join) => join.onRef('m.team_id', '=', 'api_keys.team_id').onRef('m.user_id', '=', 'api_keys.user_id'))
      .innerJoin('teams', 'teams.id', 'm.team_id')
      .select([
        'api_keys.id as key_id',
        'api_keys.secret_hash',
        'api_keys.last_used_at',
        'api_keys.role as key_role',
        'api_keys.name as key_name',
        'm.role as member_role',
        'teams.id as team_id',
        'teams.name as team_name',
        'teams.plan as team_plan',
        'teams.require_two_factor',
        'users.id',
        'users.email',
        'users.plan',
        'users.is_admin',
        'users.created_at',
      ])
      .where('api_keys.public_id', '=', publicId)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst()
  }

  touchApiKey(keyId: number, now: number) {
    return this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute()
  }

  listApiKeys(userId: number) {
    return this.db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('id').execute()
  }

  findApiKey(userId: number, keyId: number) {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst()
  }

  findApiKeyByPublicId(userId: number, publicId: string) {
    return this.db.selectFrom('api_keys').selectAll().where('public_id', '=', publicId).where('user_id', '=', userId).executeTakeFirst()
  }

  /** Sets revoked_at once; a key already revoked keeps the time it was revoked. */
  revokeApiKey(userId: number, keyId: number, now: number) {
    return this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
  }

  listPageIdsOfOwner(ownerId: number) {
    return this.db.selectFrom('status_pages').select('id').where('owner_id', '=', ownerId).execute()
  }

  /**
   * The same password's hash at new settings, only while the stored hash is still `previous`: a
   * password changed meanwhile is never put back.
   */
  async rehashPassword(userId: number, previous: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).where('password_hash', '=', previous).execute()
  }

  /** The new hash and the end of every session of the user, in one transaction: never one without the other. */
  replacePasswordAndEndSessions(userId: number, passwordHash: string) {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute()
      await trx.deleteFrom('sessions').where('user_id', '=', userId).execute()
    })
  }

  insertSession(session: { userId: number; tokenHash: string; now: number; expiresAt: number; client: string | null }) {
    return this.db
      .insertInto('sessions')
      .values({
        user_id: session.userId,
        token_hash: session.tokenHash,
        created_at: session.now,
        expires_at: session.expiresAt,
        last_seen_at: session.now,
        client: session.client,
      })
      .execute()
  }

  touchSession(sessionId: number, now: number) {
    return this.db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', sessionId).execute()
  }

  /** The user's live sessions, newest first; the token hash is only for marking "this browser". */
  listLiveSessions(userId: number, now: number) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'token_hash', 'created_at', 'last_seen_at', 'expires_at', 'client'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
  }

  /** Ends one session of the user by its row id; another user's id ends nothing (0 rows). */
  async deleteSessionById(userId: number, sessionId: number, now: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst()
    return result.numDeletedRows > 0n
  }

  /** Ends every session of the user but the one with `keepTokenHash` (none kept when undefined). */
  async deleteSessionsExcept(userId: number, keepTokenHash: string | undefined): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId)
    if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash)
    const result = await query.executeTakeFirst()
    return Number(result.numDeletedRows)
  }

  /**
   * What the account holds, for the plan screen: pages, components (and the most on one page),
   * active keys, components with automatic incidents, and the most subscribers on one page —
   * counted as the subscriber limit counts them (subscribers/repo.ts countTowardsLimit): active,
   * confirmed or with a confirmation link that still works at `now`.
   */
  async usageCounts(teamId: number, now: number) {
    const pages = await this.db
      .selectFrom('status_pages')
      .leftJoin('components', 'components.page_id', 'status_pages.id')
      .select(['status_pages.id', (eb) => eb.fn.count<number>('components.id').as('components')])
      .where('status_pages.owner_id', '=', teamId)
      .groupBy('status_pages.id')
      .execute()
    const keys = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('team_id', '=', teamId)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow()
    const automated = await this.db
      .selectFrom('auto_incident_components as aic')
      .innerJoin('components', 'components.id', 'aic.component_id')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status_pages.owner_id', '=', teamId)
      .executeTakeFirstOrThrow()
    const subscribers = await this.db
      .selectFrom('subscribers')
      .innerJoin('status_pages', 'status_pages.id', 'subscribers.page_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status_pages.owner_id', '=', teamId)
      .where('subscribers.unsubscribed_at', 'is', null)
      .where((eb) => eb.or([eb('subscribers.confirmed_at', 'is not', null), eb('subscribers.confirm_expires_at', '>', now)]))
      .groupBy('subscribers.page_id')
      .execute()
    const perPage = pages.map((page) => Number(page.components))
    return {
      autoIncidentComponents: Number(automated.count),
      mostSubscribersOnOnePage: Math.max(0, ...subscribers.map((row) => Number(row.count))),
      pages: pages.length,
      components: perPage.reduce((sum, count) => sum + count, 0),
      mostComponentsOnOnePage: perPage.length === 0 ? 0 : Math.max(...perPage),
      activeApiKeys: Number(keys.count),
    }
  }

  hasUsers() {
    return this.db.selectFrom('users').select('id').limit(1).executeTakeFirst().then((row) => row !== undefined)
  }

  /** The one setup token there is: any earlier one is replaced (the latest log line is the link). */
  replaceSetupToken(tokenHash: string, now: number) {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('setup_tokens').execute()
      await trx.insertInto('setup_tokens').values({ token_hash: tokenHash, created_at: now }).execute()
    })
  }

  deleteSetupTokens() {
    return this.db.deleteFrom('setup_tokens').execute()
  }

  findSetupToken() {
    return this.db.selectFrom('setup_tokens').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst()
  }

  /**
   * Creates the first user and spends the setup token in one transaction: the token row must still
   * be there and no user may exist yet, so a second use (or a race with the CLI) creates nothing.
   */
  createFirstUser(tokenId: number, user: { email: string; passwordHash: string; plan: Plan; now: number }) {
    return this.db.transaction().execute(async (trx) => {
      const spent = await trx.deleteFrom('setup_tokens').where('id', '=', tokenId).executeTakeFirst()
      if (spent.numDeletedRows === 0n) return undefined
      const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst()
      if (existing) return undefined
      await trx.deleteFrom('setup_tokens').execute()
      return insertUserWithTeam(trx, { ...user, isAdmin: true })
    })
  }

  findLiveSessionWithUser(tokenHash: string, now: number) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id as session_id', 'sessions.token_hash', 'sessions.last_seen_at', 'sessions.team_id as chosen_team_id', 'users.id', 'users.email', 'users.plan', 'users.is_admin', 'users.created_at'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst()
  }

  /**
   * The team a user acts in: `preferred` while they are a member of it, else their personal team
   * (made again if it is missing, as every account has one).
   */
  async actingMembership(userId: number, preferred: number | null) {
    const select = () =>
      this.db
        .selectFrom('team_members as m')
        .innerJoin('teams', 'teams.id', 'm.team_id')
        .select(['teams.id', 'teams.name', 'teams.plan', 'teams.require_two_factor', 'm.role'])
        .where('m.user_id', '=', userId)
    if (preferred !== null) {
      const chosen = await select().where('m.team_id', '=', preferred).executeTakeFirst()
      if (chosen) return chosen
    }
    const personal = await select().where('teams.personal_of', '=', userId).executeTakeFirst()
    if (personal) return personal
    const user = await this.findUserById(userId)
    if (!user) return undefined
    await this.db.transaction().execute((trx) => insertPersonalTeam(trx, user.id, user.email, user.plan, user.created_at))
    return select().where('teams.personal_of', '=', userId).executeTakeFirst()
  }

  chooseTeam(sessionId: number, teamId: number) {
    return this.db.updateTable('sessions').set({ team_id: teamId }).where('id', '=', sessionId).execute()
  }

  deleteSession(tokenHash: string) {
    return this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute()
  }

  deleteExpiredSessions(now: number) {
    return this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute()
  }
}

async function insertUserWithTeam(trx: Db, user: { email: string; passwordHash: string; plan: Plan; isAdmin: boolean; now: number }) {
  const row = await trx
    .insertInto('users')
    .values({ email: user.email, password_hash: user.passwordHash, plan: user.plan, is_admin: user.isAdmin ? 1 : 0, created_at: user.now })
    .returningAll()
    .executeTakeFirstOrThrow()
  await insertPersonalTeam(trx, row.id, row.email, user.plan, user.now)
  return row
}

/** A personal team, named after its account, owned by it. */
async function insertPersonalTeam(trx: Db, userId: number, email: string, plan: Plan, now: number): Promise<number> {
  const team = await trx
    .insertInto('teams')
    .values({ name: email, plan, personal_of: userId, require_two_factor: 0, sso_domain: null, sso_role: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  await trx.insertInto('team_members').values({ team_id: team.id, user_id: userId, role: 'owner', created_at: now }).execute()
  return team.id
}
