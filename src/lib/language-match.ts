/**
 * Our languages and how a tag someone sends (`pt-br`, `de-AT`, `ja`) is read as one of them. No
 * imports: the live widget bundles it, to pick its failure words by the rule the server uses.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja'] as const
export type Language = (typeof LANGUAGES)[number]

/** A tag as one of our languages (exactly, else by its first part), or undefined. */
export function matchLanguage(tag: string): Language | undefined {
  const lower = tag.trim().toLowerCase()
  for (const lang of LANGUAGES) if (lang.toLowerCase() === lower) return lang
  const base = lower.split('-')[0]
  // `pt` and `pt-PT` readers get Brazilian Portuguese rather than nothing.
  for (const lang of LANGUAGES) if (lang.toLowerCase().split('-')[0] === base) return lang
  return undefined
}
