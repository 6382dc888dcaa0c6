// Lantern analytics dashboard: the ranges of the charts' axes (pure, no DOM). An ES module served at
// /static/analytics/scales.js and imported by dashboard.js; the tests import it too.

var DAY_S = 86400

/**
 * The uptime axis, in percent: from just under the lowest day to 100, never beyond. A little room
 * above 100 keeps a line at 100 % from being cut in half by the top edge (ticks above 100 carry no
 * label). With no data: 0 to 100.
 */
export function uptimeRange(min) {
  var low = min === null || min === undefined || !Number.isFinite(min) ? 0 : Math.max(0, Math.floor(Math.min(min, 99)))
  return [low, 100 + (100 - low) * 0.04]
}

/** Tick labels of the uptime axis: none above 100 %. */
export function uptimeTicks(splits) {
  return splits.map(function (v) { return v > 100 + 1e-9 ? '' : Number(v.toFixed(2)) + ' %' })
}

/**
 * The day axis (uPlot's time scale, in seconds): half a day of room before the first day and after
 * the last, so the first and last points (today's) are drawn whole, not cut by the plot's edge.
 */
export function dayRange(min, max) {
  if (min === null || max === null || min === undefined || max === undefined) return [0, DAY_S]
  return [min - DAY_S / 2, max + DAY_S / 2]
}
