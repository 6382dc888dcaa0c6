/** Small helpers for the server-rendered user area: HTML responses, redirects, the session user. */
import type { Config } from '../config.ts'
import { clearCookie, serializeCookie } from '../lib/cookies.ts'
import { SESSION_COOKIE, sessionToken } from '../modules/accounts/auth.ts'
import { SESSION_TTL_MS, type AccountsService, type Owner } from '../modules/accounts/service.ts'

/**
 * Headers every user-area page carries: never cached, never framed, no referrer leaves the site
 * (`same-origin` rather than `no-referrer`, so the browser still sends Origin on our own form posts;
 * the shared analytics view, whose URL holds a token, sends no referrer at all).
 */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

export function htmlPage(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...PAGE_HEADERS, ...headers } })
}

export function redirect(location: string, status = 303, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers } })
}

/** A local path to go back to after logging in: `/…` but never `//host` or `/\host`. */
export function safeNext(raw: string | undefined): string {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/user'
  if (/[\u0000-\u001f\u007f]/.test(raw)) return '/user'
  return raw
}

export const loginRedirect = (request: Request): Response => {
  const url = new URL(request.url)
  return redirect(`/user/login?next=${encodeURIComponent(url.pathname + url.search)}`)
}

export function sessionCookie(config: Config, token: string): string {
  return serializeCookie(SESSION_COOKIE, token, { secure: config.scheme === 'https', maxAgeSeconds: SESSION_TTL_MS / 1000 })
}

export const endSessionCookie = (config: Config): string => clearCookie(SESSION_COOKIE, { secure: config.scheme === 'https' })

/** The team and member of the request's session cookie (API keys do not open HTML pages). */
export async function sessionUser(accounts: AccountsService, request: Request): Promise<Owner | undefined> {
  const token = sessionToken(request)
  return token ? accounts.authenticateSession(token) : undefined
}
