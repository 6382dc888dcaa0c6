/** The visitor's side of the gate of a private page: the session cookie and where to go after it. */
import { SESSION_TTL_MS } from './service.ts'

export function sessionCookieName(scheme: 'http' | 'https'): string {
  // `__Host-` makes browsers keep the cookie to this exact host, over https only.
  return scheme === 'https' ? '__Host-lantern_access' : 'lantern_access'
}

/** The `set-cookie` value of a session the gate just opened. */
export function sessionCookie(scheme: 'http' | 'https', token: string): string {
  const secure = scheme === 'https' ? '; Secure' : ''
  return `${sessionCookieName(scheme)}=${token}; Path=/; Max-Age=${SESSION_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`
}

/** A local path to return to after the gate; anything else goes to the page itself. */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || /[\u0000-\u001f\\]/.test(raw)) return '/'
  return raw
}
