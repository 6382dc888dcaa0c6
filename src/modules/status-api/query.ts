/**
 * The query of `GET /api/embed/status`, read from the raw URL so repeated parameters are caught.
 * Out-of-range or malformed values are refused with a message naming the parameter. Pure.
 */
import { matchLanguage, type Language } from '../../lib/i18n.ts'
import { queryParams } from '../../lib/query.ts'
import { LANGUAGE_TAG } from './language-tag.ts'

export interface StatusQuery {
  slug: string
  /** Include active incidents. */
  inc: boolean
  /** Minutes of response times (0 = not asked). */
  rtm: number
  /** Days of daily uptime (0 = not asked). */
  upd: number
  /** `lang` was given: the answer carries the widget's words (other readers are spared their bytes). */
  words: boolean
  /** The language of `words`: the best of ours for the `lang` asked; undefined: the page's default. */
  lang: Language | undefined
}

export const MAX_RTM = 240
export const MAX_UPD = 30

const NONE: readonly string[] = []

function intParam(values: readonly string[], name: string, max: number, unit: string): number | string {
  if (values.length === 0) return 0
  if (values.length > 1) return `${name} must be given only once`
  const raw = values[0]!
  const message = `${name} must be an integer from 1 to ${max} (${unit})`
  if (!/^\d{1,4}$/.test(raw)) return message
  const value = Number(raw)
  return value >= 1 && value <= max ? value : message
}

/** The status query of a request URL (its parameters read in one pass), or the 400 text. */
export function parseStatusQuery(url: string, params: ReadonlyMap<string, readonly string[]> = queryParams(url)): StatusQuery | { error: string } {
  const slugs = params.get('slug') ?? NONE
  if (slugs.length > 1) return { error: 'slug must be given only once' }
  const slug = slugs[0]
  if (slug === undefined || slug === '') return { error: 'missing slug' }
  const incValues = params.get('inc') ?? NONE
  if (incValues.length > 1) return { error: 'inc must be given only once' }
  const incRaw = incValues[0]
  if (incRaw !== undefined && incRaw !== '0' && incRaw !== '1') return { error: 'inc must be 0 or 1' }
  const rtm = intParam(params.get('rtm') ?? NONE, 'rtm', MAX_RTM, 'minutes')
  if (typeof rtm === 'string') return { error: rtm }
  const upd = intParam(params.get('upd') ?? NONE, 'upd', MAX_UPD, 'days')
  if (typeof upd === 'string') return { error: upd }
  const langs = params.get('lang') ?? NONE
  if (langs.length > 1) return { error: 'lang must be given only once' }
  const langRaw = langs[0]
  if (langRaw !== undefined && langRaw !== '' && !LANGUAGE_TAG.test(langRaw)) return { error: 'lang must be a language tag such as de or pt-BR' }
  // A well-formed tag we have no words for (the host page's `ko`) is the page's default, not an error.
  return { slug, inc: incRaw === '1', rtm, upd, words: langRaw !== undefined, lang: langRaw ? matchLanguage(langRaw) : undefined }
}
