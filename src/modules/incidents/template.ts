/**
 * Incident templates use two placeholders, `{{component}}` and `{{page}}`, filled by plain text
 * substitution in one pass: no template engine, nothing executable, and a substituted value that
 * itself contains `{{page}}` is not expanded again. Unknown placeholders stay as they are.
 */
const PLACEHOLDER = /\{\{\s*(component|page)\s*\}\}/g

export interface TemplateValues {
  /** The affected components' names, e.g. "API, Website"; the page-wide wording when none. */
  component: string
  page: string
}

export function fillTemplate(text: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (_match, name: 'component' | 'page') => values[name])
}

/** How `{{component}}` reads for a list of component names ("all systems" when page-wide). */
export function componentPhrase(names: readonly string[]): string {
  if (names.length === 0) return 'all systems'
  if (names.length === 1) return names[0]!
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
