import { Elysia, t } from 'elysia'
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'

export function healthRoutes(db: Db) {
  return new Elysia().get(
    '/healthz',
    async ({ status }) => {
      try {
        await sql`select 1`.execute(db)
        return { status: 'ok' as const }
      } catch {
        return status(503, { status: 'unavailable' as const })
      }
    },
    {
      response: { 200: t.Object({ status: t.Literal('ok') }), 503: t.Object({ status: t.Literal('unavailable') }) },
      detail: { tags: ['Operations'], summary: 'Liveness with a database round trip' },
    },
  )
}
