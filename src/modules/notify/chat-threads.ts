/**
 * One outage, one chat message (contract.ts ChatThread), the pure part: what a chat service's
 * answer names its message by, and the edit request made from the kept names. The worker
 * (worker.ts) sends, keeps (outbox_threads) and falls back to a new message.
 */
import type { ChatThread, OutboundRequest } from './contract.ts'

/** How long the first message of an outage is remembered: an outage longer than this ends with a new message. */
export const THREAD_RETENTION_MS = 30 * 24 * 3_600_000

/** Kept names of one posted message, e.g. `{ message_id: 42 }`. */
export type ThreadRefs = Record<string, string | number>

/** The value at a dotted path (`result.message_id`) in parsed JSON; undefined where a step is missing. */
export function valueAt(json: unknown, path: string): unknown {
  let value = json
  for (const step of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined
  return value
}

/** The values at `keep`'s paths in the answer's JSON; undefined when the answer is not JSON or lacks one. */
export function refsFrom(answer: string | undefined, keep: Record<string, string>): ThreadRefs | undefined {
  if (!answer) return undefined
  let json: unknown
  try {
    json = JSON.parse(answer)
  } catch {
    return undefined
  }
  const refs: ThreadRefs = {}
  for (const [name, path] of Object.entries(keep)) {
    const value = valueAt(json, path)
    if ((typeof value !== 'string' || value === '') && (typeof value !== 'number' || !Number.isFinite(value))) return undefined
    refs[name] = value
  }
  return refs
}

/** The edit of `thread` with the kept names put in: `{{name}}` in the URL (encoded), `"{{name}}"` in the JSON body (as JSON). */
export function editRequest(edit: NonNullable<ChatThread['edit']>, refs: ThreadRefs, headers: Record<string, string>): OutboundRequest {
  let url = edit.url
  let body = edit.body
  for (const [name, value] of Object.entries(refs)) {
    url = url.replaceAll(`{{${name}}}`, encodeURIComponent(String(value)))
    body = body.replaceAll(JSON.stringify(`{{${name}}}`), JSON.stringify(value))
  }
  return { url, headers, body, method: edit.method, ...(edit.okWhen ? { okWhen: edit.okWhen } : {}) }
}

/**
 * Whether a failed edit means the service no longer has the message (deleted, too old to edit, or
 * a message it refuses to change): then the outage's message is posted anew. Other failures (no
 * answer, 5xx, 429) are retried like any delivery.
 */
export const editRefused = (status: number | undefined, refusal?: string): boolean =>
  status === 400 || status === 403 || status === 404 || (refusal !== undefined && EDIT_REFUSALS.has(refusal))

/** Slack's answers to chat.update for a message it will not change: post a new one instead. */
const EDIT_REFUSALS = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed', 'channel_not_found'])
