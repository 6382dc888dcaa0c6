/** Reading the Cookie header and writing Set-Cookie values (RFC 6265), without a framework. */

/** The value of cookie `name` in a Cookie header, or undefined. The first occurrence wins. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    if (part.slice(0, eq).trim() !== name) continue
    const value = part.slice(eq + 1).trim()
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value
  }
  return undefined
}

export interface CookieOptions {
  maxAgeSeconds?: number
  secure: boolean
  path?: string
  /** Lax unless said: Strict for a cookie no page opened from another site should carry. */
  sameSite?: 'Lax' | 'Strict'
}

/** An HttpOnly cookie, SameSite=Lax unless told; `value` must already be cookie-safe (e.g. base64url). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, 'HttpOnly', `SameSite=${options.sameSite ?? 'Lax'}`]
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`)
  if (options.secure) parts.push('Secure')
  return parts.join('; ')
}

export const clearCookie = (name: string, options: Omit<CookieOptions, 'maxAgeSeconds'>): string =>
  serializeCookie(name, '', { ...options, maxAgeSeconds: 0 })
