/** What every screen module gets: all services (the ones the API uses), the config, edge resolvers. */
import type { Config } from '../../../config.ts'
import type { Services } from '../../../services.ts'
import type { DnsResolver } from '../../status-pages/dns-check.ts'

export interface ScreenDeps {
  services: Services
  config: Config
  /** node:dns in production (src/http/edge/dns-resolver.ts); a function in tests; absent = no DNS check. */
  dns?: DnsResolver
}
