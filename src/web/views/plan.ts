/**
 * Plan and usage (/user/plan): the plan's name, its features (the ones it lacks with the plan that
 * has them), and usage lines: a `<meter>` with "3 / 5" as text where the plan caps the amount, the
 * plain count with "no limit" where it does not.
 */
import { html } from '../../lib/html.ts'
import { planLabel, type FeatureLine, type UsageLine } from '../../modules/plans/overview.ts'
import type { Plan } from '../../modules/plans/matrix.ts'

export function usageLine(line: UsageLine): string {
  const id = `usage-${line.key.replaceAll('_', '-')}`
  if (line.limit === null) {
    return html`<li><span class="label">${line.label}</span> <span class="count">${String(line.used)}</span> <span class="muted">· no limit on your plan</span></li>`
  }
  // A cap of 0 (automatic incidents on Free) is a feature the plan lacks, not an empty bar.
  if (line.limit === 0) {
    return html`<li><span class="label">${line.label}</span> <span class="count">${String(line.used)}</span> <span class="muted">· not on your plan</span></li>`
  }
  const text = `${line.used} / ${line.limit}`
  // The meter's text content is its fallback; the visible count says the same for everyone.
  return html`<li><label for="${id}">${line.label}</label>
  <meter id="${id}" min="0" max="${String(line.limit)}" low="${String(Math.ceil(line.limit * 0.8))}" high="${String(line.limit)}" optimum="0" value="${String(Math.min(line.used, line.limit))}">${text}</meter>
  <span class="count">${text}</span>!${line.used >= line.limit ? html` <span class="badge">Limit reached</span>` : ''}</li>`
}

function featureLine(line: FeatureLine): string {
  return line.included
    ? html`<li><span aria-hidden="true">✓</span> ${line.label}</li>`
    : html`<li><span aria-hidden="true">–</span> ${line.label}: <span class="muted">not on your plan; from ${planLabel(line.availableFrom!)}</span></li>`
}

export function planView(plan: Plan, features: FeatureLine[], usage: UsageLine[]): string {
  const included = features.filter((line) => line.included)
  const missing = features.filter((line) => !line.included)
  return html`<h1>Plan and usage</h1>
<section class="card" aria-labelledby="plan-heading">
  <h2 id="plan-heading">Your plan: ${planLabel(plan)}</h2>
  !${included.length > 0 ? html`<h3>Included</h3><ul class="features">!${included.map(featureLine).join('')}</ul>` : html`<p>Your plan has none of the optional features.</p>`}
  !${missing.length > 0 ? html`<h3>Not on your plan</h3><ul class="features">!${missing.map(featureLine).join('')}</ul><p class="hint">The administrator of this Lantern changes plans (lantern user set-plan).</p>` : ''}
</section>
<section class="card" aria-labelledby="usage-heading">
  <h2 id="usage-heading">Usage</h2>
  <ul class="usage">!${usage.map(usageLine).join('')}</ul>
</section>`
}
