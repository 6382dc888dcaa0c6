/**
 * Counted nouns and indefinite articles in English copy (pure; plurals by Intl.PluralRules), so no
 * screen, mail or message says "1 components" or "a Email channel".
 *
 *   counted(1, 'component')                 // '1 component'
 *   counted(3, 'address', 'addresses')      // '3 addresses'
 *   counted(1_000, 'lookup')                // '1,000 lookups'
 *   withArticle('Email channel')            // 'an Email channel'
 *   withArticle('SSL monitor')              // 'an SSL monitor' (an acronym reads as its letters)
 */

const rules = new Intl.PluralRules('en')

/** The noun for `count` ('component' or 'components'); `other` when the plural is not noun + s. */
export function noun(count: number, one: string, other = `${one}s`): string {
  return rules.select(count) === 'one' ? one : other
}

/** `count` and its noun: '1 component', '0 components', '1,000 lookups'. */
export function counted(count: number, one: string, other?: string): string {
  return `${count.toLocaleString('en')} ${noun(count, one, other)}`
}

/** Letters whose name starts with a vowel sound (eff, aitch, ell, em, en, ar, ess, ex …). */
const VOWEL_NAMED_LETTERS = /^[AEFHILMNORSX]/
/** Vowel letters read with a consonant sound first ("a user", "a European", "a one-off"). */
const CONSONANT_SOUND = /^(?:uni(?!n)|us[eu]|uti|ur[aeio]|eu|ew|one\b|once\b)/i
/** A silent h ("an hour"). */
const SILENT_H = /^(?:hour|honest|honou?r|heir)/i
/** Capitals read as a word, not letter by letter ("a README", "a NAT"). */
const READ_AS_WORDS = new Set(['README', 'NAT', 'MIME', 'LAN', 'WAN', 'JSON', 'YAML'])
/** Lower-case names read letter by letter ("an ntfy topic"). */
const READ_AS_LETTERS = new Set(['ntfy'])

/** 'a' or 'an' for a word or phrase, by how its first word is read. */
export function article(phrase: string): 'a' | 'an' {
  const word = phrase.trim().split(/[\s-]/)[0] ?? ''
  const initialism = (word.length > 1 && word === word.toUpperCase() && /^[A-Z]/.test(word) && !READ_AS_WORDS.has(word)) || READ_AS_LETTERS.has(word)
  if (initialism) return VOWEL_NAMED_LETTERS.test(word.toUpperCase()) ? 'an' : 'a'
  if (SILENT_H.test(word)) return 'an'
  if (CONSONANT_SOUND.test(word)) return 'a'
  return /^[aeiou]/i.test(word) ? 'an' : 'a'
}

/** The phrase with its indefinite article: 'an Email channel', 'a Slack channel'. */
export const withArticle = (phrase: string): string => `${article(phrase)} ${phrase}`
