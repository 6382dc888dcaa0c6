/**
 * Recurring maintenance: a series holds a rule (recurrence.ts) and its occurrences are written as
 * ordinary maintenance windows (`maintenances` rows with `series_id`) up to HORIZON_MS ahead, so the
 * status pipeline, uptime and the start/end notices treat each one exactly as a one-off window.
 * `extend()` (a job) keeps the horizon filled; a change rewrites the occurrences not yet started
 * (one in progress keeps its times and takes the new title and message); cancelling keeps the
 * series (the calendar shows it cancelled) and removes the occurrences not yet started.
 * Every change raises `sequence` (iCalendar SEQUENCE). Someone else's series is a 404.
 */
import type { Selectable } from 'kysely'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { Clock } from '../../lib/clock.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import { parseText } from '../../lib/text.ts'
import type { Owner } from '../accounts/service.ts'
import { requireComponentsOnPage } from '../components/service.ts'
import { Notifier } from '../notify/contract.ts'
import type { StatusPagesService } from '../status-pages/service.ts'
import type { MaintenanceSeriesInput } from './model.ts'
import { dayNumber, FREQUENCIES, instantOf, isLocalDate, isLocalTime, isTimeZone, occurrences, WEEKDAYS, type Occurrence, type RecurrenceRule, type Weekday } from './recurrence.ts'
import type { MaintenanceSeriesRepo } from './repo.ts'
import type { MaintenanceSeriesTable } from './tables.ts'
import { cancelledShownUntil, MAX_MESSAGE, MAX_TITLE } from './types.ts'

/** How far ahead occurrences are written as windows. */
export const HORIZON_MS = 60 * 86_400_000
/** At most this many occurrences written per series and pass. */
const MAX_WRITTEN = 100
/** How many coming occurrences a series shows. */
export const NEXT_SHOWN = 5
export const MAX_EXCEPTIONS = 500
export const MAX_COUNT = 1000

export interface MaintenanceSeries {
  id: number
  pageId: number
  title: string
  message: string
  rule: RecurrenceRule
  components: Array<{ id: number; name: string }>
  notifySubscribers: boolean
  sequence: number
  cancelledAt: number | null
  /** The next occurrences not yet over, from the rule (an occurrence in progress first). */
  next: Occurrence[]
  createdAt: number
  updatedAt: number
}

export function ruleOf(row: Selectable<MaintenanceSeriesTable>): RecurrenceRule {
  return {
    timeZone: row.time_zone,
    startsOn: row.starts_on,
    startTime: row.start_time,
    durationMinutes: row.duration_minutes,
    frequency: row.frequency,
    interval: row.repeat_interval,
    weekdays: row.weekdays === '' ? [] : (row.weekdays.split(',') as Weekday[]),
    monthDay: row.month_day ?? undefined,
    untilOn: row.until_on ?? undefined,
    count: row.count ?? undefined,
    exceptions: row.exceptions === '' ? [] : row.exceptions.split(','),
  }
}

/** When the rule's last occurrence ends (undefined: it repeats for good). */
export function lastEnd(rule: RecurrenceRule): number | undefined {
  if (rule.count !== undefined) return occurrences({ ...rule, exceptions: [] }, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: rule.count }).at(-1)?.endAt ?? 0
  if (rule.untilOn === undefined) return undefined
  // At most the end of an occurrence on the last local date.
  const [hour, minute] = rule.startTime.split(':').map(Number) as [number, number]
  return instantOf(rule.timeZone, dayNumber(rule.untilOn)! * 86_400_000 + hour * 3_600_000 + minute * 60_000) + rule.durationMinutes * 60_000
}

/** The shortest time between two occurrence days of a rule, in days. */
function shortestGapDays(rule: RecurrenceRule): number {
  if (rule.frequency === 'daily') return rule.interval
  if (rule.frequency === 'monthly') return 28 * rule.interval
  const days = [...new Set(rule.weekdays.map((w) => WEEKDAYS.indexOf(w)))].toSorted((a, b) => a - b)
  if (days.length <= 1) return 7 * rule.interval
  const gaps = days.slice(1).map((day, i) => day - days[i]!)
  gaps.push(7 * rule.interval - days.at(-1)! + days[0]!)
  return Math.min(...gaps)
}

/** Checks a whole rule: a 400 names the first field that is wrong. */
export function checkRule(rule: RecurrenceRule): void {
  if (!isTimeZone(rule.timeZone)) throw badRequest('time_zone must be an IANA time zone such as Europe/Berlin')
  if (!isLocalDate(rule.startsOn)) throw badRequest('starts_on must be a date (YYYY-MM-DD)')
  if (!isLocalTime(rule.startTime)) throw badRequest('start_time must be a time of day (HH:MM, 24-hour)')
  if (!FREQUENCIES.includes(rule.frequency)) throw badRequest('frequency must be daily, weekly or monthly')
  if (!Number.isInteger(rule.interval) || rule.interval < 1 || rule.interval > 366) throw badRequest('interval must be an integer from 1 to 366')
  if (!Number.isInteger(rule.durationMinutes) || rule.durationMinutes < 1) throw badRequest('duration_minutes must be a whole number of minutes from 1')
  if (rule.weekdays.some((day) => !WEEKDAYS.includes(day)) || new Set(rule.weekdays).size !== rule.weekdays.length) throw badRequest('weekdays must be distinct days among MO, TU, WE, TH, FR, SA, SU')
  if (rule.monthDay !== undefined && !(Number.isInteger(rule.monthDay) && rule.monthDay >= 1 && rule.monthDay <= 31)) throw badRequest('month_day must be from 1 to 31')
  if (rule.count !== undefined && !(Number.isInteger(rule.count) && rule.count >= 1 && rule.count <= MAX_COUNT)) throw badRequest(`count must be an integer from 1 to ${MAX_COUNT}`)
  if (rule.exceptions.length > MAX_EXCEPTIONS) throw badRequest(`exceptions must be at most ${MAX_EXCEPTIONS} dates`)
  if (rule.weekdays.length > 0 && rule.frequency !== 'weekly') throw badRequest('weekdays only apply to a weekly rule')
  if (rule.monthDay !== undefined && rule.frequency !== 'monthly') throw badRequest('month_day only applies to a monthly rule')
  if (rule.untilOn !== undefined && rule.count !== undefined) throw badRequest('give until or count, not both')
  if (rule.untilOn !== undefined) {
    const until = dayNumber(rule.untilOn)
    if (until === undefined) throw badRequest('until must be a date (YYYY-MM-DD)')
    if (until < dayNumber(rule.startsOn)!) throw badRequest('until must not be before starts_on')
  }
  for (const date of rule.exceptions) if (!isLocalDate(date)) throw badRequest('exceptions must be dates (YYYY-MM-DD)')
  // One occurrence must end before the next starts, even on a day an hour short (daylight saving).
  const longest = shortestGapDays(rule) * 1440 - 60
  if (rule.durationMinutes > longest) throw badRequest(`duration_minutes must be at most ${longest} for this rule, so occurrences never overlap`)
}

export interface MaintenanceSeriesServiceDeps {
  repo: MaintenanceSeriesRepo
  pages: StatusPagesService
  clock: Clock
  changes: ChangeFeed
  notifier?: Notifier
}

export class MaintenanceSeriesService {
  private readonly notifier: Notifier

  constructor(private readonly deps: MaintenanceSeriesServiceDeps) {
    this.notifier = deps.notifier ?? new Notifier()
  }

  async list(owner: Owner, filter: { pageId?: number; limit?: number } = {}): Promise<MaintenanceSeries[]> {
    if (filter.pageId !== undefined) await this.deps.pages.get(owner, filter.pageId)
    return this.hydrate(await this.deps.repo.list({ ownerId: owner.id, pageId: filter.pageId, limit: filter.limit ?? 50 }))
  }

  async get(owner: Owner, id: number): Promise<MaintenanceSeries> {
    const row = await this.deps.repo.findWithOwner(id)
    if (!row || row.owner_id !== owner.id) throw notFound()
    return (await this.hydrate([row]))[0]!
  }

  /**
   * Every series of a page for the calendar feed: cancelled ones too (shown cancelled) until
   * CANCELLED_SHOWN_MS past the later of the cancellation and the rule's last occurrence (one
   * without an end stays).
   */
  async allForPage(pageId: number, limit = 200): Promise<MaintenanceSeries[]> {
    const now = this.deps.clock.now()
    const rows = await this.deps.repo.list({ pageId, limit })
    return this.hydrate(rows.filter((row) => row.cancelled_at === null || cancelledShownUntil(row.cancelled_at, lastEnd(ruleOf(row))) > now))
  }

  async create(owner: Owner, input: MaintenanceSeriesInput): Promise<MaintenanceSeries> {
    if (input.status_page_id === undefined) throw badRequest('status_page_id is required')
    for (const field of ['title', 'time_zone', 'starts_on', 'start_time', 'duration_minutes', 'frequency'] as const) {
      if (input[field] === undefined) throw badRequest(`${field} is required`)
    }
    const title = parseText('title', input.title!, { max: MAX_TITLE })
    const message = parseText('message', input.message ?? '', { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const rule = this.ruleFrom(input, undefined)
    const pageId = input.status_page_id
    await this.deps.pages.get(owner, pageId)
    const componentIds = await this.checkedComponents(pageId, input.component_ids ?? [])
    const id = await this.deps.repo.transaction(async (repo) => {
      const now = this.deps.clock.now()
      const row = await repo.insert({ page_id: pageId, title, message, ...columnsOf(rule), notify_subscribers: input.notify_subscribers ? 1 : 0, created_at: now, updated_at: now })
      await repo.setComponents(row.id, componentIds)
      const written = await this.write(repo, row, componentIds, now)
      // Subscribers hear of the series once, through its first occurrence.
      if (written[0] !== undefined) {
        await this.notifier.emit(repo.db, { kind: 'maintenance.scheduled', pageId, maintenanceId: written[0], notifySubscribers: row.notify_subscribers === 1, at: now })
      }
      return row.id
    })
    this.deps.changes.pageChanged(pageId)
    return this.get(owner, id)
  }

  async update(owner: Owner, id: number, input: Omit<MaintenanceSeriesInput, 'status_page_id'>): Promise<MaintenanceSeries> {
    const current = await this.get(owner, id)
    if (current.cancelledAt !== null) throw badRequest('a cancelled series cannot be changed')
    const title = input.title === undefined ? current.title : parseText('title', input.title, { max: MAX_TITLE })
    const message = input.message === undefined ? current.message : parseText('message', input.message, { max: MAX_MESSAGE, multiline: true, allowEmpty: true })
    const rule = this.ruleFrom(input, current.rule)
    const componentIds = input.component_ids === undefined ? current.components.map((c) => c.id) : await this.checkedComponents(current.pageId, input.component_ids)
    await this.deps.repo.transaction(async (repo) => {
      const now = this.deps.clock.now()
      const row = await repo.update(id, { title, message, ...columnsOf(rule), sequence: current.sequence + 1, updated_at: now })
      await repo.setComponents(id, componentIds)
      await repo.deleteUnstarted(id, now)
      await repo.retitleOpen(id, { title, message }, now)
      await this.write(repo, row, componentIds, now)
    })
    this.deps.changes.pageChanged(current.pageId)
    return this.get(owner, id)
  }

  /** Cancels the series: no more occurrences; one in progress runs to its end. */
  async cancel(owner: Owner, id: number): Promise<MaintenanceSeries> {
    const current = await this.get(owner, id)
    if (current.cancelledAt === null) {
      await this.deps.repo.transaction(async (repo) => {
        const now = this.deps.clock.now()
        await repo.update(id, { cancelled_at: now, sequence: current.sequence + 1, updated_at: now })
        await repo.deleteUnstarted(id, now)
      })
      this.deps.changes.pageChanged(current.pageId)
    }
    return this.get(owner, id)
  }

  /** Writes the occurrences now inside the horizon for every active series; answers how many. */
  async extend(): Promise<number> {
    const now = this.deps.clock.now()
    let written = 0
    const rows = await this.deps.repo.list({ active: true, limit: 10_000 })
    const components = Map.groupBy(await this.deps.repo.componentsOf(rows.map((row) => row.id)), (c) => c.series_id)
    for (const row of rows) {
      const ids = await this.deps.repo.transaction((repo) => this.write(repo, row, (components.get(row.id) ?? []).map((c) => c.id), now))
      if (ids.length > 0) this.deps.changes.pageChanged(row.page_id)
      written += ids.length
    }
    return written
  }

  private write(repo: MaintenanceSeriesRepo, row: Selectable<MaintenanceSeriesTable>, componentIds: readonly number[], now: number) {
    const list = occurrences(ruleOf(row), { from: now, to: now + HORIZON_MS, limit: MAX_WRITTEN })
    // An occurrence already under way when the series is written is left out (it would start in the past).
    return repo.insertOccurrences(row, componentIds, list.filter((o) => o.startAt >= now || row.created_at < o.startAt), now)
  }

  private ruleFrom(input: Omit<MaintenanceSeriesInput, 'status_page_id'>, current: RecurrenceRule | undefined): RecurrenceRule {
    const pick = <T>(value: T | null | undefined, fallback: T | undefined): T | undefined => (value === null ? undefined : (value ?? fallback))
    const frequency = input.frequency ?? current!.frequency
    const changedFrequency = current !== undefined && frequency !== current.frequency
    const rule: RecurrenceRule = {
      timeZone: input.time_zone ?? current!.timeZone,
      startsOn: input.starts_on ?? current!.startsOn,
      startTime: input.start_time ?? current!.startTime,
      durationMinutes: input.duration_minutes ?? current!.durationMinutes,
      frequency,
      interval: input.interval ?? current?.interval ?? 1,
      // Weekdays and the day of the month belong to one frequency: a new frequency drops the old ones.
      weekdays: input.weekdays ?? (changedFrequency ? [] : (current?.weekdays ?? [])),
      monthDay: pick(input.month_day, changedFrequency ? undefined : current?.monthDay),
      untilOn: pick(input.until, input.count != null ? undefined : current?.untilOn),
      count: pick(input.count, input.until != null ? undefined : current?.count),
      exceptions: [...new Set(input.exceptions ?? current?.exceptions ?? [])].toSorted(),
    }
    checkRule(rule)
    return rule
  }

  private checkedComponents(pageId: number, raw: readonly number[]): Promise<number[]> {
    return requireComponentsOnPage((page, ids) => this.deps.repo.componentsOnPage(page, ids), pageId, raw)
  }

  private async hydrate(rows: ReadonlyArray<Selectable<MaintenanceSeriesTable>>): Promise<MaintenanceSeries[]> {
    const now = this.deps.clock.now()
    const components = Map.groupBy(await this.deps.repo.componentsOf(rows.map((row) => row.id)), (c) => c.series_id)
    return rows.map((row) => {
      const rule = ruleOf(row)
      return {
        id: row.id,
        pageId: row.page_id,
        title: row.title,
        message: row.message,
        rule,
        components: (components.get(row.id) ?? []).map((c) => ({ id: c.id, name: c.name })),
        notifySubscribers: row.notify_subscribers === 1,
        sequence: row.sequence,
        cancelledAt: row.cancelled_at,
        next: row.cancelled_at === null ? occurrences(rule, { from: now, to: Number.MAX_SAFE_INTEGER, limit: NEXT_SHOWN }) : [],
        createdAt: row.created_at,
        updatedAt: row.updated_at,
      }
    })
  }
}

function columnsOf(rule: RecurrenceRule) {
  return {
    time_zone: rule.timeZone,
    starts_on: rule.startsOn,
    start_time: rule.startTime,
    duration_minutes: rule.durationMinutes,
    frequency: rule.frequency,
    repeat_interval: rule.interval,
    weekdays: rule.weekdays.join(','),
    month_day: rule.monthDay ?? null,
    until_on: rule.untilOn ?? null,
    count: rule.count ?? null,
    exceptions: rule.exceptions.join(','),
  }
}
