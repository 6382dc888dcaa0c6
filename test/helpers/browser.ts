/**
 * Real headless Chromium (Debian's `chromium`, driven by playwright-core; no browser download).
 * One browser per test file: `const browser = await launchBrowser()` … `await browser.close()`.
 */
import { chromium, type Browser, type Page } from 'playwright-core'
import { existsSync, readFileSync } from 'node:fs'

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[]

export function chromiumPath(): string {
  const found = CANDIDATES.find((path) => existsSync(path))
  if (!found) throw new Error('Chromium not found: install Debian\'s "chromium" package (CI does) or set CHROMIUM_PATH')
  return found
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    // The machine has no network beyond loopback: keep Chromium from calling home.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * Serious and critical accessibility problems axe-core finds on the page (all its rules, or only
 * `rules`). axe is evaluated through DevTools, not added as a page script, so it runs under the
 * strictest Content-Security-Policy.
 */
export async function seriousAxeViolations(page: Page, rules?: string[]): Promise<Array<{ id: string; impact: string; help: string }>> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE)
  const result = (await page.evaluate(async (only) => {
    const options: Record<string, unknown> = { resultTypes: ['violations'] }
    if (only) options.runOnly = { type: 'rule', values: only }
    const r = await (globalThis as any).axe.run(document, options)
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help }))
  }, rules ?? null)) as Array<{ id: string; impact: string; help: string }>
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

export interface BrokenWord {
  /** The element whose text is cut, as `tag.class` with its text. */
  where: string
  word: string
}

/**
 * Words that a line break cuts in two ("Dow/n", "RS/S") in table cells, headings, navigation,
 * buttons, labels and badges. Long values may wrap anywhere: text inside `code`, `pre`, `kbd`,
 * `samp` or an element of class `long-value` (keys, tokens) is not checked, nor text that is
 * visually hidden (in a clipping box of at most 1 px). A word is a word-like segment of `Intl.Segmenter`; it is cut when its
 * characters lie on more than one line, unless the run without spaces around it is wider than the
 * element (it cannot fit whole on any line).
 */
export async function wordsBrokenMidWord(page: Page): Promise<BrokenWord[]> {
  return page.evaluate(() => {
    const CHECKED = 'th, td, h1, h2, h3, h4, h5, h6, nav a, header a, button, label, legend, .badge, dt, summary'
    const EXEMPT = 'code, pre, kbd, samp, .long-value'
    // Visually hidden: inside a box of at most 1 px that clips its content (screen-reader text, a honeypot).
    const hidden = (element: Element) => {
      for (let at: Element | null = element; at; at = at.parentElement) {
        if ((at.clientWidth <= 1 || at.clientHeight <= 1) && getComputedStyle(at).overflow !== 'visible') return true
      }
      return false
    }
    const segmenter = new Intl.Segmenter('en', { granularity: 'word' })
    const found: Array<{ where: string; word: string }> = []
    const seen = new Set<Text>()
    for (const element of Array.from(document.querySelectorAll(CHECKED))) {
      if (element.closest(EXEMPT) || hidden(element)) continue
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        if (seen.has(node) || !node.parentElement || node.parentElement.closest(EXEMPT) || hidden(node.parentElement)) continue
        seen.add(node)
        for (const segment of segmenter.segment(node.data)) {
          if (!segment.isWordLike || segment.segment.length < 2) continue
          const range = document.createRange()
          range.setStart(node, segment.index)
          range.setEnd(node, segment.index + segment.segment.length)
          const rects = Array.from(range.getClientRects()).filter((rect) => rect.width > 0 && rect.height > 0)
          if (rects.length < 2) continue
          const first = rects[0]!
          if (rects.some((rect) => Math.abs(rect.top - first.top) > first.height / 2)) {
            // A run without spaces wider than the element cannot fit whole anywhere: it may break.
            const start = node.data.slice(0, segment.index).search(/\S*$/)
            const end = segment.index + node.data.slice(segment.index).search(/\s|$/)
            const run = document.createRange()
            run.setStart(node, start)
            run.setEnd(node, end)
            const runWidth = Array.from(run.getClientRects()).reduce((sum, rect) => sum + rect.width, 0)
            if (runWidth > element.getBoundingClientRect().width) continue
            const tag = element.tagName.toLowerCase()
            const cls = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''
            found.push({ where: `${tag}${cls} "${(element.textContent ?? '').trim().slice(0, 60)}"`, word: segment.segment })
          }
        }
      }
    }
    return found
  })
}

/** Images that failed to load (an error answer, or blocked by the browser, e.g. by CORP). */
export async function brokenImages(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.images)
      .filter((img) => img.complete && img.naturalWidth === 0 && img.getAttribute('src'))
      .map((img) => img.currentSrc || img.src),
  )
}

/**
 * Collects what the browser reports as errors on `page` from now on: uncaught exceptions and
 * console errors (a failed sub-resource, such as a missing /favicon.ico, is one).
 */
export function watchErrors(page: Page): { take(): string[] } {
  let errors: string[] = []
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`)
  })
  return {
    take() {
      const taken = errors
      errors = []
      return taken
    },
  }
}

/**
 * Sends a (synthetic, so nothing is posted) submit event to every POST form on the page, as a click
 * on its button would: the web app's script must handle each without an error and mark the form's
 * submit buttons `aria-disabled` (its guard against a double post). Returns the forms it did not guard.
 */
export async function unguardedForms(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const missed: string[] = []
    for (const form of Array.from(document.querySelectorAll('form'))) {
      if ((form.getAttribute('method') ?? '').toLowerCase() !== 'post') continue
      const buttons = Array.from(form.querySelectorAll('button[type=submit]'))
      if (buttons.length === 0) continue
      form.dispatchEvent(new SubmitEvent('submit', { bubbles: true, cancelable: true }))
      if (buttons.some((button) => button.getAttribute('aria-disabled') !== 'true')) missed.push(form.getAttribute('action') ?? '(no action)')
    }
    return missed
  })
}
