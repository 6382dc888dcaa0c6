/**
 * The automation: called by the monitor recorder (src/modules/monitors/run/recorder.ts) when a
 * monitored component's confirmed state changed. It gathers the facts, lets rules.ts decide, and
 * acts through the incidents service (so an automatic incident is an incident like any other:
 * pages, feeds, API, notifications). The database keeps it to one open automatic incident per
 * component (a partial unique index): a second batch racing the first finds the door shut.
 *
 * It never fails the recording of results: an error is handed to `onError` and the next state
 * change tries again.
 */
import type { Clock } from '../../lib/clock.ts'
import type { ComponentStatus } from '../components/tables.ts'
import type { IncidentsService } from '../incidents/service.ts'
import type { NotifyCause } from '../notify/contract.ts'
import { autoIncidentLimit } from '../plans/matrix.ts'
import type { AutoIncidentsRepo } from './repo.ts'
import { decide, incidentTitle, openingMessage, recoveryMessage, reopeningMessage, type Decision } from './rules.ts'

export class AutoIncidents {
  constructor(
    private readonly repo: AutoIncidentsRepo,
    private readonly incidents: IncidentsService,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = (error) => console.error('auto-incidents:', error),
  ) {}

  /**
   * The component's confirmed state (its monitors' worst) changed to `status` because of `cause`
   * (the incident's notifications join the component's). Answers what was decided (tests, logs).
   */
  async confirmedState(componentId: number, status: ComponentStatus, cause?: NotifyCause): Promise<Decision> {
    try {
      return await this.act(componentId, status, cause)
    } catch (error) {
      this.onError(error)
      return { action: 'none' }
    }
  }

  private async act(componentId: number, status: ComponentStatus, cause: NotifyCause | undefined): Promise<Decision> {
    const facts = await this.repo.componentFacts(componentId)
    // Most pages leave automation off: one query and done.
    if (!facts || facts.auto_incidents !== 1 || facts.enabled_at === null) return { action: 'none' }
    const limit = autoIncidentLimit(facts.plan)
    if (limit !== null && facts.ahead >= limit) return { action: 'none' }
    const now = this.clock.now()
    const latest = await this.incidents.latestAutomatic(componentId)
    const [maintenance, personIncident, flapping] =
      status === 'down'
        ? await Promise.all([
            this.repo.maintenanceActive(facts.page_id, componentId, now),
            this.repo.personIncidentOpen(facts.page_id, componentId),
            this.repo.flapping(componentId),
          ])
        : [false, false, false]
    const decision = decide({
      status,
      now,
      active: true,
      autoResolve: facts.auto_resolve === 1,
      latest: latest?.automatic
        ? {
            id: latest.id,
            open: latest.resolvedAt === null,
            acknowledged: latest.automatic.acknowledgedAt !== null,
            autoResolved: latest.automatic.autoResolved,
            resolvedAt: latest.resolvedAt,
            downSince: latest.automatic.downSince,
          }
        : null,
      maintenance,
      personIncident,
      flapping,
    })
    const notify = facts.notify === 1
    const name = facts.name
    const caused = cause ? { cause } : {}
    switch (decision.action) {
      case 'open':
        await this.incidents.openAutomatic({
          pageId: facts.page_id,
          componentId,
          title: incidentTitle(name),
          message: openingMessage(name),
          notifySubscribers: notify,
          ...caused,
        })
        break
      case 'reopen':
        // The same incident again, told to the owner's channels but not mailed to subscribers twice.
        await this.incidents.changeAutomatic(decision.incidentId, {
          expect: 'resolved',
          state: 'investigating',
          message: reopeningMessage(name, latest!.resolvedAt!),
          autoResolved: false,
          downSince: now,
          notifySubscribers: false,
          ...caused,
        })
        break
      case 'resolve': {
        // Subscribers heard of the opening; after a quiet reopening (downSince moved on) they heard the first resolve already.
        const reopened = latest!.automatic!.downSince !== null && latest!.automatic!.downSince > latest!.startedAt
        await this.incidents.changeAutomatic(decision.incidentId, {
          expect: 'open',
          state: 'resolved',
          message: recoveryMessage(name, now, decision.downSince, true),
          autoResolved: true,
          notifySubscribers: notify && !reopened,
          ...caused,
        })
        break
      }
      case 'note_recovery':
        // Taken over (or Auto Resolve off): the person resolves it and speaks to subscribers.
        await this.incidents.changeAutomatic(decision.incidentId, {
          expect: 'open',
          message: recoveryMessage(name, now, decision.downSince, false),
          notifySubscribers: false,
          ...caused,
        })
        break
    }
    return decision
  }
}
