/**
 * A team's configuration in one canonical shape: what the instance holds now (read through the
 * services) and what a file asks for (after defaults), so that the plan is a comparison of two
 * values. Objects are named by stable keys, never by ids.
 */
import type { ComponentType } from '../components/tables.ts'
import type { Visibility } from '../status-pages/tables.ts'
import type { ChannelType } from '../channels/types.ts'
import type { MonitorInput } from '../monitors/service.ts'
import type { DegradedCountsAs, SlaPeriod } from '../sla/tables.ts'
import type { Palette } from '../branding/palette.ts'
import type { Frequency, Weekday } from '../maintenances/service.ts'

/** The largest file plan and apply take (bytes of text). */
export const MAX_CONFIG_BYTES = 5 * 1024 * 1024

/** A component's SLA target as the SLA API takes it, every field given. */
export interface SlaTargetState {
  target_percent: number
  period: SlaPeriod
  degraded_counts_as: DegradedCountsAs
  exclude_maintenance: boolean
  min_outage_seconds: number
  breach_alerts: boolean
  public_budget: boolean
}

/** A page's automatic-incident settings as the automatic-incidents API takes them (components by name, sorted). */
export interface AutomaticIncidentsState {
  auto_incidents: boolean
  auto_incident_notify: boolean
  auto_resolve: boolean
  components: string[]
}

/** A one-off maintenance window not over yet, named by its title within its page. */
export interface MaintenanceState {
  title: string
  /** Markdown, '' for none. */
  message: string
  /** Epoch ms. */
  start_at: number
  end_at: number
  /** Component names, sorted; empty: the whole page. */
  components: string[]
  notify_subscribers: boolean
}

/** A recurring maintenance series not cancelled, named by its title within its page: its rule in its time zone. */
export interface RecurringMaintenanceState {
  title: string
  message: string
  time_zone: string
  starts_on: string
  start_time: string
  duration_minutes: number
  frequency: Frequency
  interval: number
  /** In week order (MO first); empty: the weekday of starts_on. */
  weekdays: Weekday[]
  month_day: number | null
  until: string | null
  count: number | null
  /** Sorted. */
  exceptions: string[]
  components: string[]
  notify_subscribers: boolean
}

export interface ComponentState {
  name: string
  type: ComponentType
  group: string | null
  /** Markdown, '' for none. */
  description: string
  /** null: none. */
  sla: SlaTargetState | null
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
  /** The branding colours, every one given; null: Lantern's own. */
  branding: Palette | null
  /** null: none (everything off, no component chosen). */
  automatic_incidents: AutomaticIncidentsState | null
  /** By start. */
  maintenance: MaintenanceState[]
  /** By title. */
  recurring_maintenance: RecurringMaintenanceState[]
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

/** An incident template of the team, named by its name. */
export interface TemplateState {
  name: string
  title: string
  /** Markdown, '' for none; `{{component}}` and `{{page}}` are filled when an incident is opened from it. */
  message: string
}

export interface TeamState {
  pages: PageState[]
  channels: ChannelState[]
  monitors: MonitorState[]
  /** By name. */
  templates: TemplateState[]
}

export type ChangeKind = 'page' | 'component' | 'channel' | 'monitor' | 'template' | 'maintenance' | 'recurring_maintenance' | SettingKind

/** Settings of a page or component, planned as objects of their own (keyed by the page or component). */
export type SettingKind = 'sla_target' | 'branding' | 'automatic_incidents'
export const SETTING_KINDS: readonly SettingKind[] = ['sla_target', 'branding', 'automatic_incidents']
export type ChangeAction = 'create' | 'update' | 'delete'

export interface PlannedChange {
  action: ChangeAction
  kind: ChangeKind
  /** Page slug (also of its branding and automatic incidents); `slug/component name` (also of its SLA target); `slug/title` of a maintenance; channel, monitor or template name. */
  key: string
  /** With update: the fields that change; `component_order` on a page when only the order moves. */
  fields: string[]
}

export interface ConfigPlan {
  changes: PlannedChange[]
  /** What needs the person's eye though nothing changes for it (a maintenance of the file that is over). */
  notes: string[]
  /** What the file asks for, after defaults: what apply writes. */
  desired: TeamState
}
