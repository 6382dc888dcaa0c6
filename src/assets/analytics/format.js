// Lantern analytics dashboard: how figures and dates read (pure, no DOM). An ES module served at
// /static/analytics/format.js and imported by dashboard.js; the tests import it too.
// Dates for people come from ./human-time.js, which is src/lib/human-time.ts served to browsers:
// the dashboard writes them exactly as the server does (27 Nov 2026, 14:05 UTC). Chart axes keep
// the compact ISO day (2026-11-23), as the range picker's date inputs do.
import { formatDate, formatDateTime, formatDayRange } from './human-time.js'

var DAY_MS = 86400000

/** Percent with up to 3 decimals, rounded down: a figure reads 100 % only when nothing was down. */
export function pct(v) {
  if (v === null || v === undefined) return '–'
  // The small epsilon keeps 99.996 (stored as 99.99599…) from flooring to 99.995.
  var floored = Math.floor(v * 1000 + 1e-6) / 1000
  return String(Number(floored.toFixed(3))) + ' %'
}

export function num(v) {
  return v === null || v === undefined ? '–' : Number(v).toLocaleString('en')
}

export function ms(v) {
  return v === null || v === undefined ? '–' : Math.round(v) + ' ms'
}

/** Seconds as days, hours and minutes; under a minute in seconds. */
export function duration(s) {
  if (s === null || s === undefined) return '–'
  if (s < 60) return s + ' s'
  var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60)
  var parts = []
  if (d) parts.push(d + ' d')
  if (h) parts.push(h + ' h')
  if (m && !d) parts.push(m + ' min')
  return parts.join(' ') || '0 s'
}

/** The UTC day of an instant (ms), as 2026-11-23. */
export function isoDate(msSinceEpoch) {
  return new Date(msSinceEpoch).toISOString().slice(0, 10)
}

/**
 * The heading of a report's range. `range.to` is exclusive (the end of the last day, or now), so
 * the last day shown is the day of the instant just before it.
 */
export function rangeLabel(range) {
  if (range.key !== 'custom') return 'Last ' + range.days + ' days'
  return formatDayRange(Date.parse(range.from), Date.parse(range.to) - 1) + ' (' + range.days + (range.days === 1 ? ' day)' : ' days)')
}

/** A share-link time: 23 Nov 2026, 14:05 UTC. */
export function utcTime(iso) {
  return iso ? formatDateTime(Date.parse(iso)) : '–'
}

/** A day for people (the chart's tooltip): 23 Nov 2026. */
export function dayLabel(msSinceEpoch) {
  return formatDate(msSinceEpoch)
}

/**
 * The summary's figures of a report, as [label, text] in the order shown: one list for the server's
 * first render (web/analytics/views.ts) and the script's render of a new range (dashboard.js).
 * "Outage periods" are counted from the status history (a component went down), not the incidents
 * published.
 */
export function summaryFigures(r) {
  return [
    ['Uptime', pct(r.uptime_percent)],
    ['Views', num(r.views)],
    ['Unique visitors (daily)', num(r.unique_visitors)],
    ['Views during incidents or maintenance', num(r.incident_views)],
    ['Unique visitors during incidents or maintenance', num(r.incident_unique_visitors)],
    ['Outage periods (a component went down)', num(r.incidents)],
    ['Total downtime', duration(r.downtime_s)],
    ['MTTR', duration(r.mttr_s)],
    ['MTBF', duration(r.mtbf_s)],
    ['Avg response', ms(r.avg_response_ms)],
    ['p95 response', ms(r.p95_response_ms)],
  ]
}

export { DAY_MS }
