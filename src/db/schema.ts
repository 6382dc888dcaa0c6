/** The database as Kysely sees it, assembled from each feature's table types. */
import type { ApiKeysTable, SessionsTable, SetupTokensTable, UsersTable } from '../modules/accounts/tables.ts'
import type {
  AnalyticsShareTokensTable,
  ComponentResponseCursorTable,
  ComponentResponseDailyTable,
  PageResponseDailyTable,
  ComponentStatusBlocksTable,
  ComponentStatusCursorTable,
  ComponentStatusDailyTable,
  PageStatusDailyTable,
  PageViewDailyTable,
  PageViewSaltsTable,
  PageViewVisitorsTable,
} from '../modules/analytics/tables.ts'
import type { ComponentStatusCorrectionsTable, ComponentStatusHistoryTable, ComponentsTable } from '../modules/components/tables.ts'
import type { PageAppearanceTable } from '../modules/branding/tables.ts'
import type { AttemptBudgetsTable, AttemptKnownClientsTable } from '../modules/attempt-budgets/tables.ts'
import type { PasskeyChallengesTable, PasskeysTable } from '../modules/passkeys/tables.ts'
import type { PageAccessSessionsTable, PageAccessTable } from '../modules/page-access/tables.ts'
import type { StatusPagesTable } from '../modules/status-pages/tables.ts'
import type { CheckDaysTable, CheckMinutesTable, CheckResultsTable, PageCheckMinutesTable } from '../modules/component-checks/tables.ts'
import type {
  IncidentComponentsTable,
  IncidentsTable,
  IncidentTemplatesTable,
  IncidentUpdatesTable,
} from '../modules/incidents/tables.ts'
import type {
  MaintenanceCancellationsTable,
  MaintenanceComponentsTable,
  MaintenanceSeriesComponentsTable,
  MaintenanceSeriesTable,
  MaintenancesTable,
  MaintenanceUpdatesTable,
} from '../modules/maintenances/tables.ts'
import type { VendorFeedsTable } from '../modules/vendor-feeds/tables.ts'
import type { SlaAlertsTable, SlaMonthlyMailsTable, SlaPageSettingsTable, SlaTargetsTable } from '../modules/sla/tables.ts'
import type { NotifyHeldEventsTable, OutboxTable, OutboxTargetsTable, OutboxThreadsTable } from '../modules/notify/tables.ts'
import type { MaintenanceNoticesTable, NotificationChannelPagesTable, NotificationChannelsTable } from '../modules/channels/tables.ts'
import type { AutoIncidentComponentsTable, AutoIncidentSettingsTable } from '../modules/auto-incidents/tables.ts'
import type { EmailAuthReportsTable } from '../modules/email-auth/tables.ts'
import type { ToolChecksTable } from '../modules/lookup-tools/tables.ts'
import type { MonitorDependenciesTable, MonitorRegionStatesTable, MonitorResultsTable, MonitorStateChangesTable, MonitorsTable, MonitorToolStatesTable } from '../modules/monitors/tables.ts'
import type { MonitorAlertChannelsTable, MonitorAlertsTable } from '../modules/monitor-alerts/tables.ts'
import type { ProbeTokensTable } from '../modules/probes/tables.ts'
import type { PageTransfersTable } from '../modules/transfers/tables.ts'
import type { PasswordResetsTable } from '../modules/password-resets/tables.ts'
import type { RecoveryCodesTable, TotpFactorsTable, TwoFactorChallengesTable } from '../modules/two-factor/tables.ts'
import type { ImportMappingsTable } from '../modules/importers/tables.ts'
import type { TeamInvitationsTable, TeamMembersTable, TeamsTable } from '../modules/teams/tables.ts'
import type { AuditLogTable } from '../modules/audit/tables.ts'
import type { SsoIdentitiesTable, SsoLoginsTable } from '../modules/sso/tables.ts'
import type { SubscriberFanoutsTable, SubscriberSigningKeysTable, SubscribersTable } from '../modules/subscribers/tables.ts'

export interface Database {
  users: UsersTable
  teams: TeamsTable
  team_members: TeamMembersTable
  team_invitations: TeamInvitationsTable
  audit_log: AuditLogTable
  sso_identities: SsoIdentitiesTable
  sso_logins: SsoLoginsTable
  api_keys: ApiKeysTable
  status_pages: StatusPagesTable
  components: ComponentsTable
  component_status_history: ComponentStatusHistoryTable
  component_status_corrections: ComponentStatusCorrectionsTable
  incidents: IncidentsTable
  incident_components: IncidentComponentsTable
  incident_updates: IncidentUpdatesTable
  incident_templates: IncidentTemplatesTable
  maintenances: MaintenancesTable
  maintenance_components: MaintenanceComponentsTable
  maintenance_series: MaintenanceSeriesTable
  maintenance_series_components: MaintenanceSeriesComponentsTable
  maintenance_updates: MaintenanceUpdatesTable
  maintenance_cancellations: MaintenanceCancellationsTable
  check_results: CheckResultsTable
  check_minutes: CheckMinutesTable
  check_days: CheckDaysTable
  page_check_minutes: PageCheckMinutesTable
  page_appearance: PageAppearanceTable
  page_access: PageAccessTable
  page_access_sessions: PageAccessSessionsTable
  sessions: SessionsTable
  setup_tokens: SetupTokensTable
  component_status_daily: ComponentStatusDailyTable
  component_status_blocks: ComponentStatusBlocksTable
  page_status_daily: PageStatusDailyTable
  component_status_cursor: ComponentStatusCursorTable
  page_view_daily: PageViewDailyTable
  page_view_visitors: PageViewVisitorsTable
  page_view_salts: PageViewSaltsTable
  analytics_share_tokens: AnalyticsShareTokensTable
  component_response_daily: ComponentResponseDailyTable
  component_response_cursor: ComponentResponseCursorTable
  page_response_daily: PageResponseDailyTable
  monitors: MonitorsTable
  subscribers: SubscribersTable
  subscriber_signing_keys: SubscriberSigningKeysTable
  subscriber_fanouts: SubscriberFanoutsTable
  monitor_results: MonitorResultsTable
  monitor_state_changes: MonitorStateChangesTable
  monitor_tool_states: MonitorToolStatesTable
  monitor_region_states: MonitorRegionStatesTable
  monitor_dependencies: MonitorDependenciesTable
  monitor_alerts: MonitorAlertsTable
  monitor_alert_channels: MonitorAlertChannelsTable
  probe_tokens: ProbeTokensTable
  sla_targets: SlaTargetsTable
  vendor_feeds: VendorFeedsTable
  sla_alerts: SlaAlertsTable
  sla_page_settings: SlaPageSettingsTable
  sla_monthly_mails: SlaMonthlyMailsTable
  outbox: OutboxTable
  outbox_targets: OutboxTargetsTable
  outbox_threads: OutboxThreadsTable
  notify_held_events: NotifyHeldEventsTable
  notification_channels: NotificationChannelsTable
  notification_channel_pages: NotificationChannelPagesTable
  maintenance_notices: MaintenanceNoticesTable
  auto_incident_settings: AutoIncidentSettingsTable
  auto_incident_components: AutoIncidentComponentsTable
  page_transfers: PageTransfersTable
  email_auth_reports: EmailAuthReportsTable
  tool_checks: ToolChecksTable
  attempt_budgets: AttemptBudgetsTable
  attempt_known_clients: AttemptKnownClientsTable
  password_resets: PasswordResetsTable
  totp_factors: TotpFactorsTable
  recovery_codes: RecoveryCodesTable
  two_factor_challenges: TwoFactorChallengesTable
  passkeys: PasskeysTable
  passkey_challenges: PasskeyChallengesTable
  import_mappings: ImportMappingsTable
}
