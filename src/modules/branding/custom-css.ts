/**
 * Custom CSS of a page (pure check). It is served as its own `text/css` file, never pasted into
 * HTML, so it cannot close a style element; on top of that, `<` (which CSS never needs) is
 * refused, so the text stays harmless even if it ever were inlined. `@import` is refused so a
 * page never pulls styles from elsewhere.
 */
import { badRequest } from '../../lib/errors.ts'
import { requireWellFormed } from '../../lib/text.ts'

const MAX_CUSTOM_CSS_BYTES = 50 * 1024

export function parseCustomCss(raw: string): string | null {
  const css = raw.replace(/\r\n?/g, '\n').trim()
  if (css.length === 0) return null
  requireWellFormed('custom_css', css)
  if (new TextEncoder().encode(css).length > MAX_CUSTOM_CSS_BYTES) {
    throw badRequest(`custom_css must be at most ${MAX_CUSTOM_CSS_BYTES / 1024} KB`)
  }
  if (css.includes('<')) throw badRequest('custom_css must not contain "<" (no HTML inside a stylesheet)')
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(css)) throw badRequest('custom_css must not contain control characters')
  if (/@import/i.test(decodeCssEscapes(css))) throw badRequest('custom_css must not use @import')
  return css
}

/** Resolves CSS escapes (`\\69` or `\\i` for "i") so a keyword cannot hide behind them. */
function decodeCssEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-f]{1,6})\s?|([^\n0-9a-f]))/gi, (_, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff) || 0xfffd) : (ch ?? ''),
  )
}
