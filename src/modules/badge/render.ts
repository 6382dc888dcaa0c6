/**
 * Badge pictures, drawn by `badge-maker` (the library behind shields.io), which also escapes the
 * text it is given. What the badge says and its colour are decided here. Pure.
 */
import { formatPercent } from '../status-pipeline/uptime.ts'
import type { OverallStatus } from '../status-pipeline/overall.ts'
import { STATUS_COLOURS, uptimeTone, type StatusTone } from '../status-pipeline/colours.ts'

export const BADGE_STYLES = ['flat', 'flat-square', 'plastic', 'for-the-badge', 'social'] as const
export type BadgeStyle = (typeof BADGE_STYLES)[number]
export const MAX_LABEL = 32

/** A badge has one look: the light colours of the status table (status-pipeline/colours.ts). */
const colourOf = (tone: StatusTone) => STATUS_COLOURS[tone].light

/** Value and colour per overall status: the colours every public surface uses. */
export const STATUS_LOOK: Readonly<Record<OverallStatus | 'unknown', { text: string; color: string }>> = {
  operational: { text: 'Operational', color: colourOf('operational') },
  degraded_performance: { text: 'Degraded', color: colourOf('degraded_performance') },
  partial_outage: { text: 'Partial Outage', color: colourOf('partial_outage') },
  major_outage: { text: 'Down', color: colourOf('major_outage') },
  under_maintenance: { text: 'Maintenance', color: colourOf('under_maintenance') },
  unknown: { text: 'Unknown', color: colourOf('unknown') },
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
  return { text: percent === null ? 'no data' : `${formatPercent(percent)}%`, color: colourOf(uptimeTone(percent)) }
}

// badge-maker holds its font-width tables (some 40,000 small arrays, about 4 MB) once loaded: it
// loads with the first badge, so a server nobody asks for a badge never holds them.
let badgeMaker: Promise<typeof import('badge-maker')> | undefined

export async function renderBadge(label: string, look: { text: string; color: string }, style: BadgeStyle): Promise<string> {
  const { makeBadge } = await (badgeMaker ??= import('badge-maker'))
  return makeBadge({ label, message: look.text, color: look.color, style })
}
