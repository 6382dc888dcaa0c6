import { describe, expect, test } from 'bun:test'
import {
  contrastRatio,
  darkTheme,
  DEFAULT_PALETTE,
  ensureContrast,
  lightTheme,
  parseHexColor,
  readableOn,
} from '../../../src/modules/branding/palette.ts'
import { parsePalette } from '../../../src/modules/branding/service.ts'

describe('branding palette', () => {
  test('contrast ratio follows WCAG', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 1)
    expect(readableOn('#ffff00')).toBe('#000000')
    expect(readableOn('#1f4fd1')).toBe('#ffffff')
  })

  test('hex colours are normalised; anything else is refused', () => {
    expect(parseHexColor('#ABC')).toBe('#aabbcc')
    expect(parseHexColor(' #1F6FEB ')).toBe('#1f6feb')
    for (const bad of ['red', '#12345', 'rgb(0,0,0)', '#ggg', '', 'url(x)']) expect(parseHexColor(bad)).toBeUndefined()
  })

  test('ensureContrast moves a colour until it reads on its background', () => {
    const pale = ensureContrast('#9ec5fe', '#ffffff')
    expect(contrastRatio(pale, '#ffffff')).toBeGreaterThanOrEqual(4.5)
    const dark = ensureContrast('#0a2a66', '#0d1117')
    expect(contrastRatio(dark, '#0d1117')).toBeGreaterThanOrEqual(4.5)
  })

  const palettes = [
    DEFAULT_PALETTE,
    { primary: '#ffcc00', secondary: '#bbbbbb', accent: '#ffee88', background: '#fffdf5', text: '#333333' },
    { primary: '#000000', secondary: '#003300', accent: '#001188', background: '#f0fff0', text: '#002200' },
    { primary: '#ff00ff', secondary: '#ff88ff', accent: '#00ffff', background: '#ffffff', text: '#000000' },
  ]
  for (const palette of palettes) {
    test(`derived themes are readable for ${palette.primary}/${palette.background}`, () => {
      for (const theme of [lightTheme(palette), darkTheme(palette)]) {
        expect(contrastRatio(theme.text, theme.surface)).toBeGreaterThanOrEqual(7)
        expect(contrastRatio(theme.muted, theme.surface)).toBeGreaterThanOrEqual(4.5)
        expect(contrastRatio(theme.accent, theme.surface)).toBeGreaterThanOrEqual(4.5)
        expect(contrastRatio(theme.onPrimary, theme.primary)).toBeGreaterThanOrEqual(4.5)
      }
      const dark = darkTheme(palette)
      expect(contrastRatio(dark.background, '#000000')).toBeLessThan(1.5) // really dark
    })
  }

  test('the owner palette must keep text readable on its background', () => {
    expect(() => parsePalette({ text: '#cccccc', background: '#ffffff' })).toThrow(/contrast of 1\.\d+:1/)
    expect(() => parsePalette({ link: '#000000' })).toThrow('palette.link is not a palette colour')
    expect(() => parsePalette({ accent: 'javascript:alert(1)' })).toThrow('palette.accent must be a hex colour')
    expect(parsePalette({ accent: '#ABC' }).accent).toBe('#aabbcc')
  })
})
