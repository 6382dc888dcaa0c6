/**
 * A Bun macro: the widget's failure words ("Status unavailable") in each of our languages, read
 * from the translations (src/content/locales/) when the widget is built and inlined into it, so a
 * widget whose status request fails still speaks its host page's language. Only these words: the
 * rest come with the status JSON.
 */
import { LOCALE_FILES } from '../../content/locales/index.ts'
import { LANGUAGES, type Language } from '../../lib/language-match.ts'

export function failureWords(): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((lang) => [lang, String(LOCALE_FILES[lang]['widget.unavailable'] ?? LOCALE_FILES.en['widget.unavailable'])])) as Record<Language, string>
}
