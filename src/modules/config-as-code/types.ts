/**
 * A team's configuration in one canonical shape: what the instance holds now (read through the
 * services) and what a file asks for (after defaults), so that the plan is a comparison of two
 * values. Objects are named by stable keys, never by ids.
 */
import type { ComponentType } from '../components/tables.ts'
import type { Visibility } from '../status-pages/tables.ts'
import type { ChannelType } from '../channels/types.ts'
import type { MonitorInput } from '../monitors/service.ts'

/** The largest file plan and apply take (bytes of text). */
export const MAX_CONFIG_BYTES = 5 * 1024 * 1024

export interface ComponentState {
  name: string
  type: ComponentType
  group: string | null
  /** Markdown, '' for none. */
  description: string
}

export interface PageState {
  slug: string
  name: string
  visibility: Visibility
  language: string
  time_zone: string
  /** Markdown, '' for none. */
  description: string
  custom_domain: string | null
  /** In the page's order. */
  components: ComponentState[]
}

export interface ChannelState {
  name: string
  type: ChannelType
  /** The type's settings, secrets in full (the file holds references to them, never the values). */
  settings: Record<string, string>
  events: string[]
  all_pages: boolean
  /** Page slugs, sorted (empty with all_pages). */
  pages: string[]
  all_monitors: boolean
  enabled: boolean
}

/** A monitor's definition as the monitors API takes it, every field given. */
export type MonitorFields = Omit<MonitorInput, 'name'> & { type: NonNullable<MonitorInput['type']> }

export interface MonitorState {
  name: string
  fields: MonitorFields
  enabled: boolean
  page: string | null
  component: string | null
  /** Monitor names, sorted. */
  parents: string[]
  /** Channel names, sorted. */
  alert_channels: string[]
}

export interface TeamState {
  pages: PageState[]
  channels: ChannelState[]
  monitors: MonitorState[]
}

export type ChangeKind = 'page' | 'component' | 'channel' | 'monitor'
export type ChangeAction = 'create' | 'update' | 'delete'

export interface PlannedChange {
  action: ChangeAction
  kind: ChangeKind
  /** Page slug; `slug/component name`; channel name; monitor name. */
  key: string
  /** With update: the fields that change; `component_order` on a page when only the order moves. */
  fields: string[]
}

export interface ConfigPlan {
  changes: PlannedChange[]
  /** What the file asks for, after defaults: what apply writes. */
  desired: TeamState
}
