/** What every screen module gets: all services (the ones the API uses), the config. */
import type { Config } from '../../config.ts'
import type { Services } from '../../services.ts'

export interface ScreenDeps {
  services: Services
  config: Config
}
