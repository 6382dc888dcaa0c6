/**
 * The composition root for everything below HTTP: repos and services wired to one database. The
 * HTTP app and the CLI both build on it, so there is exactly one implementation of each action.
 */
import type { Config } from './config.ts'
import type { Db } from './db/client.ts'
import { ChangeFeed } from './lib/change-feed.ts'
import { systemClock, type Clock } from './lib/clock.ts'
import { argon2idHasher, type PasswordHasher } from './lib/password.ts'
import { AccountsRepo } from './modules/accounts/repo.ts'
import { AccountsService } from './modules/accounts/service.ts'
import { ChecksRepo } from './modules/checks/repo.ts'
import { ChecksService } from './modules/checks/service.ts'
import { ComponentsRepo } from './modules/components/repo.ts'
import { ComponentsService } from './modules/components/service.ts'
import { IncidentsRepo } from './modules/incidents/repo.ts'
import { IncidentsService } from './modules/incidents/service.ts'
import { MaintenancesRepo } from './modules/maintenances/repo.ts'
import { MaintenancesService } from './modules/maintenances/service.ts'
import { PageStatusRepo } from './modules/page-status/repo.ts'
import { PageStatusService } from './modules/page-status/service.ts'
import { PageAccessService } from './modules/public-pages/access.ts'
import { PublicPagesRepo } from './modules/public-pages/repo.ts'
import { PageViewCounter } from './modules/analytics/page-views.ts'
import { AnalyticsRepo } from './modules/analytics/repo.ts'
import { AnalyticsService } from './modules/analytics/service.ts'
import { ShareTokensService } from './modules/analytics/share-tokens.ts'
import { recordResponseTimes, responseTimesFrom } from './modules/analytics/response-times.ts'
import { refreshStatusRollup } from './modules/analytics/status-aggregator.ts'
import { StatusPagesRepo } from './modules/status-pages/repo.ts'
import { StatusPagesService } from './modules/status-pages/service.ts'

export interface ServiceDeps {
  db: Db
  config: Config
  clock?: Clock
  changes?: ChangeFeed
  /** argon2id unless a test passes a faster one. */
  passwords?: PasswordHasher
}

export function createServices(deps: ServiceDeps) {
  const clock = deps.clock ?? systemClock
  const changes = deps.changes ?? new ChangeFeed()
  const passwords = deps.passwords ?? argon2idHasher
  const accounts = new AccountsService(new AccountsRepo(deps.db), clock, changes, passwords, deps.config.defaultPlan, deps.config.baseUrl)
  const pages = new StatusPagesService(new StatusPagesRepo(deps.db), clock, changes, deps.config)
  // Status changes keep the analytics roll-ups in step, in the same transaction.
  const components = new ComponentsService(new ComponentsRepo(deps.db, refreshStatusRollup), pages, clock, changes)
  const incidents = new IncidentsService(new IncidentsRepo(deps.db), pages, clock, changes)
  const maintenances = new MaintenancesService(new MaintenancesRepo(deps.db), pages, clock, changes)
  const checks = new ChecksService(new ChecksRepo(deps.db, recordResponseTimes), components, clock, changes)
  // What is the status of a page, now and over N days: the one snapshot every public surface reads.
  const pageStatus = new PageStatusService(new PageStatusRepo(deps.db), clock)
  const pageAccess = new PageAccessService(new PublicPagesRepo(deps.db), clock, changes, passwords)
  const analyticsRepo = new AnalyticsRepo(deps.db)
  const shareTokens = new ShareTokensService(analyticsRepo, clock)
  const analytics = new AnalyticsService(analyticsRepo, shareTokens, clock, responseTimesFrom(deps.db))
  const pageViews = new PageViewCounter(analyticsRepo, clock)
  return { clock, changes, accounts, pages, components, incidents, maintenances, checks, pageStatus, pageAccess, shareTokens, analytics, pageViews }
}

export type Services = ReturnType<typeof createServices>
