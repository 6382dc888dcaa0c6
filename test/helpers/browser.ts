/**
 * Real headless Chromium (Debian's `chromium`, driven by playwright-core; no browser download).
 * One browser per test file: `const browser = await launchBrowser()` … `await browser.close()`.
 */
import { chromium, type Browser } from 'playwright-core'
import { existsSync } from 'node:fs'

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
