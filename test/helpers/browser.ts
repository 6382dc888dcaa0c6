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
 * Serious and critical accessibility problems axe-core finds on the page. axe is evaluated through
 * DevTools, not added as a page script, so it runs under the strictest Content-Security-Policy.
 */
export async function seriousAxeViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string }>> {
  await page.evaluate(AXE)
  const result = (await page.evaluate(async () => {
    const r = await (globalThis as any).axe.run(document, { resultTypes: ['violations'] })
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help }))
  })) as Array<{ id: string; impact: string; help: string }>
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}
