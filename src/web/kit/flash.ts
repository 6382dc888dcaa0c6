/**
 * Flash messages across a redirect: a POST sets one (`flashCookie(config, {kind, text})` in the 303's
 * Set-Cookie), the next GET reads it (`readFlash(request)`) and clears it (`CLEAR_FLASH` header,
 * which `screen()` in kit/guard.ts adds by itself). The cookie is HttpOnly, SameSite=Lax, Path=/user
 * and lives a minute; its text is always rendered escaped.
 */
import type { Config } from '../../config.ts'
import { readCookie } from '../../lib/cookies.ts'

export interface Flash {
  kind: 'notice' | 'error'
  text: string
}

export const FLASH_COOKIE = 'lantern_flash'
const MAX_TEXT = 300

const attributes = (config: Pick<Config, 'scheme'>, maxAge: number) =>
  `Path=/user; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${config.scheme === 'https' ? '; Secure' : ''}`

/** The Set-Cookie value that carries `flash` to the next page. */
export function flashCookie(config: Pick<Config, 'scheme'>, flash: Flash): string {
  const value = encodeURIComponent(`${flash.kind === 'error' ? 'e' : 'n'}${flash.text.slice(0, MAX_TEXT)}`)
  return `${FLASH_COOKIE}=${value}; ${attributes(config, 60)}`
}

/** The Set-Cookie value that removes the flash once shown. */
export const clearFlashCookie = (config: Pick<Config, 'scheme'>): string => `${FLASH_COOKIE}=; ${attributes(config, 0)}`

/** The flash the request carries, if any (a malformed cookie is ignored). */
export function readFlash(request: Request): Flash | undefined {
  const raw = readCookie(request.headers.get('cookie'), FLASH_COOKIE)
  if (!raw) return undefined
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  const kind = decoded[0] === 'e' ? 'error' : decoded[0] === 'n' ? 'notice' : undefined
  const text = decoded.slice(1, MAX_TEXT + 1)
  return kind && text ? { kind, text } : undefined
}
