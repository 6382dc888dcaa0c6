/**
 * What a page's branding is: the one shape both the request schemas (model.ts) and the service read.
 */
import type { Palette, Theme } from './palette.ts'

export interface Branding {
  palette: Palette
  light: Theme
  dark: Theme
  contrast: { text_on_background: number; dark_text_on_background: number }
  customCss: string | null
  favicon: { type: string; bytes: number } | null
  logo: { type: string; bytes: number } | null
}
