/**
 * One colour per status on every public surface: the badge, the widget's dot and bars, the page's
 * banner, component and group statuses and its uptime bars all read this table (pure data, also
 * bundled into the widget). Each status has a light and a dark variant: text in the colour reaches
 * 4.5:1 on white (light) and on #0d1117 (dark), and so does white text on the light colour and
 * #0d1117 text on the dark one (the banner). A badge has one look: the light colours.
 */
import type { DisplayStatus } from './status.ts'
import { MAJOR_DOWN_SHARE, type DayLevel } from './uptime.ts'

export type Scheme = 'light' | 'dark'
export type Tone = Readonly<Record<Scheme, string>>
/** A status, `unknown` (a page nobody may see, a widget that cannot load), or `no_data` (an uptime bar of a day without data). */
export type StatusTone = DisplayStatus | 'unknown' | 'no_data'

export const STATUS_COLOURS: Readonly<Record<StatusTone, Tone>> = {
  operational: { light: '#1a7f37', dark: '#3fb950' },
  degraded_performance: { light: '#9a6700', dark: '#d29922' },
  partial_outage: { light: '#bc4c00', dark: '#db6d28' },
  major_outage: { light: '#cf222e', dark: '#f85149' },
  under_maintenance: { light: '#0969da', dark: '#4493f8' },
  unknown: { light: '#6e7781', dark: '#9198a1' },
  // Decoration, not text: a quiet neutral beside the coloured days.
  no_data: { light: '#d1d9e0', dark: '#3d444d' },
}

/** The status each uptime-bar level wears. */
export const DAY_LEVEL_TONES: Readonly<Record<DayLevel, StatusTone>> = {
  ok: 'operational',
  minor: 'degraded_performance',
  major: 'major_outage',
  none: 'no_data',
}

/**
 * A day's level from its uptime figure alone, by the page's rule (uptime.ts `dayLevel`): 100 % is
 * green, at least MAJOR_DOWN_SHARE of the day down is red, anything between yellow. The widget's bars
 * have only the status JSON's `upd` figures (degraded time counts as up there).
 */
export function dayLevelOfPercent(percent: number | null): DayLevel {
  if (percent === null) return 'none'
  if (percent >= 100) return 'ok'
  return (100 - percent) / 100 >= MAJOR_DOWN_SHARE ? 'major' : 'minor'
}

/** The uptime badge's tone over many days: green from 99.9 %, yellow from 99 %, orange from 95 %, red below. */
export function uptimeTone(percent: number | null): StatusTone {
  if (percent === null) return 'unknown'
  return percent >= 99.9 ? 'operational' : percent >= 99 ? 'degraded_performance' : percent >= 95 ? 'partial_outage' : 'major_outage'
}

/** `--st-<tone>:<colour>` for every tone in one scheme: the custom properties stylesheets read. */
export function toneVariables(scheme: Scheme): string {
  return Object.entries(STATUS_COLOURS)
    .map(([tone, colour]) => `--st-${tone}:${colour[scheme]}`)
    .join(';')
}
