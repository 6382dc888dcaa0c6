/**
 * The live status widget, `<script src="…/static/embed/v1/status.js" data-slug="…">`.
 * Browser code: built by Bun.build into one minified file (see ../build.ts) served by Lantern.
 *
 * Attributes: data-slug, data-theme (auto | light | dark), data-show-incidents (0/1), data-rtm
 * (1–240 minutes), data-upd (1–30 days), data-poll-ms (poll interval, default 60000; for tests),
 * data-auth-token (the read-only embed token of a private page, sent as `auth_token`), data-lang
 * (the language of its words; default: the host page's `lang`, else the status page's language).
 * Renders next to its own script element inside a shadow root, polls the status API (paused while
 * the tab is hidden; backs off after errors), announces status changes politely, and never
 * throws into the host page. Its other words come with the status JSON; only "Status unavailable"
 * is built in, in each language, for a widget whose first request fails.
 */
import { DAY_LEVEL_TONES, dayLevelOfPercent, toneVariables } from '../../status-pipeline/colours.ts'
import { LANGUAGE_TAG } from '../../status-api/language-tag.ts'
import type { WidgetWords } from '../../status-api/widget-words.ts'
import { matchLanguage, type Language } from '../../../lib/language-match.ts'
import { failureWords } from '../failure-words.ts' with { type: 'macro' }

interface Status {
  page: string
  page_name?: string
  page_url: string
  overall: string
  incidents: Array<{ title: string; state: string; component: string | null }>
  rtm: Array<number | null>
  upd: Array<number | null>
  /** Present: the widget always sends `lang`. */
  language: string
  words: WidgetWords
}

const KNOWN = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance']
// Before any answer there are no words from the server, so the failure words of every language
// ship in the script (inlined from the translations at build time).
const UNAVAILABLE: Record<Language, string> = failureWords()
const SCRIPT_PATH = '/static/embed/v1/status.js'
const MOUNTED = 'data-lantern-mounted'

// Status colours: the one table of every public surface (status-pipeline/colours.ts), light and dark.
const DARK = `--bg:#0d1117;--fg:#e6edf3;--mu:#9198a1;--bd:#3d444d;${toneVariables('dark')}`
const TONES = ['operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance', 'unknown', 'no_data']
const STYLE = `:host{all:initial;display:block}
.w{--bg:#fff;--fg:#1f2328;--mu:#59636e;--bd:#d1d9e0;${toneVariables('light')};font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg);border:1px solid var(--bd);border-radius:8px;padding:10px 12px;max-width:360px;box-sizing:border-box}
.dark{${DARK}}
@media (prefers-color-scheme:dark){.auto{${DARK}}}
a{color:inherit;text-decoration:none;display:flex;align-items:center;gap:8px}
a:hover .n,a:focus-visible .n{text-decoration:underline}
.n{font-weight:600}
.d{width:10px;height:10px;border-radius:50%;flex:none}
${TONES.map((tone) => `.t-${tone}{background:var(--st-${tone})}`).join('')}
.m{color:var(--mu);font-size:12px}
ul{list-style:none;margin:8px 0 0;padding:0}
li{margin:4px 0;font-size:13px}
li b{font-weight:600;margin-right:4px}
.sp{margin:8px 0 0}
.g{display:flex;gap:6px;align-items:stretch}
.s{display:block;flex:1;min-width:0}
.ax{display:flex;flex-direction:column;justify-content:space-between;font-size:10px;line-height:1;color:var(--mu);text-align:right;white-space:nowrap}
.b{display:flex;gap:2px;margin-top:8px;height:16px}
.b span{flex:1;border-radius:2px;min-width:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...kids: Array<Node | string>) {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  node.append(...kids)
  return node
}

/** `{place}`s of a sentence filled. */
const fill = (text: string, vars: Record<string, string | number>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole))

/** The plural form of `forms` for `count` in `lang`, filled. */
const plural = (forms: Record<string, string>, lang: string, count: number) => fill(forms[new Intl.PluralRules(lang).select(count)] ?? forms.other ?? '', { count })

function intAttr(script: HTMLScriptElement, name: string, max: number): number {
  const n = Number(script.getAttribute(name))
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : 0
}

/**
 * Response times as a line over a scale from 0 ms (bottom) to the highest value (top), both
 * labelled beside it, and the figures (min, average, max) as text below for everyone.
 */
function sparkline(values: Array<number | null>, words: WidgetWords): HTMLElement | null {
  const known = values.filter((v): v is number => v !== null)
  if (known.length === 0) return null
  const ns = 'http://www.w3.org/2000/svg'
  const W = 200
  const H = 28
  const top = Math.max(Math.round(Math.max(...known)), 1)
  const step = values.length > 1 ? W / (values.length - 1) : 0
  const points = values
    .map((v, i) => (v === null ? '' : `${(i * step).toFixed(1)},${(H - 2 - (v / top) * (H - 4)).toFixed(1)}`))
    .filter(Boolean)
    .join(' ')
  const svg = document.createElementNS(ns, 'svg')
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`)
  svg.setAttribute('preserveAspectRatio', 'none')
  svg.setAttribute('height', String(H))
  svg.setAttribute('class', 's')
  svg.setAttribute('aria-hidden', 'true')
  const line = document.createElementNS(ns, 'polyline')
  line.setAttribute('points', known.length === 1 ? `0,${H / 2} ${W},${H / 2}` : points)
  line.setAttribute('fill', 'none')
  line.setAttribute('stroke', 'currentColor')
  line.setAttribute('stroke-width', '1.5')
  line.setAttribute('vector-effect', 'non-scaling-stroke')
  svg.append(line)
  const avg = Math.round(known.reduce((a, b) => a + b, 0) / known.length)
  const min = Math.round(Math.min(...known))
  const figure = el('figure', { class: 'sp' }, el('div', { class: 'g' }, svg, el('div', { class: 'ax', 'aria-hidden': 'true' }, el('span', {}, `${top} ms`), el('span', {}, '0 ms'))))
  figure.append(el('figcaption', { class: 'm' }, fill(words.response, { count: values.length, min, avg, max: top })))
  return figure
}

function bars(values: Array<number | null>, words: WidgetWords, lang: string): HTMLElement | null {
  if (values.length === 0) return null
  const box = el('div', { class: 'b', role: 'img', 'aria-label': plural(words.uptime, lang, values.length) })
  const percent = new Intl.NumberFormat(lang, { maximumFractionDigits: 3 })
  values.forEach((v, i) => {
    const ago = values.length - 1 - i
    const day = ago === 0 ? words.today : plural(words.days_ago, lang, ago)
    box.append(el('span', { class: `t-${DAY_LEVEL_TONES[dayLevelOfPercent(v)]}`, title: `${day}: ${v === null ? words.no_data : fill(words.percent, { percent: percent.format(v) })}` }))
  })
  return box
}

function mount(script: HTMLScriptElement): void {
  if (script.hasAttribute(MOUNTED)) return
  script.setAttribute(MOUNTED, '')
  const slug = script.getAttribute('data-slug') ?? ''
  const authToken = script.getAttribute('data-auth-token')
  // The words follow the page the widget sits in, unless told otherwise. A host's `en_US` is read as
  // en-US; a value that is no tag at all is sent empty (the API would refuse it): the page's words.
  const asked = (script.getAttribute('data-lang') || script.closest('[lang]')?.getAttribute('lang') || '').trim().replace(/_/g, '-')
  const lang = LANGUAGE_TAG.test(asked) ? asked : ''
  // Until the first answer, the words of the language the server would pick for `lang` (English
  // when it names none of ours: the status page's own is not known yet).
  const failureLang = matchLanguage(lang) ?? 'en'
  const theme = script.getAttribute('data-theme')
  const themeClass = theme === 'dark' || theme === 'light' ? theme : 'auto'
  const inc = script.getAttribute('data-show-incidents') === '1'
  const rtm = intAttr(script, 'data-rtm', 240)
  const upd = intAttr(script, 'data-upd', 30)
  const pollMs = Math.max(intAttr(script, 'data-poll-ms', 86_400_000) || 60_000, 100)
  const origin = new URL(script.src, location.href).origin

  const host = el('div', { class: 'lantern-status' })
  script.after(host)
  const root = host.attachShadow({ mode: 'open' })
  const box = el('div', { class: `w ${themeClass}`, part: 'widget' })
  const live = el('div', { class: 'sr', 'aria-live': 'polite', role: 'status' })
  root.append(el("style", {}, STYLE), box, live)

  let basicOnly = !(inc || rtm || upd)
  let lastOverall: string | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let polling = false
  let failures = 0
  let unavailableText = UNAVAILABLE[failureLang]

  const url = () => {
    const q = new URLSearchParams({ slug })
    if (authToken) q.set('auth_token', authToken)
    // Always sent, empty too: it asks for the words.
    q.set('lang', lang)
    if (!basicOnly) {
      if (inc) q.set('inc', '1')
      if (rtm) q.set('rtm', String(rtm))
      if (upd) q.set('upd', String(upd))
    }
    return `${origin}/api/embed/status?${q}`
  }

  const render = (data: Status) => {
    const { words } = data
    const known = KNOWN.includes(data.overall)
    const label = words.status[known ? data.overall : 'unknown'] ?? data.overall
    box.setAttribute('lang', data.language)
    live.setAttribute('lang', data.language)
    unavailableText = words.unavailable
    // The link names the page and its status: "Acme Cloud: Partial outage".
    const link = el(
      'a',
      { href: data.page_url, target: '_blank', rel: 'noopener' },
      el('span', { class: `d t-${known ? data.overall : 'unknown'}` }),
      el('span', {}, el('span', { class: 'n' }, data.page_name ?? data.page), ': ', el('span', { class: 'l' }, label)),
    )
    const parts: Node[] = [link]
    if (inc && data.incidents.length > 0) {
      parts.push(
        el('ul', { 'aria-label': words.incidents }, ...data.incidents.map((i) => el('li', {}, el('b', {}, words.state[i.state] ?? i.state), i.title, i.component ? el('span', { class: 'm' }, ` · ${i.component}`) : ''))),
      )
    }
    const spark = rtm ? sparkline(data.rtm, words) : null
    if (spark) parts.push(spark)
    const days = upd ? bars(data.upd, words, data.language) : null
    if (days) parts.push(days)
    box.replaceChildren(...parts)
    if (lastOverall !== undefined && lastOverall !== data.overall) live.textContent = fill(words.changed, { status: label })
    lastOverall = data.overall
  }

  const unavailable = () => {
    if (lastOverall === undefined) {
      box.setAttribute('lang', failureLang)
      live.setAttribute('lang', failureLang)
    }
    box.replaceChildren(el('span', { class: 'm' }, unavailableText))
    if (lastOverall !== undefined) live.textContent = unavailableText
    lastOverall = ''
  }

  const poll = async () => {
    timer = undefined
    polling = true
    try {
      let response = await fetch(url(), { cache: 'no-cache', credentials: 'omit' })
      if (response.status === 403 && !basicOnly) {
        // The plan has the widget but not incidents or sparklines: show the basic status.
        basicOnly = true
        response = await fetch(url(), { cache: 'no-cache', credentials: 'omit' })
      }
      if (!response.ok) throw new Error(String(response.status))
      render((await response.json()) as Status)
      failures = 0
    } catch {
      unavailable()
      failures++
    }
    polling = false
    // After errors, back off (doubling, at most 10 minutes) so a broken page is not hammered.
    if (!document.hidden) timer = setTimeout(poll, Math.max(pollMs, Math.min(pollMs * 2 ** failures, 600_000)))
  }

  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
    } else if (timer === undefined && !polling) {
      void poll()
    }
  })
  void poll()
}

try {
  const current = document.currentScript
  if (current instanceof HTMLScriptElement) mount(current)
  // Scripts inserted by other scripts have no currentScript: mount every tag not mounted yet.
  for (const script of document.querySelectorAll<HTMLScriptElement>(`script[data-slug][src*="${SCRIPT_PATH}"]:not([${MOUNTED}])`)) {
    mount(script)
  }
} catch {
  // Never throw into the host page.
}

