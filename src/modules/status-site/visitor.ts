/**
 * The language and time zone one visitor reads a status host's pages in (pure): `?lang=` when it
 * names one of ours, else the best of `Accept-Language`, else the page's default; `?tz=` when it is
 * a zone we know, else the page's zone. A bad `?lang=` or `?tz=` is ignored, never an error. The
 * routes and the fast lane both ask this, so the cache key and the answer can never disagree.
 */
import { isLanguage, isTimeZone, negotiateLanguage, type Language } from '../../lib/i18n.ts'

export interface VisitorChoice {
  lang: Language
  zone: string
  /** The language the visitor picked with `?lang=` (its links keep it), or undefined. */
  pickedLang: Language | undefined
  /** The zone the visitor picked with `?tz=` (its links keep it), or undefined. */
  pickedZone: string | undefined
  /** The page's own zone (the footer offers to go back to it). */
  pageZone: string
}

export interface PageDefaults {
  language: string
  timeZone: string
}

/** Browsers send few distinct headers: each is parsed once (bounded, cleared when full). */
const negotiated = new Map<string, Language | null>()

function fromHeader(header: string | null): Language | undefined {
  if (!header) return undefined
  let found = negotiated.get(header)
  if (found === undefined) {
    found = negotiateLanguage(header) ?? null
    if (negotiated.size >= 500) negotiated.clear()
    negotiated.set(header, found)
  }
  return found ?? undefined
}

/** `query`: what follows `?` in the URL (or ''); `acceptLanguage`: the visitor's header. */
export function visitorChoice(query: string, acceptLanguage: string | null, page: PageDefaults): VisitorChoice {
  const params = query === '' ? undefined : new URLSearchParams(query)
  const askedLang = params?.get('lang') ?? undefined
  const askedZone = params?.get('tz') ?? undefined
  const pickedLang = isLanguage(askedLang) ? askedLang : undefined
  const canonical = askedZone !== undefined && isTimeZone(askedZone) ? canonicalZone(askedZone) : undefined
  const pickedZone = canonical === page.timeZone ? undefined : canonical
  const fallback = isLanguage(page.language) ? page.language : 'en'
  return {
    lang: pickedLang ?? fromHeader(acceptLanguage) ?? fallback,
    zone: pickedZone ?? page.timeZone,
    pickedLang,
    pickedZone,
    pageZone: page.timeZone,
  }
}

/** The zone as IANA spells it ('europe/berlin' → 'Europe/Berlin'), so one zone is one cache entry. */
const canonicalZone = (zone: string): string => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone

/** The part of a cache key that tells one visitor's answer from another's. */
export const choiceKey = (choice: VisitorChoice): string => `${choice.lang}:${choice.pickedLang ? 1 : 0}:${choice.zone}:${choice.pickedZone ? 1 : 0}`
