/** Shared steps of the subscriber tests: status-host requests, forms, links out of mails, events. */
import type { NotifyEvent } from '../../../src/modules/notify/contract.ts'
import type { TestContext } from '../../helpers/context.ts'

export const FORM = 'application/x-www-form-urlencoded'

export function siteUrl(slug: string, path: string): string {
  return `https://${slug}.status.test${path}`
}

/** A form POST to a status host, from that host (Origin) unless told otherwise, from `client`. */
export function postSite(ctx: TestContext, slug: string, path: string, fields: Array<[string, string]>, options: { client?: string; origin?: string | null } = {}) {
  const headers: Record<string, string> = { 'content-type': FORM, 'x-forwarded-for': options.client ?? '198.51.100.1' }
  const origin = options.origin === undefined ? `https://${slug}.status.test` : options.origin
  if (origin !== null) headers.origin = origin
  return ctx.request(siteUrl(slug, path), { method: 'POST', headers, body: new URLSearchParams(fields).toString() })
}

/** The first URL in `text` whose path starts with `path`. */
export function linkIn(text: string, path: string): string {
  const found = text.match(/https?:\/\/[^\s<>"()]+/g)?.find((url) => URL.canParse(url) && new URL(url).pathname === path)
  if (!found) throw new Error(`no ${path} link in:\n${text}`)
  return found
}

/** Relative path and query of a link, for `ctx.request` on the same host. */
export const tokenOf = (url: string): string => new URL(url).searchParams.get('token') ?? ''

/** Emits an event the way producers do: inside a transaction. */
export async function emit(ctx: TestContext, event: NotifyEvent): Promise<void> {
  await ctx.database.db.transaction().execute((trx) => ctx.app.services.notifier.emit(trx, event))
}

export async function outboxCount(ctx: TestContext): Promise<number> {
  const row = await ctx.database.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}
