/**
 * The words and times of the public side (status pages, the subscribe flow, subscriber mails) in
 * the visitor's language. Translations are plain JSON files, one per language, in
 * src/content/locales/ (a contributor edits them without reading code); plural forms follow
 * `Intl.PluralRules` and every date, time and length goes through `Intl`, so no table of grammar
 * lives here.
 *
 *   const w = words('de', 'Europe/Berlin')
 *   w.t('page.components')                    // 'Komponenten'
 *   w.plural('uptime.days_ago', 90)           // '90 Tage zuvor'
 *   w.dateTime(ms)                            // '27. Nov. 2026, 15:05 MEZ'
 */
import { LOCALE_FILES, type LocaleFile } from '../content/locales/index.ts'
import { formatDate, formatDateTime, formatLength, formatMonth } from './human-time.ts'
import { LANGUAGES, matchLanguage, type Language } from './language-match.ts'

export { LANGUAGES, matchLanguage, type Language } from './language-match.ts'
export const DEFAULT_LANGUAGE: Language = 'en'

const known = new Set<string>(LANGUAGES)
export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && known.has(value)

/** Each language's own name, for the switcher. */
export const languageName = (lang: Language): string => String(LOCALE_FILES[lang]['language.name'])

/** The best of our languages for an `Accept-Language` header (RFC 9110 weights), or undefined. */
export function negotiateLanguage(header: string | null | undefined): Language | undefined {
  if (!header) return undefined
  let best: Language | undefined
  let bestQ = 0
  for (const item of header.split(',').slice(0, 20)) {
    const [tag = '', ...params] = item.split(';')
    let q = 1
    for (const param of params) {
      const [name, value] = param.split('=')
      if (name?.trim() === 'q') q = Number(value)
    }
    if (!(q > 0) || q > 1) continue
    const lang = tag.trim() === '*' ? undefined : matchLanguage(tag)
    // Equal weights keep the header's order (the first wins).
    if (lang && q > bestQ) {
      best = lang
      bestQ = q
    }
  }
  return best
}

/** An IANA time zone this runtime knows (what `?tz=` and the page settings accept). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export type Vars = Readonly<Record<string, string | number>>

export interface Words {
  lang: Language
  zone: string
  /** The sentence under `key`, with `{name}` places filled (plain text: the caller escapes). */
  t(key: string, vars?: Vars): string
  /** The form of `key` for `count` (`Intl.PluralRules`), with `{count}` written the language's way. */
  plural(key: string, count: number, vars?: Vars): string
  /** An instant in the page's (or visitor's) zone, the zone named. */
  dateTime(ms: number): string
  /** A calendar day (UTC days: uptime bars and the recent days are UTC days). */
  date(ms: number): string
  /** A month heading of the archive, in the zone. */
  month(ms: number): string
  /** A length of time (an outage, a budget): '2 h 5 min', '2 Std., 5 Min.'. */
  length(ms: number): string
  /** A percentage figure as the language writes it ('99.95', '99,95'). */
  number(value: number, fractionDigits?: number): string
}

const cache = new Map<string, Words>()

/** The words of one language and zone, built once per pair. */
export function words(lang: Language, zone = 'UTC'): Words {
  const key = `${lang} ${zone}`
  let found = cache.get(key)
  if (!found) {
    found = build(lang, zone)
    if (cache.size < 2_000) cache.set(key, found)
  }
  return found
}

function fill(template: string, vars: Vars | undefined): string {
  if (!vars) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))
}

function build(lang: Language, zone: string): Words {
  const file: LocaleFile = LOCALE_FILES[lang]
  const english: LocaleFile = LOCALE_FILES.en
  const entry = (key: string) => file[key] ?? english[key]
  const rules = new Intl.PluralRules(lang)
  const numbers = new Intl.NumberFormat(lang)
  // English keeps the house format ('27 Nov 2026, 14:05 UTC'); other languages their own.
  const dateTimeFormat = new Intl.DateTimeFormat(lang, { timeZone: zone, year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' })
  const dateFormat = new Intl.DateTimeFormat(lang, { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric' })
  const monthFormat = new Intl.DateTimeFormat(lang, { timeZone: zone, year: 'numeric', month: 'long' })
  const unit = (name: string) => new Intl.NumberFormat(lang, { style: 'unit', unit: name, unitDisplay: 'narrow' })
  const units = { day: unit('day'), hour: unit('hour'), minute: unit('minute'), second: unit('second') }
  const list = new Intl.ListFormat(lang, { style: 'narrow', type: 'unit' })
  const t = (key: string, vars?: Vars): string => {
    const value = entry(key)
    if (typeof value !== 'string') throw new Error(`no sentence "${key}" in the locales`)
    return fill(value, vars)
  }
  return {
    lang,
    zone,
    t,
    plural(key, count, vars) {
      const value = entry(key)
      if (typeof value !== 'object' || value === null) throw new Error(`no plural "${key}" in the locales`)
      const form = value[rules.select(count)] ?? value.other
      return fill(form ?? '', { ...vars, count: numbers.format(count) })
    },
    dateTime: lang === 'en' ? (ms) => formatDateTime(ms, zone) : (ms) => dateTimeFormat.format(ms),
    date: lang === 'en' ? (ms) => formatDate(ms) : (ms) => dateFormat.format(ms),
    month: lang === 'en' && zone === 'UTC' ? formatMonth : (ms) => monthFormat.format(ms),
    length: lang === 'en' ? formatLength : (ms) => {
      const seconds = Math.max(0, Math.round(ms / 1000))
      const d = Math.floor(seconds / 86_400)
      const h = Math.floor((seconds % 86_400) / 3600)
      const m = Math.floor((seconds % 3600) / 60)
      const s = seconds % 60
      const parts: string[] = []
      if (d > 0) parts.push(units.day.format(d))
      if (h > 0 && parts.length < 2) parts.push(units.hour.format(h))
      if (m > 0 && d === 0 && parts.length < 2) parts.push(units.minute.format(m))
      if (s > 0 && d === 0 && h === 0 && parts.length < 2) parts.push(units.second.format(s))
      return parts.length === 0 ? units.second.format(0) : list.format(parts)
    },
    number(value, fractionDigits) {
      if (fractionDigits === undefined) return numbers.format(value)
      return new Intl.NumberFormat(lang, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(value)
    },
  }
}
