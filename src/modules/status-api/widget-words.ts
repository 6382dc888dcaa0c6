/**
 * The words the live widget shows, in one language, carried by the status JSON (`words`): the
 * widget then needs no table of its own and speaks the page's language, or the one it asked for
 * with `lang`. Sentences keep their `{place}`s for the figures the widget computes; the day labels
 * keep their plural forms, picked in the browser with `Intl.PluralRules`. Pure.
 */
import { words, type Language } from '../../lib/i18n.ts'
import { LOCALE_FILES } from '../../content/locales/index.ts'
import { INCIDENT_STATES } from '../incidents/states.ts'
import { DISPLAY_STATUSES } from '../status-pipeline/status.ts'

export interface WidgetWords {
  /** Each status, and `unknown`. */
  status: Record<string, string>
  /** Each incident state. */
  state: Record<string, string>
  incidents: string
  /** `{status}`: the new status's word. */
  changed: string
  unavailable: string
  /** `{count}` minutes, `{min}`, `{avg}`, `{max}` ms. */
  response: string
  /** Plural forms with `{count}` days (`one`, `other`, … as `Intl.PluralRules` names them). */
  uptime: Record<string, string>
  today: string
  /** Plural forms with `{count}` days. */
  days_ago: Record<string, string>
  no_data: string
  /** `{percent}`: a day's uptime. */
  percent: string
}

const forms = (lang: Language, key: string): Record<string, string> => {
  const value = LOCALE_FILES[lang][key] ?? LOCALE_FILES.en[key]
  return typeof value === 'object' ? { ...value } as Record<string, string> : { other: String(value) }
}

const built = new Map<Language, WidgetWords>()

/** The widget's words in `lang`, built once per language. */
export function widgetWords(lang: Language): WidgetWords {
  let found = built.get(lang)
  if (!found) {
    const w = words(lang)
    found = {
      status: Object.fromEntries([...DISPLAY_STATUSES, 'unknown'].map((s) => [s, w.t(`status.${s}`)])),
      state: Object.fromEntries(INCIDENT_STATES.map((s) => [s, w.t(`state.${s}`)])),
      incidents: w.t('page.active_incidents'),
      changed: w.t('widget.changed'),
      unavailable: w.t('widget.unavailable'),
      response: w.t('widget.response'),
      uptime: forms(lang, 'widget.uptime'),
      today: w.t('uptime.today'),
      days_ago: forms(lang, 'uptime.days_ago'),
      no_data: w.t('uptime.no_data'),
      percent: w.t('uptime.percent'),
    }
    built.set(lang, found)
  }
  return found
}
