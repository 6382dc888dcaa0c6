/**
 * A page's look as files: the theme stylesheet built from its palette and custom CSS, the default
 * favicon, and the headers and cache lifetimes of versioned assets and uploaded images.
 */
import { sha256Hex } from '../../lib/crypto.ts'
import { prepareResponse } from '../../lib/http-cache.ts'
import { darkTheme, lightTheme, themeVariables, type Palette } from '../branding/palette.ts'

const encoder = new TextEncoder()

/** Assets under a versioned URL (`?v=<hash>`) never change: a year in any cache. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

export const prepareCss = (css: string) => prepareResponse(200, css, { contentType: 'text/css; charset=utf-8', cacheControl: IMMUTABLE })

export async function shortHash(bytes: Uint8Array | string): Promise<string> {
  return (await sha256Hex(typeof bytes === 'string' ? encoder.encode(bytes) : bytes)).slice(0, 16)
}

export function themeCss(palette: Palette, customCss: string | null): string {
  const light = themeVariables(lightTheme(palette))
  const dark = themeVariables(darkTheme(palette))
  const custom = customCss ? `\n/* custom CSS of this page */\n${customCss}\n` : ''
  return `:root{${light}}\n@media (prefers-color-scheme:dark){:root{${dark}}}\n${custom}`
}

/** Headers of every image the owner uploaded: an SVG can never run a script, on any browser. */
export const IMAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
}

/**
 * The image headers on a status host. A public page's logo and favicon may be shown from any origin:
 * dashboards frame the page, and the owner's Branding preview frames it in a sandbox, whose origin is
 * opaque (a same-origin policy blocks the logo there). A private page's stay with its own origin.
 */
export const siteImageHeaders = (visibility: 'public' | 'private') =>
  visibility === 'private' ? IMAGE_HEADERS : { ...IMAGE_HEADERS, 'cross-origin-resource-policy': 'cross-origin' }

/** The icon of pages without their own favicon: a lantern-ish light in a rounded square. */
export const DEFAULT_FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f4fd1"/><circle cx="16" cy="17" r="7" fill="#ffd54a"/><rect x="12" y="5" width="8" height="4" rx="2" fill="#fff"/></svg>'
