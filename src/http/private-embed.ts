/**
 * Embeds of a private page. The public badge, status JSON and widget treat a private page as
 * unknown (gray `Unknown`, 404): nothing leaks. An owner who wants to embed the status of a private
 * page creates a read-only embed token (`POST /user/api/v1/status-pages/:id/access/token`) and adds
 * `auth_token=lpt_…` to the URL:
 *
 *   /api/embed/status?slug=S&auth_token=T       (the widget: data-auth-token="T")   → status-api/private.ts
 *   /badge/S.svg?auth_token=T, /badge/S/uptime.svg?auth_token=T                      → badge/private.ts
 *   https://S.<STATUS_DOMAIN>/api/v2/summary.json?auth_token=T (and the other v2 documents, feeds) → status-site
 *
 * Requests that carry `auth_token` are answered here, before the public routes and their shared
 * cache: the token is checked on every request, and answers are `private, no-store`, never
 * stored in a shared cache. A wrong or revoked token gets exactly what an anonymous visitor gets.
 */
import { requestPath } from './fast-lane.ts'

/** Headers of every answer to a request with a valid `auth_token`: never in a shared cache. */
export const PRIVATE_EMBED_HEADERS = {
  'cache-control': 'private, no-store',
  'access-control-allow-origin': '*',
  'x-robots-tag': 'noindex',
}

/** An answer for a private page, or undefined: the public route answers then. */
type PrivateAnswer = Promise<Response | undefined>

export interface PrivateEmbedAnswers {
  statusJson(url: string): PrivateAnswer
  /** Any path under `/badge/`: the badge module reads the URL (its one `badgeRequest`). */
  badge(url: string): PrivateAnswer
}

/**
 * The front door's `privateEmbed` hook: a response for a GET that carries `auth_token` on a
 * private page's embed, or undefined (at once, without a promise) when the request is not one.
 */
export function privateEmbedHook(answers: PrivateEmbedAnswers) {
  return (request: Request): PrivateAnswer | undefined => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined
    const url = request.url
    if (!url.includes('auth_token=')) return undefined
    const path = requestPath(url)
    if (path === '/api/embed/status') return answers.statusJson(url)
    if (path.startsWith('/badge/')) return answers.badge(url)
    return undefined
  }
}
