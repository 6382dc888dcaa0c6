/** Plan overview: features from the matrix (DESIGN §4) with the cheapest plan for the missing ones; usage lines. */
import { expect, test } from 'bun:test'
import { planFeatures, planUsage } from '../../../src/modules/plans/overview.ts'
import { PLANS } from '../../../src/modules/plans/matrix.ts'
import { usageLine } from '../../../src/web/views/plan.ts'

test('every feature of the matrix is listed; a missing one names the cheapest plan that has it', () => {
  const free = planFeatures('free')
  expect(free.every((line) => !line.included)).toBe(true)
  expect(Object.fromEntries(free.map((line) => [line.feature, line.availableFrom]))).toEqual({
    badge_widget: 'pro',
    markdown_snippets: 'growth',
    status_json_details: 'growth',
    custom_domain_private: 'pro',
    custom_css: 'growth',
    analytics_share_tokens: 'pro',
    ssl_chain_details: 'pro',
  })
  const pro = planFeatures('pro')
  expect(pro.filter((line) => line.included).map((line) => line.feature)).toEqual(['badge_widget', 'custom_domain_private', 'analytics_share_tokens', 'ssl_chain_details'])
  for (const plan of PLANS.slice(2)) expect(planFeatures(plan).every((line) => line.included && line.availableFrom === null)).toBe(true)
})

const NOTHING = { pages: 0, components: 0, components_per_page: 0, api_keys: 0, auto_incident_components: 0, subscribers_per_page: 0 }

test('usage: the counts as given; pages, components and keys uncapped; automatic incidents and subscribers per page from the matrix; a cap renders as a "3 / 5" meter', () => {
  const lines = planUsage('free', { pages: 3, components: 7, components_per_page: 4, api_keys: 1, auto_incident_components: 0, subscribers_per_page: 12 })
  expect(lines.map((line) => [line.key, line.used, line.limit])).toEqual([
    ['pages', 3, null],
    ['components', 7, null],
    ['components_per_page', 4, null],
    ['api_keys', 1, null],
    ['auto_incident_components', 0, 0],
    ['subscribers_per_page', 12, 100],
  ])
  expect(usageLine(lines[0]!)).toContain('no limit on your plan')
  // Free has no automatic incidents: said so, not drawn as an empty bar.
  expect(usageLine(lines[4]!)).toContain('not on your plan')
  expect(usageLine(lines[4]!)).not.toContain('<meter')
  expect(usageLine(lines[5]!)).toContain('<span class="count">12 / 100</span>')
  expect(planUsage('pro', NOTHING).slice(4).map((line) => line.limit)).toEqual([5, 1000])
  expect(planUsage('enterprise', NOTHING).every((line) => line.limit === null)).toBe(true)
  const capped = planUsage('free', { ...NOTHING, pages: 3 }, { pages: 5 })[0]!
  const markup = usageLine(capped)
  expect(markup).toMatch(/<meter id="usage-pages" min="0" max="5"[^>]* value="3">3 \/ 5<\/meter>/)
  expect(markup).toContain('<span class="count">3 / 5</span>')
  expect(markup).not.toContain('Limit reached')
  expect(usageLine({ ...capped, used: 6 })).toContain('value="5"')
  expect(usageLine({ ...capped, used: 6 })).toContain('Limit reached')
})
