/** What every adapter shares: a JSON POST and the page/link footer words. */
import type { OutboundRequest } from '../../notify/contract.ts'
import type { EventView } from '../event-view.ts'

export function jsonPost(url: string, body: unknown, headers: Record<string, string> = {}): OutboundRequest {
  return { url, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }
}

/** "Acme status · https://acme.status.example" or the link alone. */
export function footer(view: EventView): string | null {
  if (view.page) return `${view.page.name} · ${view.link ?? view.page.url}`
  return view.link
}

/** Colours of a severity (Discord embeds, Teams): red, amber, blue, green. */
export const SEVERITY_COLOURS = { critical: 0xd93025, warning: 0xf29900, info: 0x1a73e8, ok: 0x188038 } as const

/** Cuts text to `max` characters (services refuse longer fields). */
export const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/**
 * A message's place in its outage, for chat services that edit messages: `opens` (the first: kept),
 * `updates` (a later one that is no reminder: edits the first, the recovery included), `repeats`
 * (a reminder: a new message, so it notifies), or null (no outage, e.g. a test).
 */
export function outageRole(view: EventView): 'opens' | 'updates' | 'repeats' | null {
  if (!view.outage || view.kind === 'test') return null
  if (view.details.reminder) return 'repeats'
  return view.outage.endedAt === null && view.outage.since === view.at ? 'opens' : 'updates'
}
