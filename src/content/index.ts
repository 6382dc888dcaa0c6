/**
 * The Markdown that ships inside the program. A compiled binary has no folder to read, so every
 * file is imported here (as text) and listed by its URL slug. Add a doc: write
 * `docs/<slug>.md` with front matter, then add one import and one line below.
 */
import blogIntroducingLantern from './blog/introducing-lantern.md' with { type: 'text' }
import changelog from './CHANGELOG.md' with { type: 'text' }
import docsAnalytics from './docs/analytics.md' with { type: 'text' }
import docsApi from './docs/api.md' with { type: 'text' }
import docsCli from './docs/cli.md' with { type: 'text' }
import docsConfiguration from './docs/configuration.md' with { type: 'text' }
import docsCustomDomains from './docs/custom-domains.md' with { type: 'text' }
import docsDomainTools from './docs/domain-tools.md' with { type: 'text' }
import docsEmbedding from './docs/embedding.md' with { type: 'text' }
import docsGettingStarted from './docs/getting-started.md' with { type: 'text' }
import docsGrafana from './docs/grafana.md' with { type: 'text' }
import docsImporting from './docs/importing.md' with { type: 'text' }
import docsConfigurationAsCode from './docs/configuration-as-code.md' with { type: 'text' }
import docsLiveStatus from './docs/live-status.md' with { type: 'text' }
import docsMonitors from './docs/monitors.md' with { type: 'text' }
import docsNotifications from './docs/notifications.md' with { type: 'text' }
import docsOperations from './docs/operations.md' with { type: 'text' }
import docsPrivatePages from './docs/private-pages.md' with { type: 'text' }
import docsPageTransfer from './docs/page-transfer.md' with { type: 'text' }
import docsTeams from './docs/teams.md' with { type: 'text' }
import docsScaleOut from './docs/scale-out.md' with { type: 'text' }
import docsSla from './docs/sla.md' with { type: 'text' }
import docsStatusPages from './docs/status-pages.md' with { type: 'text' }
import docsSubscribers from './docs/subscribers.md' with { type: 'text' }
import docsWebApp from './docs/web-app.md' with { type: 'text' }

export const CHANGELOG_MARKDOWN: string = changelog

export const DOCS: Readonly<Record<string, string>> = {
  'getting-started': docsGettingStarted,
  embedding: docsEmbedding,
  'custom-domains': docsCustomDomains,
  'private-pages': docsPrivatePages,
  api: docsApi,
  analytics: docsAnalytics,
  operations: docsOperations,
  grafana: docsGrafana,
  'scale-out': docsScaleOut,
  sla: docsSla,
  notifications: docsNotifications,
  'page-transfer': docsPageTransfer,
  teams: docsTeams,
  importing: docsImporting,
  'configuration-as-code': docsConfigurationAsCode,
  'domain-tools': docsDomainTools,
  subscribers: docsSubscribers,
  monitors: docsMonitors,
  configuration: docsConfiguration,
  cli: docsCli,
  'live-status': docsLiveStatus,
  'status-pages': docsStatusPages,
  'web-app': docsWebApp,
}

export const BLOG: Readonly<Record<string, string>> = {
  'introducing-lantern': blogIntroducingLantern,
}
