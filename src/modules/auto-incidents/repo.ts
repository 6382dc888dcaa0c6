/** SQL of automatic incidents: the page settings, the opted-in components, and the facts a decision needs. */
import { sql } from 'kysely'
import type { Db } from '../../db/client.ts'

export interface PageSettingsRow {
  auto_incidents: number
  notify: number
  auto_resolve: number
}

export class AutoIncidentsRepo {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (repo: AutoIncidentsRepo) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new AutoIncidentsRepo(trx)))
  }

  settings(pageId: number): Promise<PageSettingsRow | undefined> {
    return this.db
      .selectFrom('auto_incident_settings')
      .select(['auto_incidents', 'notify', 'auto_resolve'])
      .where('page_id', '=', pageId)
      .executeTakeFirst()
  }

  async saveSettings(pageId: number, settings: PageSettingsRow, now: number): Promise<void> {
    await this.db
      .insertInto('auto_incident_settings')
      .values({ page_id: pageId, ...settings, updated_at: now })
      .onConflict((oc) => oc.column('page_id').doUpdateSet({ ...settings, updated_at: now }))
      .execute()
  }

  /** The page's components (page order) with whether a monitor watches them and when automation was turned on. */
  pageComponents(pageId: number) {
    return this.db
      .selectFrom('components')
      .leftJoin('auto_incident_components as aic', 'aic.component_id', 'components.id')
      .select(['components.id', 'components.name', 'aic.enabled_at'])
      .select((eb) =>
        eb
          .exists(eb.selectFrom('monitors').select('monitors.id').whereRef('monitors.component_id', '=', 'components.id'))
          .as('monitored'),
      )
      .where('components.page_id', '=', pageId)
      .orderBy('components.position')
      .orderBy('components.id')
      .execute()
  }

  /** Every opted-in component of the owner, oldest first: the first N of the plan act, the rest pause. */
  ownerEnabled(ownerId: number) {
    return this.db
      .selectFrom('auto_incident_components as aic')
      .innerJoin('components', 'components.id', 'aic.component_id')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .select(['aic.component_id', 'aic.enabled_at'])
      .where('status_pages.owner_id', '=', ownerId)
      .orderBy('aic.enabled_at')
      .orderBy('aic.component_id')
      .execute()
  }

  /** Opts exactly `componentIds` of the page in; components already in keep their time. */
  async setPageComponents(pageId: number, componentIds: readonly number[], now: number): Promise<void> {
    const onPage = this.db.selectFrom('components').select('id').where('page_id', '=', pageId)
    let removal = this.db.deleteFrom('auto_incident_components').where('component_id', 'in', onPage)
    if (componentIds.length > 0) removal = removal.where('component_id', 'not in', componentIds)
    await removal.execute()
    if (componentIds.length === 0) return
    await this.db
      .insertInto('auto_incident_components')
      .values(componentIds.map((id) => ({ component_id: id, enabled_at: now })))
      .onConflict((oc) => oc.column('component_id').doNothing())
      .execute()
  }

  /**
   * What the automation needs to know of one component, in one query: its page's settings, the
   * owner's plan, whether it is opted in and how many of the owner's opted-in components come
   * before it (the plan keeps the oldest N working).
   */
  componentFacts(componentId: number) {
    return this.db
      .selectFrom('components')
      .innerJoin('status_pages', 'status_pages.id', 'components.page_id')
      .innerJoin('teams', 'teams.id', 'status_pages.owner_id')
      .leftJoin('auto_incident_settings as s', 's.page_id', 'components.page_id')
      .leftJoin('auto_incident_components as mine', 'mine.component_id', 'components.id')
      .select(['components.id', 'components.name', 'components.page_id', 'teams.plan', 'mine.enabled_at'])
      .select(['s.auto_incidents', 's.notify', 's.auto_resolve'])
      .select(
        sql<number>`(SELECT count(*) FROM auto_incident_components a
          JOIN components c ON c.id = a.component_id
          JOIN status_pages p ON p.id = c.page_id
          WHERE p.owner_id = status_pages.owner_id
            AND (a.enabled_at < mine.enabled_at OR (a.enabled_at = mine.enabled_at AND a.component_id < mine.component_id)))`.as('ahead'),
      )
      .where('components.id', '=', componentId)
      .executeTakeFirst()
  }

  /** A maintenance of the component (or of the whole page) is under way at `now`. */
  async maintenanceActive(pageId: number, componentId: number, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('maintenances as m')
      .select('m.id')
      .where('m.page_id', '=', pageId)
      .where('m.start_at', '<=', now)
      .where('m.end_at', '>', now)
      .where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom('maintenance_components as mc').select('mc.maintenance_id').whereRef('mc.maintenance_id', '=', 'm.id').where('mc.component_id', '=', componentId)),
          eb.not(eb.exists(eb.selectFrom('maintenance_components as mc').select('mc.maintenance_id').whereRef('mc.maintenance_id', '=', 'm.id'))),
        ]),
      )
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /**
   * A person's open incident covers the component: it lists the component or is page-wide (no
   * components). An automatic incident nobody has taken over is not a person's.
   */
  async personIncidentOpen(pageId: number, componentId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('incidents as i')
      .select('i.id')
      .where('i.page_id', '=', pageId)
      .where('i.resolved_at', 'is', null)
      .where((eb) => eb.or([eb('i.source', '=', 'manual'), eb('i.acknowledged_at', 'is not', null)]))
      .where((eb) =>
        eb.or([
          eb.exists(eb.selectFrom('incident_components as ic').select('ic.incident_id').whereRef('ic.incident_id', '=', 'i.id').where('ic.component_id', '=', componentId)),
          eb.not(eb.exists(eb.selectFrom('incident_components as ic').select('ic.incident_id').whereRef('ic.incident_id', '=', 'i.id'))),
        ]),
      )
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }

  /** One of the component's enabled monitors is flapping. */
  async flapping(componentId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('monitors')
      .select('id')
      .where('component_id', '=', componentId)
      .where('enabled', '=', 1)
      .where('flapping', '=', 1)
      .limit(1)
      .executeTakeFirst()
    return row !== undefined
  }
}
