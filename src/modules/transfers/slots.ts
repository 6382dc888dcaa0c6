/**
 * Does the page fit the recipient's plan? Pure: the accept reads the figures in its transaction
 * and refuses (409, nothing moves) with the first limit the page would break, named in the text.
 *
 * Checked: the monitor count (the recipient's monitors plus the page's), the shortest monitor
 * interval, the components with automatic incidents on (the recipient's plus the page's: they
 * move with the page and would otherwise pause on arrival), and the custom-domain / private-page
 * entitlement, and the subscribers per page (confirmed ones; they move with the page). No plan caps the number of pages
 * today (plans/overview.ts): when one does, its check belongs here.
 */
import { autoIncidentLimit, lowestPlanWith, monitorLimits, planHas, planLabel, subscriberLimit, type Plan } from '../plans/matrix.ts'
import type { PageMonitorStats } from './repo.ts'

export interface SlotFacts {
  recipientPlan: Plan
  recipientMonitors: number
  page: { customDomain: string | null; visibility: 'public' | 'private' }
  pageMonitors: PageMonitorStats
  /** Components with automatic incidents on: over all the recipient's pages, and on this page. */
  recipientAutoIncidentComponents: number
  pageAutoIncidentComponents: number
  /** Confirmed, active subscribers of the page. */
  pageSubscribers: number
}

/** Null when the page fits, else the refusal's text. */
export function slotRefusal(facts: SlotFacts): string | null {
  const plan = facts.recipientPlan
  const label = planLabel(plan)
  const limits = monitorLimits(plan)
  const { count, shortestIntervalSeconds } = facts.pageMonitors
  if (limits.maxMonitors !== null && facts.recipientMonitors + count > limits.maxMonitors) {
    return `monitor limit: the ${label} plan allows ${limits.maxMonitors} monitors; you have ${facts.recipientMonitors} and this page brings ${count}`
  }
  if (shortestIntervalSeconds !== null && shortestIntervalSeconds < limits.minIntervalSeconds) {
    return `monitor interval: this page has a monitor every ${shortestIntervalSeconds} s; the ${label} plan's shortest interval is ${limits.minIntervalSeconds} s`
  }
  const autoLimit = autoIncidentLimit(plan)
  const bringsAuto = facts.pageAutoIncidentComponents
  if (autoLimit !== null && bringsAuto > 0 && facts.recipientAutoIncidentComponents + bringsAuto > autoLimit) {
    const noun = autoLimit === 1 ? 'component' : 'components'
    return `automatic incidents limit: the ${label} plan allows automatic incidents on ${autoLimit} ${noun}; you have ${facts.recipientAutoIncidentComponents} and this page brings ${bringsAuto}`
  }
  const subscribers = subscriberLimit(plan)
  if (subscribers !== null && facts.pageSubscribers > subscribers) {
    return `subscriber limit: the ${label} plan allows ${subscribers} subscribers per page; this page has ${facts.pageSubscribers}`
  }
  const needsDomainPlan = facts.page.customDomain !== null || facts.page.visibility === 'private'
  if (needsDomainPlan && !planHas(plan, 'custom_domain_private')) {
    const what = facts.page.customDomain !== null ? `a custom domain (${facts.page.customDomain})` : 'private visibility'
    return `custom domain and private pages: this page has ${what}, which needs the ${planLabel(lowestPlanWith('custom_domain_private'))} plan or higher; you are on ${label}`
  }
  return null
}
