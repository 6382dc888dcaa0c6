import { t, type Static } from 'elysia'
import { boundedText, modelRef, namedModels } from '../../http/schemas.ts'
import { toIso } from '../../lib/time.ts'
import { maintenancePhase } from '../status-pipeline/windows.ts'
import { WEEKDAYS } from './recurrence.ts'
import type { MaintenanceSeries } from './series.ts'
import { MAINTENANCE_UPDATE_STATUSES, MAX_MESSAGE, MAX_TITLE, type Maintenance, type MaintenanceUpdate } from './types.ts'

const time = (field: string) => t.String({ maxLength: 64, error: `${field} must be an RFC 3339 date-time`, description: 'RFC 3339' })
const title = boundedText('title', MAX_TITLE)
const message = boundedText('message', MAX_MESSAGE)
const componentIds = t.Array(t.Integer({ minimum: 1, error: 'component_ids must contain positive integer ids' }), {
  maxItems: 100,
  error: 'component_ids must be an array of at most 100 component ids',
  description: 'Affected components; empty or absent means the whole page',
})

export const CreateMaintenanceBody = t.Object({
  status_page_id: t.Integer({ minimum: 1, error: 'status_page_id must be a positive integer' }),
  title,
  start_at: time('start_at'),
  end_at: time('end_at'),
  message: t.Optional(message),
  component_ids: t.Optional(componentIds),
  notify_subscribers: t.Optional(
    t.Boolean({
      error: 'notify_subscribers must be true or false',
      description: "Also tell the page's subscribers when the window is scheduled, starts and ends (default false). The owner's own notification channels hear every maintenance event they listen to.",
    }),
  ),
})

export const UpdateMaintenanceBody = t.Object({
  title: t.Optional(title),
  start_at: t.Optional(time('start_at')),
  end_at: t.Optional(time('end_at')),
  message: t.Optional(message),
  component_ids: t.Optional(componentIds),
})

const UpdateStatusSchema = t.Union(
  MAINTENANCE_UPDATE_STATUSES.map((status) => t.Literal(status)),
  { error: `status must be one of ${MAINTENANCE_UPDATE_STATUSES.join(', ')}` },
)

export const MaintenanceUpdateBody = t.Object({
  message: t.String({
    maxLength: MAX_MESSAGE,
    error: `message must be text of at most ${MAX_MESSAGE} characters`,
    description: 'The update in Markdown (links, emphasis, lists, code; markup stays text)',
    examples: ['The database upgrade is done; we are **verifying** the replicas.'],
  }),
  status: t.Optional(
    t.Union(MAINTENANCE_UPDATE_STATUSES.map((status) => t.Literal(status)), {
      error: `status must be one of ${MAINTENANCE_UPDATE_STATUSES.join(', ')}`,
      description: "The label the update is shown under (Statuspage's maintenance update statuses). Default: the window's phase now (scheduled, in_progress or completed). It does not move the window: its phase follows start_at and end_at.",
      examples: ['verifying'],
    }),
  ),
})

export type MaintenanceUpdateInput = Partial<Static<typeof MaintenanceUpdateBody>>

/** What create and update take: the JSON bodies; the service checks what is required itself. */
export type MaintenanceInput = Partial<Static<typeof CreateMaintenanceBody>>

export const MaintenanceListQuery = t.Object({
  status_page_id: t.Optional(t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: 'status_page_id must be a positive integer' })),
  limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200, multipleOf: 1, error: 'limit must be an integer from 1 to 200' })),
})

// Built twice: once inside Maintenance, once as the named model the list of updates answers.
const updateJsonSchema = () =>
  t.Object({
    id: t.Integer(),
    status: UpdateStatusSchema,
    message: t.String({ description: 'Markdown' }),
    at: t.String({ description: 'RFC 3339' }),
  })
const MaintenanceUpdateJson = updateJsonSchema()

const MaintenanceJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  title: t.String(),
  message: t.String(),
  start_at: t.String({ description: 'RFC 3339' }),
  end_at: t.String({ description: 'RFC 3339' }),
  status: t.Union([t.Literal('scheduled'), t.Literal('in_progress'), t.Literal('completed')], {
    description: 'Derived from the current time',
  }),
  components: t.Array(t.Object({ id: t.Integer(), name: t.String() })),
  series_id: t.Union([t.Integer(), t.Null()], { description: 'The recurring series this window is an occurrence of; null for a one-off window' }),
  updates: t.Array(updateJsonSchema(), { description: "The window's timeline, newest first (for an occurrence of a series: that occurrence's)" }),
  created_at: t.String(),
  updated_at: t.String(),
})

/** The named models of the OpenAPI document this module defines. */
export const maintenanceModels = namedModels({ Maintenance: MaintenanceJson, MaintenanceUpdate: MaintenanceUpdateJson })
export const MaintenanceRef = modelRef(maintenanceModels, 'Maintenance')
export const MaintenanceUpdateRef = modelRef(maintenanceModels, 'MaintenanceUpdate')

export function maintenanceUpdateJson(update: MaintenanceUpdate): Static<typeof MaintenanceUpdateJson> {
  return { id: update.id, status: update.status, message: update.message, at: toIso(update.at) }
}

export function maintenanceJson(window: Maintenance, now: number): Static<typeof MaintenanceJson> {
  return {
    id: window.id,
    page_id: window.pageId,
    title: window.title,
    message: window.message,
    start_at: toIso(window.startAt),
    end_at: toIso(window.endAt),
    status: maintenancePhase(window, now),
    components: window.components,
    series_id: window.seriesId,
    updates: window.updates.map(maintenanceUpdateJson),
    created_at: toIso(window.createdAt),
    updated_at: toIso(window.updatedAt),
  }
}

// ---- recurring series -------------------------------------------------------------------------

const localDate = (field: string, description: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, error: `${field} must be a date (YYYY-MM-DD)`, description, examples: ['2027-03-27'] })
const seriesFields = {
  title,
  message: t.Optional(message),
  component_ids: t.Optional(componentIds),
  time_zone: t.String({ minLength: 1, maxLength: 64, error: 'time_zone must be an IANA time zone', description: 'IANA time zone the rule runs in, such as Europe/Berlin', examples: ['Europe/Berlin'] }),
  starts_on: localDate('starts_on', 'First local date of the rule'),
  start_time: t.String({ pattern: '^\\d{2}:\\d{2}$', maxLength: 5, error: 'start_time must be a time of day (HH:MM, 24-hour)', description: 'Local start time, HH:MM (24-hour); it stays the same across daylight-saving changes', examples: ['02:00'] }),
  duration_minutes: t.Integer({ minimum: 1, maximum: 27 * 1440, error: 'duration_minutes must be a whole number of minutes from 1', description: 'Length of each occurrence; shorter than the time between two occurrences' }),
  frequency: t.Union([t.Literal('daily'), t.Literal('weekly'), t.Literal('monthly')], { error: 'frequency must be daily, weekly or monthly', description: 'How often it repeats' }),
  interval: t.Optional(t.Integer({ minimum: 1, maximum: 366, error: 'interval must be an integer from 1 to 366', description: 'Every n days, weeks or months (default 1)' })),
  weekdays: t.Optional(
    t.Array(t.Union(WEEKDAYS.map((day) => t.Literal(day))), { maxItems: 7, uniqueItems: true, error: 'weekdays must be distinct days among MO, TU, WE, TH, FR, SA, SU', description: 'Weekly: the days it happens on (default: the weekday of starts_on)' }),
  ),
  month_day: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 31, error: 'month_day must be from 1 to 31' }), t.Null()], { description: 'Monthly: the day of the month (default: the day of starts_on); months without it are skipped' })),
  until: t.Optional(t.Union([localDate('until', 'Last local date an occurrence may fall on'), t.Null()], { description: 'Last local date an occurrence may fall on; null: no end date' })),
  count: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 1000, error: 'count must be an integer from 1 to 1000' }), t.Null()], { description: 'Number of occurrences (skipped dates included, as in iCalendar); null: no count' })),
  exceptions: t.Optional(t.Array(localDate('exceptions', 'A skipped local date'), { maxItems: 500, error: 'exceptions must be at most 500 dates (YYYY-MM-DD)', description: 'Local dates on which it does not happen' })),
}

export const CreateMaintenanceSeriesBody = t.Object({
  status_page_id: t.Integer({ minimum: 1, error: 'status_page_id must be a positive integer' }),
  ...seriesFields,
  notify_subscribers: t.Optional(t.Boolean({ error: 'notify_subscribers must be true or false', description: "Tell the page's subscribers when the series is scheduled and when each occurrence starts and ends (default false)" })),
})

export const UpdateMaintenanceSeriesBody = t.Partial(t.Object(seriesFields))

export type MaintenanceSeriesInput = Partial<Static<typeof CreateMaintenanceSeriesBody>>

const OccurrenceJson = t.Object({
  date: t.String({ description: 'Local date in the series time zone' }),
  start_at: t.String({ description: 'RFC 3339' }),
  end_at: t.String({ description: 'RFC 3339' }),
})

const MaintenanceSeriesJson = t.Object({
  id: t.Integer(),
  page_id: t.Integer(),
  title: t.String(),
  message: t.String(),
  time_zone: t.String(),
  starts_on: t.String(),
  start_time: t.String(),
  duration_minutes: t.Integer(),
  frequency: t.Union([t.Literal('daily'), t.Literal('weekly'), t.Literal('monthly')]),
  interval: t.Integer(),
  weekdays: t.Array(t.String()),
  month_day: t.Union([t.Integer(), t.Null()]),
  until: t.Union([t.String(), t.Null()]),
  count: t.Union([t.Integer(), t.Null()]),
  exceptions: t.Array(t.String()),
  components: t.Array(t.Object({ id: t.Integer(), name: t.String() })),
  notify_subscribers: t.Boolean(),
  status: t.Union([t.Literal('active'), t.Literal('cancelled')]),
  sequence: t.Integer({ description: 'Raised by every change (the calendar feed SEQUENCE)' }),
  next_occurrences: t.Array(OccurrenceJson, { description: 'The next occurrences not yet over' }),
  created_at: t.String(),
  updated_at: t.String(),
})

export const maintenanceSeriesModels = namedModels({ MaintenanceSeries: MaintenanceSeriesJson })
export const MaintenanceSeriesRef = modelRef(maintenanceSeriesModels, 'MaintenanceSeries')

export function maintenanceSeriesJson(series: MaintenanceSeries): Static<typeof MaintenanceSeriesJson> {
  const { rule } = series
  return {
    id: series.id,
    page_id: series.pageId,
    title: series.title,
    message: series.message,
    time_zone: rule.timeZone,
    starts_on: rule.startsOn,
    start_time: rule.startTime,
    duration_minutes: rule.durationMinutes,
    frequency: rule.frequency,
    interval: rule.interval,
    weekdays: [...rule.weekdays],
    month_day: rule.monthDay ?? null,
    until: rule.untilOn ?? null,
    count: rule.count ?? null,
    exceptions: [...rule.exceptions],
    components: series.components,
    notify_subscribers: series.notifySubscribers,
    status: series.cancelledAt === null ? 'active' : 'cancelled',
    sequence: series.sequence,
    next_occurrences: series.next.map((o) => ({ date: o.on, start_at: toIso(o.startAt), end_at: toIso(o.endAt) })),
    created_at: toIso(series.createdAt),
    updated_at: toIso(series.updatedAt),
  }
}
