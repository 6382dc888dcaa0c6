/**
 * A short, human summary of a User-Agent ("Firefox on Windows"), stored with a login session so
 * the owner can tell sessions apart. The raw header is never stored: it is long, identifying and
 * says nothing more the owner needs. Unknown browsers are "Unknown browser".
 */

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bHeadlessChrome\//, 'Headless Chrome'],
  [/\bChrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
]

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
]

export function summarizeUserAgent(raw: string | null | undefined): string | null {
  if (!raw) return null
  const header = raw.slice(0, 1000)
  const browser = BROWSERS.find(([pattern]) => pattern.test(header))?.[1] ?? 'Unknown browser'
  const system = SYSTEMS.find(([pattern]) => pattern.test(header))?.[1]
  return system ? `${browser} on ${system}` : browser
}
