/** The database as Kysely sees it, assembled from each feature's table types. */
import type { ApiKeysTable, SessionsTable, UsersTable } from '../modules/accounts/tables.ts'
import type {
  AnalyticsShareTokensTable,
  ComponentStatusCursorTable,
  ComponentStatusDailyTable,
  PageStatusDailyTable,
  PageViewDailyTable,
  PageViewSaltsTable,
  PageViewVisitorsTable,
} from '../modules/analytics/tables.ts'
import type { ComponentStatusHistoryTable, ComponentsTable } from '../modules/components/tables.ts'
import type { StatusPagesTable } from '../modules/status-pages/tables.ts'

export interface Database {
  users: UsersTable
  api_keys: ApiKeysTable
  status_pages: StatusPagesTable
  components: ComponentsTable
  component_status_history: ComponentStatusHistoryTable
  sessions: SessionsTable
  component_status_daily: ComponentStatusDailyTable
  page_status_daily: PageStatusDailyTable
  component_status_cursor: ComponentStatusCursorTable
  page_view_daily: PageViewDailyTable
  page_view_visitors: PageViewVisitorsTable
  page_view_salts: PageViewSaltsTable
  analytics_share_tokens: AnalyticsShareTokensTable
}
