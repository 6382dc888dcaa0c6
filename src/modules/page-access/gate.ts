/** The visitor's side of the gate of a private page: the session cookie and where to go after it. */
import { counted } from '../../lib/words.ts'
import { readCookie } from '../../lib/cookies.ts'
import { SESSION_TTL_MS, type PageAccessService } from './service.ts'

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

/** What to answer one post of the gate form: the gate again (with an error), or into the page with a session. */
export type GateFormOutcome =
  | { kind: 'gate'; status: number; next: string; error?: string; retryAfterSeconds?: number }
  | { kind: 'open'; next: string; setCookie: string }

/** Who may read a private page on a status host, and the gate form's outcome (no HTTP here). */
export class VisitorGate {
  private readonly cookieName: string

  constructor(
    private readonly access: PageAccessService,
    private readonly scheme: 'http' | 'https',
  ) {
    this.cookieName = sessionCookieName(scheme)
  }

  /** Visitors of a private page need a session; scripts may bring the embed token instead. */
  async mayRead(
    page: { pageId: number; host: string; visibility: 'public' | 'private' },
    visitor: { cookieHeader: string | null; url: string },
    allowToken: boolean,
  ): Promise<boolean> {
    if (page.visibility === 'public') return true
    if (await this.access.sessionGrants(readCookie(visitor.cookieHeader, this.cookieName), page.pageId, page.host)) return true
    if (!allowToken) return false
    const token = new URL(visitor.url).searchParams.get('auth_token')
    return this.access.embedTokenGrants(page.pageId, token)
  }

  /** One post of the gate form of `pageId` on `host` by `client`. */
  async submit(input: { pageId: number; host: string; client: string; form: URLSearchParams }): Promise<GateFormOutcome> {
    const password = input.form.get('password') ?? ''
    const next = safeNext(input.form.get('next'))
    const result = await this.access.attempt({ pageId: input.pageId, host: input.host, client: input.client, password })
    switch (result.kind) {
      case 'no-password':
        return { kind: 'gate', status: 403, next }
      case 'limited': {
        const minutes = Math.ceil(result.retryAfterSeconds / 60)
        return {
          kind: 'gate',
          status: 429,
          error: `Too many attempts. Try again in ${counted(minutes, 'minute')}.`,
          retryAfterSeconds: result.retryAfterSeconds,
          next,
        }
      }
      case 'wrong':
        return { kind: 'gate', status: 401, error: 'Wrong password.', next }
      case 'ok':
        return { kind: 'open', next, setCookie: sessionCookie(this.scheme, result.token) }
    }
  }
}
