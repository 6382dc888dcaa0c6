/**
 * What a screen module gets: the services it names (a Pick of the composition root's services,
 * so a screen reaches nothing it did not ask for), and the config.
 */
import type { Config } from '../../config.ts'
import type { Services } from '../../services.ts'

export interface ScreenDeps<Names extends keyof Services = keyof Services> {
  services: Pick<Services, Names>
  config: Config
}

/** The services the page overview's panels read (screens/overview.ts). */
export type OverviewServices = 'incidents' | 'components' | 'maintenances'
