/**
 * Maintenance windows in time (pure): the phase of a window at an instant, the windows that cover
 * a component, and when an answer built from windows changes by itself (its next boundary), which
 * bounds how long any cache may keep it. A window is in progress while `startAt <= now < endAt`.
 */

export type MaintenancePhase = 'scheduled' | 'in_progress' | 'completed'

type Window = { startAt: number; endAt: number }

export function maintenancePhase(window: Window, now: number): MaintenancePhase {
  if (now < window.startAt) return 'scheduled'
  return now < window.endAt ? 'in_progress' : 'completed'
}

export const isMaintenanceActive = (window: Window, now: number): boolean => maintenancePhase(window, now) === 'in_progress'

/** Whether a window covers component `id` (a window without components covers the whole page). */
export const coversComponent = (window: { components: ReadonlyArray<{ id: number }> }, id: number): boolean =>
  window.components.length === 0 || window.components.some((c) => c.id === id)

/** The windows that cover component `id`, as uptime wants them ([start, end) in epoch ms). */
export const maintenanceWindowsOf = (maintenances: ReadonlyArray<Window & { components: ReadonlyArray<{ id: number }> }>, id: number) =>
  maintenances.filter((m) => coversComponent(m, id)).map((m) => ({ start: m.startAt, end: m.endAt }))

/** When an answer built at `now` from these maintenance windows changes by itself: the next start or end. */
export function nextBoundary(maintenances: readonly Window[], now: number): number | undefined {
  const times = maintenances.flatMap((m) => [m.startAt, m.endAt]).filter((t) => t > now)
  return times.length > 0 ? Math.min(...times) : undefined
}

/** A cache lifetime that ends no later than `boundary` (when the answer changes by itself). */
export const ttlUntil = (boundary: number | undefined, now: number, ttlMs: number): number =>
  boundary === undefined ? ttlMs : Math.max(1, Math.min(ttlMs, boundary - now))
