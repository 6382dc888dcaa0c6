/**
 * The static list of migrations. A compiled binary has no migrations folder to read, so every new
 * migration file is imported and listed here, in order.
 */
import type { Migration } from 'kysely'
import * as createCoreTables from './2026_11_21_0300_create_core_tables.ts'
import * as createIncidents from './2026_11_22_0100_create_incidents.ts'
import * as createCheckResults from './2026_11_22_0110_create_check_results.ts'
import * as createPublicPageTables from './2026_11_23_0300_create_public_page_tables.ts'
import * as createSessions from './2026_11_25_0300_create_sessions.ts'
import * as createAnalytics from './2026_11_25_0310_create_analytics.ts'
import * as createResponseRollups from './2026_11_25_0320_create_response_rollups.ts'
import * as createPageCheckMinutes from './2026_11_26_0300_create_page_check_minutes.ts'
import * as accountSetupAndSessions from './2026_11_26_0500_account_setup_and_sessions.ts'
import * as createMonitors from './2026_11_27_0300_create_monitors.ts'
import * as createOutbox from './2026_11_28_0100_create_outbox.ts'
import * as createNotificationChannels from './2026_11_28_0200_create_notification_channels.ts'
import * as createSubscribers from './2026_11_28_0300_create_subscribers.ts'
import * as createSubscriberFanouts from './2026_11_28_0350_create_subscriber_fanouts.ts'
import * as createPageTransfers from './2026_11_28_0400_create_page_transfers.ts'
import * as createSla from './2026_11_28_0500_create_sla.ts'
import * as autoIncidents from './2026_11_28_0600_auto_incidents.ts'
import * as createMonitorToolStates from './2026_11_28_0700_create_monitor_tool_states.ts'
import * as createEmailAuthAndToolChecks from './2026_11_28_0800_create_email_auth_and_tool_checks.ts'
import * as monitorLeases from './2026_11_28_0900_monitor_leases.ts'
import * as createAttemptBudgets from './2026_11_29_0100_create_attempt_budgets.ts'
import * as probeRegions from './2026_11_29_0100_probe_regions.ts'
import * as statusDailyDownSpans from './2026_11_29_0100_status_daily_down_spans.ts'
import * as notifyHeldEvents from './2026_11_30_0400_notify_held_events.ts'
import * as webhookSigningAndDeliveryLog from './2026_11_30_0500_webhook_signing_and_delivery_log.ts'
import * as createStatusCorrections from './2026_11_30_0600_create_status_corrections.ts'
import * as customDomainState from './2026_11_30_0700_custom_domain_state.ts'
import * as monitorAlerts from './2026_12_01_0100_monitor_alerts.ts'
import * as pushRunStart from './2026_12_01_0300_push_run_start.ts'
import * as incidentPostmortems from './2026_12_01_0400_incident_postmortems.ts'
import * as recurringMaintenance from './2026_12_01_0500_recurring_maintenance.ts'
import * as importMappings from './2026_12_01_0600_import_mappings.ts'
import * as passwordResets from './2026_12_01_0700_password_resets.ts'
import * as twoFactor from './2026_12_01_0700_two_factor.ts'
import * as publicErrorBudgets from './2026_12_01_0800_public_error_budgets.ts'
import * as impactLevels from './2026_12_01_0900_impact_levels.ts'
import * as vendorFeeds from './2026_12_01_1000_vendor_feeds.ts'
import * as chatSubscribers from './2026_12_01_1100_chat_subscribers.ts'
import * as monitorDependencies from './2026_12_06_0500_monitor_dependencies.ts'
import * as outboxThreads from './2026_12_06_0510_outbox_threads.ts'
import * as teams from './2026_12_06_0900_teams.ts'
import * as pageLanguageAndZone from './2026_12_06_1000_page_language_and_zone.ts'
import * as channelsVerifiedByTest from './2026_12_07_0100_channels_verified_by_test.ts'
import * as auditLogReadIndexes from './2026_12_07_0200_audit_log_read_indexes.ts'
import * as maintenanceUpdates from './2026_12_07_0300_maintenance_updates.ts'
import * as ssoIdentities from './2026_12_08_0200_sso_identities.ts'
import * as passkeys from './2026_12_08_0300_passkeys.ts'
import * as subscriberLanguage from './2026_12_08_0500_subscriber_language.ts'
import * as descriptions from './2026_12_08_0600_descriptions.ts'
import * as auditLogPageIndex from './2026_12_08_0700_audit_log_page_index.ts'
import * as maintenanceCancellations from './2026_12_09_0100_maintenance_cancellations.ts'
import * as passkeyChallengeBrowser from './2026_12_10_0100_passkey_challenge_browser.ts'

export const migrations: Record<string, Migration> = {
  '2026_11_21_0300_create_core_tables': createCoreTables,
  '2026_11_22_0100_create_incidents': createIncidents,
  '2026_11_22_0110_create_check_results': createCheckResults,
  '2026_11_23_0300_create_public_page_tables': createPublicPageTables,
  '2026_11_25_0300_create_sessions': createSessions,
  '2026_11_25_0310_create_analytics': createAnalytics,
  '2026_11_25_0320_create_response_rollups': createResponseRollups,
  '2026_11_26_0300_create_page_check_minutes': createPageCheckMinutes,
  '2026_11_26_0500_account_setup_and_sessions': accountSetupAndSessions,
  '2026_11_27_0300_create_monitors': createMonitors,
  '2026_11_28_0100_create_outbox': createOutbox,
  '2026_11_28_0200_create_notification_channels': createNotificationChannels,
  '2026_11_28_0300_create_subscribers': createSubscribers,
  '2026_11_28_0350_create_subscriber_fanouts': createSubscriberFanouts,
  '2026_11_28_0400_create_page_transfers': createPageTransfers,
  '2026_11_28_0500_create_sla': createSla,
  '2026_11_28_0600_auto_incidents': autoIncidents,
  '2026_11_28_0700_create_monitor_tool_states': createMonitorToolStates,
  '2026_11_28_0800_create_email_auth_and_tool_checks': createEmailAuthAndToolChecks,
  '2026_11_28_0900_monitor_leases': monitorLeases,
  '2026_11_29_0100_create_attempt_budgets': createAttemptBudgets,
  '2026_11_29_0100_probe_regions': probeRegions,
  '2026_11_29_0100_status_daily_down_spans': statusDailyDownSpans,
  '2026_11_30_0400_notify_held_events': notifyHeldEvents,
  '2026_11_30_0500_webhook_signing_and_delivery_log': webhookSigningAndDeliveryLog,
  '2026_11_30_0600_create_status_corrections': createStatusCorrections,
  '2026_11_30_0700_custom_domain_state': customDomainState,
  '2026_12_01_0100_monitor_alerts': monitorAlerts,
  '2026_12_01_0300_push_run_start': pushRunStart,
  '2026_12_01_0400_incident_postmortems': incidentPostmortems,
  '2026_12_01_0500_recurring_maintenance': recurringMaintenance,
  '2026_12_01_0600_import_mappings': importMappings,
  '2026_12_01_0700_password_resets': passwordResets,
  '2026_12_01_0700_two_factor': twoFactor,
  '2026_12_01_0800_public_error_budgets': publicErrorBudgets,
  '2026_12_01_0900_impact_levels': impactLevels,
  '2026_12_01_1000_vendor_feeds': vendorFeeds,
  '2026_12_01_1100_chat_subscribers': chatSubscribers,
  '2026_12_06_0500_monitor_dependencies': monitorDependencies,
  '2026_12_06_0510_outbox_threads': outboxThreads,
  '2026_12_06_0900_teams': teams,
  '2026_12_06_1000_page_language_and_zone': pageLanguageAndZone,
  '2026_12_07_0100_channels_verified_by_test': channelsVerifiedByTest,
  '2026_12_07_0200_audit_log_read_indexes': auditLogReadIndexes,
  '2026_12_07_0300_maintenance_updates': maintenanceUpdates,
  '2026_12_08_0200_sso_identities': ssoIdentities,
  '2026_12_08_0300_passkeys': passkeys,
  '2026_12_08_0500_subscriber_language': subscriberLanguage,
  '2026_12_08_0600_descriptions': descriptions,
  '2026_12_08_0700_audit_log_page_index': auditLogPageIndex,
  '2026_12_09_0100_maintenance_cancellations': maintenanceCancellations,
  '2026_12_10_0100_passkey_challenge_browser': passkeyChallengeBrowser,
}
