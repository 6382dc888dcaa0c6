/**
 * Branding colours (pure): parsing, WCAG contrast, and the dark palette derived from the owner's
 * light one. Every colour used for text is pushed until it reaches 4.5:1 on its background.
 */
export const PALETTE_KEYS = ['primary', 'secondary', 'accent', 'background', 'text'] as const
export type PaletteKey = (typeof PALETTE_KEYS)[number]
export type Palette = Record<PaletteKey, string>

export const DEFAULT_PALETTE: Palette = {
  primary: '#1f4fd1',
  secondary: '#59636e',
  accent: '#0a66d8',
  background: '#ffffff',
  text: '#1f2328',
}

/** The palette stored as JSON (null: none), over the defaults; unreadable JSON reads as the defaults. */
export function storedPalette(json: string | null): Palette {
  if (!json) return DEFAULT_PALETTE
  try {
    return { ...DEFAULT_PALETTE, ...(JSON.parse(json) as Partial<Palette>) }
  } catch {
    return DEFAULT_PALETTE
  }
}

export const MIN_TEXT_CONTRAST = 4.5

type Rgb = [number, number, number]

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i

export function parseHexColor(value: string): string | undefined {
  const trimmed = value.trim()
  if (!HEX.test(trimmed)) return undefined
  const hex = trimmed.slice(1).toLowerCase()
  return hex.length === 3 ? `#${hex.split('').map((c) => c + c).join('')}` : `#${hex}`
}

function toRgb(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`
}

function relativeLuminance(hex: string): number {
  const [r, g, b] = toRgb(hex).map((v) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a)
  const lb = relativeLuminance(b)
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

function toHsl(hex: string): [number, number, number] {
  const [r, g, b] = toRgb(hex).map((v) => v / 255) as Rgb
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return [h * 60, s, l]
}

function fromHsl(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return toHex([f(0) * 255, f(8) * 255, f(4) * 255])
}

/** Black or white, whichever reads better on `background`. */
export function readableOn(background: string): string {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff'
}

/**
 * `color` itself when it reaches `min` on `background`; else the same hue made lighter or darker
 * (away from the background) until it does. Falls back to black or white.
 */
export function ensureContrast(color: string, background: string, min = MIN_TEXT_CONTRAST): string {
  if (contrastRatio(color, background) >= min) return color
  const [h, s, l] = toHsl(color)
  const lighter = relativeLuminance(background) < 0.18
  for (let step = 1; step <= 100; step++) {
    const next = lighter ? Math.min(1, l + step / 100) : Math.max(0, l - step / 100)
    const candidate = fromHsl(h, s, next)
    if (contrastRatio(candidate, background) >= min) return candidate
  }
  return readableOn(background)
}

export interface Theme {
  background: string
  surface: string
  border: string
  text: string
  muted: string
  accent: string
  primary: string
  onPrimary: string
}

function themeFrom(background: string, surface: string, border: string, palette: Palette): Theme {
  const text = ensureContrast(palette.text, surface, 7)
  return {
    background,
    surface,
    border,
    text,
    muted: ensureContrast(palette.secondary, surface),
    accent: ensureContrast(palette.accent, surface),
    primary: palette.primary,
    onPrimary: readableOn(palette.primary),
  }
}

/** Colours for light mode: the owner's palette, text colours made readable where needed. */
export function lightTheme(palette: Palette): Theme {
  const bg = palette.background
  const surfaceShift = relativeLuminance(bg) > 0.5 ? -0.03 : 0.04
  const [h, s, l] = toHsl(bg)
  const surface = bg
  const border = fromHsl(h, Math.min(s, 0.3), Math.min(1, Math.max(0, l + surfaceShift * 4)))
  return themeFrom(bg, surface, border, palette)
}

/**
 * Colours for dark mode, derived: a near-black background in the hue of the owner's background,
 * light text in the hue of theirs, primary and accent in their hues made light enough to read.
 */
export function darkTheme(palette: Palette): Theme {
  const [bh, bs] = toHsl(palette.background)
  const background = fromHsl(bh, Math.min(bs, 0.25), 0.08)
  const surface = fromHsl(bh, Math.min(bs, 0.25), 0.11)
  const border = fromHsl(bh, Math.min(bs, 0.2), 0.24)
  const [th, ts] = toHsl(palette.text)
  const [ph, ps, pl] = toHsl(palette.primary)
  const primary = fromHsl(ph, ps, Math.min(pl, 0.45))
  return themeFrom(background, surface, border, {
    primary,
    background,
    text: fromHsl(th, Math.min(ts, 0.2), 0.92),
    secondary: palette.secondary,
    accent: palette.accent,
  })
}

/** The CSS custom properties of a theme, for `:root`. */
export function themeVariables(theme: Theme): string {
  return [
    `--bg:${theme.background}`,
    `--surface:${theme.surface}`,
    `--border:${theme.border}`,
    `--text:${theme.text}`,
    `--muted:${theme.muted}`,
    `--accent:${theme.accent}`,
    `--primary:${theme.primary}`,
    `--on-primary:${theme.onPrimary}`,
  ].join(';')
}
