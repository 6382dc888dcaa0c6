/**
 * Mail templates: plain `{{name}}` substitution and nothing else (no expressions, loops, filters
 * or partials: template engines in peers led to remote code execution, Kuma's LiquidJS #7534).
 *
 * - `{{ name }}` (spaces allowed; letters, digits, `_` and `.` in names) is replaced by the value.
 * - In an HTML template every value is HTML-escaped; in a text template it goes in as it is.
 * - An unknown name stays visible as written (`{{name}}`), so a mistake shows in the mail instead
 *   of vanishing into a sentence that silently lost a word.
 * - Substitution is one pass: a value that itself contains `{{x}}` is not expanded again.
 */
import { escapeHtml } from '../../lib/html.ts'

export type TemplateValues = Readonly<Record<string, string | number>>

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g

export function renderText(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole))
}

export function renderHtml(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? escapeHtml(String(values[name])) : escapeHtml(whole)))
}
