/**
 * The audit log's writer for owner routes: every successful write (accounts/auth.ts hands it over
 * after the answer) becomes one append-only row with who, which team and page, the action, when,
 * from which address and client, and the names of the fields sent — never their values, so no
 * secret or password can land here.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Db } from '../../db/client.ts'
import type { AuditSink, RequestAudit } from '../accounts/auth.ts'
import type { AuditActorKind } from './tables.ts'

/** `/user/api/v1/status-pages/:id/components` → `status-pages.components`. */
const actionOf = (method: string, route: string): string => {
  const parts = route.replace(/^\/user(\/api\/v1)?\/?/, '').split('/').filter((part) => part !== '' && !part.startsWith(':'))
  return `${parts.join('.') || 'user'}.${method.toLowerCase()}`
}

const fieldsOf = (body: unknown): string[] =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body).sort() : []

export class AuditService implements AuditSink {
  constructor(private readonly deps: { db: Db; clock: Clock }) {}

  async recordRequest(entry: RequestAudit): Promise<void> {
    const { owner } = entry
    const params = entry.params ?? {}
    const kind: AuditActorKind = owner.via === 'api_key' ? 'api_key' : owner.via === 'session' ? 'person' : 'system'
    const label = owner.via === 'api_key' ? `${owner.email} (API key ${owner.keyName ?? owner.keyId})` : owner.email
    const pageId = /^\/user(\/api\/v1)?\/(status-pages|pages)\/:id/.test(entry.route) && params.id !== undefined && /^\d{1,15}$/.test(params.id) ? Number(params.id) : null
    const objectId = Object.entries(params).find(([name]) => name !== 'token')?.[1] ?? null
    await this.deps.db
      .insertInto('audit_log')
      .values({
        team_id: owner.id,
        actor_kind: kind,
        actor_user_id: owner.userId,
        actor_label: label,
        page_id: pageId,
        action: actionOf(entry.method, entry.route),
        object_type: entry.route,
        object_id: objectId === undefined ? null : String(objectId).slice(0, 100),
        summary: JSON.stringify({ fields: fieldsOf(entry.body) }),
        address: entry.address.slice(0, 100),
        client: entry.client,
        created_at: this.deps.clock.now(),
      })
      .execute()
  }
}
