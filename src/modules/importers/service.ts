/**
 * Imports a plan (kuma-map.ts, gatus-map.ts, statuspage-map.ts) into one account in one transaction: all or nothing.
 * What a run makes is remembered in import_mappings (source key → Lantern row), so a second run
 * leaves what is there alone, and a component's history only grows by changes newer than its last.
 * Every monitor passes the monitors' own checks (definition, address guard); one that does not is
 * left out with the reason, as is anything else the plan could not bring.
 */
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Config } from '../../config.ts'
import type { Clock } from '../../lib/clock.ts'
import type { ChangeFeed } from '../../lib/change-feed.ts'
import type { AddressGuard } from '../../lib/address-guard.ts'
import { randomToken, sha256Hex } from '../../lib/crypto.ts'
import { badRequest, forbidden } from '../../lib/errors.ts'
import type { Owner } from '../accounts/service.ts'
import { assertRunnable, mergeDefinition } from '../monitors/definition.ts'
import { monitorLimits, planHas, planLabel, subscriberLimit } from '../plans/matrix.ts'
import { ComponentsRepo } from '../components/repo.ts'
import { refreshStatusRollup } from '../analytics/status-aggregator.ts'
import { DEFAULT_EVENTS } from '../channels/types.ts'
import { generateSigningSecret } from '../notify/webhook-signing.ts'
import { parseSlug } from '../status-pages/slug.ts'
import { parseCustomDomain } from '../status-pages/domain.ts'
import { parseCustomCss } from '../branding/custom-css.ts'
import type { OutboxWriter } from '../notify/contract.ts'
import { MAX_MESSAGE, MAX_POSTMORTEM, MAX_TITLE } from '../incidents/types.ts'
import { MAX_MESSAGE as MAX_MAINTENANCE_UPDATE } from '../maintenances/types.ts'
import { normalizeEmail } from '../subscribers/validate.ts'
import { confirmationMail } from '../subscribers/messages.ts'
import { CONFIRM_TTL_MS } from '../subscribers/service.ts'
import { statusPageUrl } from '../status-pages/urls.ts'
import { emptyCounts, type ImportPlan, type ImportReport, type ReportLine } from './types.ts'

export interface ImportServiceDeps {
  db: Kysely<Database>
  clock: Clock
  changes: ChangeFeed
  guard: AddressGuard
  config: Config
  /** Confirmation mails of re-confirmed subscribers, in the import's transaction. */
  outbox: OutboxWriter
}

export interface ImportOptions {
  /** Imported subscribers get a confirmation mail and stay pending until they confirm (as on the public form). */
  reconfirm?: boolean
}

type Mapped = Map<string, number>

export class ImportService {
  constructor(private readonly deps: ImportServiceDeps) {}

  /** Writes the plan for `owner`; returns what was made, what was already there and what was left out. */
  async apply(owner: Owner, plan: ImportPlan, options: ImportOptions = {}): Promise<ImportReport> {
    if (options.reconfirm && (plan.subscribers ?? []).length > 0 && !this.deps.outbox.mailEnabled) {
      throw badRequest('re-confirming subscribers sends them mail, and mail is not configured on this instance (see the SMTP settings)')
    }
    const now = this.deps.clock.now()
    const created = emptyCounts()
    const unchanged = emptyCounts()
    const skipped: ReportLine[] = [...plan.skipped]
    const changed: ReportLine[] = [...plan.changed]
    const touchedPages = new Set<number>()
    await this.deps.db.transaction().execute(async (trx) => {
      const mapped = await this.mappings(trx, owner.id, plan.source)
      const remember = async (key: string, kind: string, lanternId: number) => {
        await trx.insertInto('import_mappings').values({ owner_id: owner.id, source: plan.source, source_key: key, kind, lantern_id: lanternId, created_at: now }).execute()
        mapped.set(key, lanternId)
      }

      // Pages.
      for (const page of plan.pages) {
        const existing = mapped.get(page.key)
        if (existing !== undefined) {
          unchanged.pages++
          continue
        }
        const slug = await this.freeSlug(trx, page.slug, page.name, changed)
        const domain = await this.usableDomain(trx, owner, page.customDomain, page.name, skipped)
        const row = await trx
          .insertInto('status_pages')
          .values({ owner_id: owner.id, slug, name: page.name, custom_domain: domain, custom_domain_state: domain ? 'pending' : null, visibility: 'public', description: page.description, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (page.customCss && !planHas(owner.plan, 'custom_css')) {
          skipped.push({ kind: 'status page setting', name: page.name, reason: `custom CSS not brought: the ${planLabel(owner.plan)} plan has no custom CSS` })
        } else if (page.customCss) {
          let css: string | null = null
          try {
            css = parseCustomCss(page.customCss)
          } catch (error) {
            skipped.push({ kind: 'status page setting', name: page.name, reason: `custom CSS not brought: ${error instanceof Error ? error.message : String(error)}` })
          }
          if (css) await trx.insertInto('page_appearance').values({ page_id: row.id, palette_json: null, custom_css: css, favicon: null, favicon_type: null, logo: null, logo_type: null, updated_at: now }).execute()
        }
        await remember(page.key, 'page', row.id)
        touchedPages.add(row.id)
        created.pages++
      }

      // Components and their history.
      const components = new ComponentsRepo(trx, refreshStatusRollup)
      for (const component of plan.components) {
        const pageId = mapped.get(component.pageKey)
        if (pageId === undefined) continue
        let componentId = mapped.get(component.key)
        if (componentId === undefined) {
          const row = await trx
            .insertInto('components')
            .values({ page_id: pageId, name: component.name, type: component.type, group_name: component.groupName, status: component.history.at(-1)?.status ?? 'up', position: component.position, description: component.description, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
          componentId = row.id
          await remember(component.key, 'component', componentId)
          created.components++
        } else unchanged.components++
        const last = await trx.selectFrom('component_status_history').select((eb) => eb.fn.max('at').as('at')).where('component_id', '=', componentId).executeTakeFirst()
        const after = last?.at == null ? -Infinity : Number(last.at)
        const fresh = component.history.filter((c) => c.at > after && c.at <= now)
        if (fresh.length > 0) {
          await components.insertHistory(componentId, fresh)
          await trx.updateTable('components').set({ status: fresh.at(-1)!.status, updated_at: now }).where('id', '=', componentId).execute()
          touchedPages.add(pageId)
        }
        created.history += fresh.length
        unchanged.history += component.history.length - fresh.length
      }

      // Monitors.
      const limits = monitorLimits(owner.plan)
      const fresh = plan.monitors.filter((m) => !mapped.has(m.key))
      unchanged.monitors += plan.monitors.length - fresh.length
      if (limits.maxMonitors !== null && fresh.length > 0) {
        const row = await trx.selectFrom('monitors').select((eb) => eb.fn.countAll<number>().as('n')).where('owner_id', '=', owner.id).executeTakeFirstOrThrow()
        if (Number(row.n) + fresh.length > limits.maxMonitors) {
          throw forbidden(`the import brings ${fresh.length} monitors; the ${planLabel(owner.plan)} plan allows ${limits.maxMonitors} and you have ${Number(row.n)}`)
        }
      }
      for (const monitor of fresh) {
        const name = monitor.input.name ?? monitor.key
        const input = { ...monitor.input }
        if ((input.interval_seconds ?? 60) < limits.minIntervalSeconds) {
          changed.push({ kind: 'monitor', name, reason: `interval ${input.interval_seconds} s became ${limits.minIntervalSeconds} s (the ${planLabel(owner.plan)} plan's shortest)` })
          input.interval_seconds = limits.minIntervalSeconds
        }
        let definition
        try {
          definition = mergeDefinition(undefined, input)
          assertRunnable(definition, this.deps.guard)
        } catch (error) {
          skipped.push({ kind: 'monitor', name, reason: error instanceof Error ? error.message : String(error) })
          continue
        }
        let pushToken = definition.type === 'push' ? monitor.pushToken : null
        if (definition.type === 'push') {
          const taken = pushToken ? await trx.selectFrom('monitors').select('id').where('push_token_hash', '=', await sha256Hex(pushToken)).executeTakeFirst() : undefined
          if (!pushToken || taken) {
            pushToken = randomToken(24)
            changed.push({ kind: 'monitor', name, reason: `${taken ? 'its push token is already used by another monitor here' : 'it had no push token'}; its push URL is now ${this.deps.config.baseUrl}/api/push/${pushToken} (shown once)` })
          }
        }
        const componentId = monitor.componentKey ? mapped.get(monitor.componentKey) ?? null : null
        const pageId = monitor.pageKey ? mapped.get(monitor.pageKey) ?? null : null
        const row = await trx
          .insertInto('monitors')
          .values({
            owner_id: owner.id,
            page_id: pageId,
            component_id: componentId,
            name: definition.name,
            type: definition.type,
            target: definition.target,
            options_json: JSON.stringify(definition.options),
            interval_s: definition.intervalSeconds,
            timeout_ms: definition.timeoutMs,
            retries: definition.retries,
            retry_interval_ms: definition.retryIntervalMs,
            confirm_failures: definition.confirmFailures,
            confirm_successes: definition.confirmSuccesses,
            degraded_after_ms: definition.degradedAfterMs,
            regions_json: JSON.stringify(definition.regions),
            regions_required_down: definition.regionsRequiredDown,
            enabled: monitor.enabled ? 1 : 0,
            state: 'pending',
            state_since: now,
            flapping: 0,
            history: '',
            watching_since: now,
            next_run_at: now + definition.intervalSeconds * 1000,
            push_token_hash: pushToken ? await sha256Hex(pushToken) : null,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await trx.insertInto('monitor_state_changes').values({ monitor_id: row.id, state: monitor.enabled ? 'pending' : 'paused', at: now }).execute()
        await remember(monitor.key, 'monitor', row.id)
        if (pageId !== null) touchedPages.add(pageId)
        created.monitors++
      }

      // Channels.
      for (const channel of plan.channels) {
        if (mapped.has(channel.key)) {
          unchanged.channels++
          continue
        }
        const settings = { ...channel.settings }
        if (channel.type === 'webhook' && !settings.signing_secret) settings.signing_secret = generateSigningSecret()
        const row = await trx
          .insertInto('notification_channels')
          .values({ owner_id: owner.id, type: channel.type, name: channel.name, config_json: JSON.stringify(settings), events_json: JSON.stringify(DEFAULT_EVENTS), all_pages: channel.allPages ? 1 : 0, enabled: channel.enabled ? 1 : 0, verified_at: channel.type === 'email' ? null : now, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
        const pageIds = [...new Set(channel.pageKeys.map((k) => mapped.get(k)).filter((id): id is number => id !== undefined))]
        if (pageIds.length > 0) await trx.insertInto('notification_channel_pages').values(pageIds.map((page_id) => ({ channel_id: row.id, page_id }))).execute()
        await remember(channel.key, 'channel', row.id)
        created.channels++
      }

      const bounded = (text: string, max: number, what: string, name: string) => {
        if (text.length <= max) return text
        changed.push({ kind: what, name, reason: `shortened to ${max} characters` })
        return text.slice(0, max)
      }

      // Maintenances, with their timeline.
      for (const window of plan.maintenances) {
        const pageId = mapped.get(window.pageKey)
        if (pageId === undefined) continue
        if (mapped.has(window.key)) {
          unchanged.maintenances++
          continue
        }
        const row = await trx
          .insertInto('maintenances')
          .values({ page_id: pageId, title: window.title, message: window.message, start_at: window.startAt, end_at: window.endAt, notify_subscribers: 0, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow()
        const componentIds = [...new Set(window.componentKeys.map((k) => mapped.get(k)).filter((id): id is number => id !== undefined))]
        if (componentIds.length > 0) await trx.insertInto('maintenance_components').values(componentIds.map((component_id) => ({ maintenance_id: row.id, component_id }))).execute()
        const updates = window.updates ?? []
        if (updates.length > 0) {
          await trx.insertInto('maintenance_updates').values(updates.map((u) => ({ maintenance_id: row.id, status: u.status, message: bounded(u.message, MAX_MAINTENANCE_UPDATE, 'maintenance update', window.title), at: u.at }))).execute()
        }
        await remember(window.key, 'maintenance', row.id)
        touchedPages.add(pageId)
        created.maintenances++
      }

      // Incidents with their updates, components and postmortem (history: nobody is notified).
      for (const incident of plan.incidents ?? []) {
        const pageId = mapped.get(incident.pageKey)
        if (pageId === undefined) continue
        if (mapped.has(incident.key)) {
          unchanged.incidents++
          continue
        }
        const title = bounded(incident.title, MAX_TITLE, 'incident title', incident.title)
        const postmortem = incident.postmortem ? bounded(incident.postmortem.body, MAX_POSTMORTEM, 'postmortem', incident.title) : null
        const lastAt = Math.max(incident.startedAt, incident.resolvedAt ?? 0, ...incident.updates.map((u) => u.at))
        const row = await trx
          .insertInto('incidents')
          .values({
            page_id: pageId,
            title,
            state: incident.state,
            started_at: incident.startedAt,
            resolved_at: incident.resolvedAt,
            created_at: incident.startedAt,
            updated_at: lastAt,
            impact: incident.impact,
            postmortem,
            postmortem_updated_at: incident.postmortem ? incident.postmortem.updatedAt : null,
            postmortem_published_at: incident.postmortem ? incident.postmortem.publishedAt : null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (incident.updates.length > 0) {
          await trx.insertInto('incident_updates').values(incident.updates.map((u) => ({ incident_id: row.id, state: u.state, message: bounded(u.message, MAX_MESSAGE, 'incident update', incident.title), at: u.at }))).execute()
        }
        const componentIds = [...new Set(incident.componentKeys.map((k) => mapped.get(k)).filter((id): id is number => id !== undefined))]
        if (componentIds.length > 0) await trx.insertInto('incident_components').values(componentIds.map((component_id) => ({ incident_id: row.id, component_id }))).execute()
        await remember(incident.key, 'incident', row.id)
        touchedPages.add(pageId)
        created.incidents++
      }

      // Email subscribers: confirmed stay confirmed, unless the run asks them again.
      const freshSubscribers = (plan.subscribers ?? []).filter((s) => !mapped.has(s.key))
      unchanged.subscribers += (plan.subscribers ?? []).length - freshSubscribers.length
      const limit = subscriberLimit(owner.plan)
      const pageRows = new Map<number, { name: string; url: string; count: number }>()
      for (const subscriber of freshSubscribers) {
        const pageId = mapped.get(subscriber.pageKey)
        if (pageId === undefined) continue
        let email: string
        try {
          email = normalizeEmail(subscriber.email)
        } catch (error) {
          skipped.push({ kind: 'email subscriber', name: subscriber.email, reason: error instanceof Error ? error.message : String(error) })
          continue
        }
        const existing = await trx.selectFrom('subscribers').select('id').where('page_id', '=', pageId).where('email', '=', email).where('unsubscribed_at', 'is', null).executeTakeFirst()
        if (existing) {
          await remember(subscriber.key, 'subscriber', existing.id)
          unchanged.subscribers++
          continue
        }
        if (!pageRows.has(pageId)) {
          const page = await trx.selectFrom('status_pages').select(['name', 'slug', 'custom_domain', 'custom_domain_state']).where('id', '=', pageId).executeTakeFirstOrThrow()
          const count = await trx.selectFrom('subscribers').select((eb) => eb.fn.countAll<number>().as('n')).where('page_id', '=', pageId).where('unsubscribed_at', 'is', null)
            .where((eb) => eb.or([eb('confirmed_at', 'is not', null), eb('confirm_expires_at', '>', now)])).executeTakeFirstOrThrow()
          const url = statusPageUrl({ slug: page.slug, customDomain: page.custom_domain, customDomainState: page.custom_domain_state, plan: owner.plan }, this.deps.config)
          pageRows.set(pageId, { name: page.name, url, count: Number(count.n) })
        }
        const page = pageRows.get(pageId)!
        if (limit !== null && page.count + 1 > limit) {
          throw forbidden(`the import brings ${freshSubscribers.length} subscribers; the ${planLabel(owner.plan)} plan allows ${limit} per page and this page has ${page.count}`)
        }
        const componentIds = subscriber.componentKeys === null ? null : [...new Set(subscriber.componentKeys.map((k) => mapped.get(k)).filter((id): id is number => id !== undefined))]
        const token = options.reconfirm ? randomToken(32) : null
        const row = await trx
          .insertInto('subscribers')
          .values({
            page_id: pageId,
            kind: 'email',
            email,
            component_ids: componentIds === null ? null : JSON.stringify(componentIds),
            source: 'import',
            confirmed_at: token ? null : now,
            confirm_token_hash: token ? await sha256Hex(token) : null,
            confirm_expires_at: token ? now + CONFIRM_TTL_MS : null,
            notice_sent_at: token ? now : null,
            manage_key: randomToken(16),
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (token) {
          const confirmUrl = `${page.url}/subscribe/confirm?token=${encodeURIComponent(token)}`
          await this.deps.outbox.enqueue(trx, [{ target: `subscriber:${row.id}`, mail: confirmationMail(email, { name: page.name, url: page.url }, confirmUrl) }])
        }
        page.count++
        await remember(subscriber.key, 'subscriber', row.id)
        created.subscribers++
      }
    })
    for (const pageId of touchedPages) this.deps.changes.pageChanged(pageId, { lookups: true })
    return { source: plan.source, source_version: plan.sourceVersion, created, unchanged, skipped, changed }
  }

  /** The run's mappings whose Lantern row still exists (a row deleted since is made again). */
  private async mappings(trx: Transaction<Database>, ownerId: number, source: string): Promise<Mapped> {
    const rows = await trx.selectFrom('import_mappings').selectAll().where('owner_id', '=', ownerId).where('source', '=', source).execute()
    const tableOf: Record<string, 'status_pages' | 'components' | 'monitors' | 'notification_channels' | 'maintenances' | 'incidents' | 'subscribers'> = {
      page: 'status_pages', component: 'components', monitor: 'monitors', channel: 'notification_channels', maintenance: 'maintenances', incident: 'incidents', subscriber: 'subscribers',
    }
    const alive = new Map<string, Set<number>>()
    for (const [kind, table] of Object.entries(tableOf)) {
      const ids = rows.filter((r) => r.kind === kind).map((r) => r.lantern_id)
      const found = new Set<number>()
      for (let i = 0; i < ids.length; i += 500) {
        for (const r of await trx.selectFrom(table).select('id').where('id', 'in', ids.slice(i, i + 500)).execute()) found.add(Number(r.id))
      }
      alive.set(kind, found)
    }
    const mapped: Mapped = new Map()
    for (const row of rows) {
      if (alive.get(row.kind)?.has(row.lantern_id)) mapped.set(row.source_key, row.lantern_id)
      else await trx.deleteFrom('import_mappings').where('owner_id', '=', ownerId).where('source', '=', source).where('source_key', '=', row.source_key).execute()
    }
    return mapped
  }

  /** The source's slug, or with `-imported` when it is taken (said in the report). */
  private async freeSlug(trx: Transaction<Database>, raw: string, name: string, changed: ReportLine[]): Promise<string> {
    let slug: string
    try {
      slug = parseSlug(raw)
    } catch {
      slug = parseSlug(raw.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || 'imported')
    }
    for (const candidate of [slug, `${slug.slice(0, 50)}-imported`, `${slug.slice(0, 50)}-imported-${crypto.randomUUID().slice(0, 6)}`]) {
      const taken = await trx.selectFrom('status_pages').select('id').where('slug', '=', candidate).executeTakeFirst()
      if (!taken) {
        if (candidate !== raw) changed.push({ kind: 'status page', name, reason: `slug "${raw}" became "${candidate}"` })
        return candidate
      }
    }
    throw badRequest(`no free slug for the page "${name}"`)
  }

  private async usableDomain(trx: Transaction<Database>, owner: Owner, raw: string | null, name: string, skipped: ReportLine[]): Promise<string | null> {
    if (!raw) return null
    const leave = (reason: string) => {
      skipped.push({ kind: 'status page setting', name, reason: `custom domain ${raw} not brought: ${reason}` })
      return null
    }
    let domain: string
    try {
      domain = parseCustomDomain(raw)
    } catch (error) {
      return leave(error instanceof Error ? error.message : String(error))
    }
    if (!planHas(owner.plan, 'custom_domain_private')) return leave(`the ${planLabel(owner.plan)} plan has no custom domains`)
    if (domain === new URL(this.deps.config.baseUrl).hostname) return leave('it is the service host')
    const holder = await trx.selectFrom('status_pages').select('id').where('custom_domain', '=', domain).executeTakeFirst()
    if (holder) return leave('another page uses it')
    return domain
  }
}
