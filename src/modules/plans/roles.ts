/**
 * The permission matrix as data, beside the plan matrix: what each role of a team member may do.
 * Every owner route names the permission it needs (teams/route-permissions.ts); the server asks
 * `roleMay` on every request, so a role change or a removal counts from the next request on.
 */
import type { Plan } from '../../lib/plans.ts'

export const ROLES = ['owner', 'admin', 'editor', 'responder', 'viewer'] as const
export type Role = (typeof ROLES)[number]

export const PERMISSIONS = [
  /** Their own account: password, two-factor, sessions, API keys. Every member. */
  'self',
  /** See everything of the team: pages, monitors, analytics, SLA. */
  'read',
  /** What one does during an outage: incidents, maintenance, a component's status, lookups. */
  'respond',
  /** Configure: pages, components, monitors, channels, templates, branding, subscribers. */
  'edit',
  /** Members, invitations, team settings, the audit log, deleting a page, moving a page to another team. */
  'manage',
  /** The plan, deleting the team, passing ownership. */
  'own',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const upTo = (last: Permission): ReadonlySet<Permission> => new Set(PERMISSIONS.slice(0, PERMISSIONS.indexOf(last) + 1))

const MATRIX: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  owner: upTo('own'),
  admin: upTo('manage'),
  editor: upTo('edit'),
  responder: upTo('respond'),
  viewer: upTo('read'),
}

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value)

export function roleMay(role: Role, permission: Permission): boolean {
  return MATRIX[role].has(permission)
}

/** Higher roles first: `owner` is 0. */
const rank = (role: Role): number => ROLES.indexOf(role)

/** True when `role` is `than` or below it (an API key's role is never above its member's). */
export const roleAtMost = (role: Role, than: Role): boolean => rank(role) >= rank(than)

/** The roles someone with `role` may hand out (to a member or an API key): theirs and below, highest first. */
export const rolesUpTo = (role: Role): Role[] => ROLES.filter((r) => roleAtMost(r, role))

/** The lower of two roles: what a key may do when its member was demoted after it was made. */
export const lowerRole = (a: Role, b: Role): Role => (rank(a) >= rank(b) ? a : b)

const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  editor: 'Editor',
  responder: 'Responder',
  viewer: 'Viewer',
}

export const roleLabel = (role: Role): string => ROLE_LABELS[role]

const ROLE_SUMMARIES: Readonly<Record<Role, string>> = {
  owner: 'Everything, including the plan, deleting the team and passing ownership',
  admin: 'Members, invitations, team settings and every page',
  editor: 'Pages, components, monitors, channels, maintenance, incidents, templates, branding, subscribers',
  responder: 'Incidents, maintenance and component status; reads the rest',
  viewer: 'Reads everything, analytics and SLA included; changes nothing',
}

export const roleSummary = (role: Role): string => ROLE_SUMMARIES[role]

/** Seats per plan (members and pending invitations); null: no limit. */
const SEATS: Readonly<Record<Plan, number | null>> = {
  free: 1,
  pro: 3,
  growth: 10,
  business: null,
  oss_hero: null,
  enterprise: null,
}

export const seatsOf = (plan: Plan): number | null => SEATS[plan]

/** Days the audit log keeps, per plan; older rows are pruned in batches. */
const AUDIT_RETENTION_DAYS: Readonly<Record<Plan, number>> = {
  free: 7,
  pro: 30,
  growth: 90,
  business: 365,
  oss_hero: 365,
  enterprise: 365,
}

export const auditRetentionDays = (plan: Plan): number => AUDIT_RETENTION_DAYS[plan]

/** Requiring two-factor of members and claiming an email domain for SSO: from Business up. */
export const teamSecurityAllowed = (plan: Plan): boolean => plan === 'business' || plan === 'oss_hero' || plan === 'enterprise'
