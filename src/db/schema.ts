/** The database as Kysely sees it, assembled from each feature's table types. */
import type { ApiKeysTable, UsersTable } from '../modules/accounts/tables.ts'
import type { ComponentStatusHistoryTable, ComponentsTable } from '../modules/components/tables.ts'
import type { PageAccessSessionsTable, PageAccessTable, PageAppearanceTable } from '../modules/public-pages/tables.ts'
import type { StatusPagesTable } from '../modules/status-pages/tables.ts'

export interface Database {
  users: UsersTable
  api_keys: ApiKeysTable
  status_pages: StatusPagesTable
  components: ComponentsTable
  component_status_history: ComponentStatusHistoryTable
  page_appearance: PageAppearanceTable
  page_access: PageAccessTable
  page_access_sessions: PageAccessSessionsTable
}
