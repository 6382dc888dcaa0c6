/**
 * Badge pictures, drawn by `badge-maker` (the library behind shields.io), which also escapes the
 * text it is given. What the badge says and its colour are decided here. Pure.
 */
import { formatPercent } from '../page-status/uptime.ts'
import { makeBadge } from 'badge-maker'
import type { OverallStatus } from '../page-status/overall.ts'

export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const
export type BadgeStyle = (typeof BADGE_STYLES)[number]
export const MAX_LABEL = 32

/** Value and colour per overall status (DESIGN §5.2); colour names are badge-maker's palette. */
export const STATUS_LOOK: Readonly<Record<OverallStatus | 'unknown', { text: string; color: string }>> = {
  operational: { text: 'Operational', color: 'green' },
  degraded_performance: { text: 'Degraded', color: 'yellow' },
  partial_outage: { text: 'Partial Outage', color: 'orange' },
  major_outage: { text: 'Down', color: 'red' },
  under_maintenance: { text: 'Maintenance', color: 'blue' },
  unknown: { text: 'Unknown', color: 'lightgrey' },
}

/** An unknown style falls back to `flat`: a badge must always render. */
export function parseStyle(raw: string | undefined): BadgeStyle {
  return (BADGE_STYLES as readonly string[]).includes(raw ?? '') ? (raw as BadgeStyle) : 'flat'
}

/**
 * The label to show: the requested one, else the fallback; control characters become spaces and it
 * is clamped to 32 characters (code points, so no emoji is cut in half).
 */
export function clampLabel(requested: string | undefined, fallback: string): string {
  const clean = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim()
  const chosen = requested !== undefined && clean(requested) !== '' ? clean(requested) : clean(fallback)
  const chars = Array.from(chosen)
  return chars.length > MAX_LABEL ? `${chars.slice(0, MAX_LABEL - 1).join('')}…` : chosen
}

export function uptimeLook(percent: number | null): { text: string; color: string } {
  if (percent === null) return { text: 'no data', color: 'lightgrey' }
  const text = `${formatPercent(percent)}%`
  const color = percent >= 99.9 ? 'brightgreen' : percent >= 99 ? 'green' : percent >= 95 ? 'yellow' : percent >= 90 ? 'orange' : 'red'
  return { text, color }
}

export function renderBadge(label: string, look: { text: string; color: string }, style: BadgeStyle): string {
  return makeBadge({ label, message: look.text, color: look.color, style })
}
