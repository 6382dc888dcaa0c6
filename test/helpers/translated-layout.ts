/**
 * What a visitor of a translated screen must see, checked in Chromium: the document in `lang`,
 * nothing wider than the viewport (elements matching `ignore` aside: hidden or off-screen helpers),
 * and no locale key or `{placeholder}` left in the title or the text.
 */
import { expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

const KEYS = Object.keys(JSON.parse(readFileSync(join(import.meta.dir, '../../src/content/locales/en.json'), 'utf8')) as Record<string, unknown>)

export async function expectTranslatedLayout(tab: Page, where: string, lang: string, ignore: string): Promise<void> {
  const seen = await tab.evaluate((ignored) => {
    const view = document.documentElement.clientWidth
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => !el.closest(ignored))
      .filter((el) => { const box = el.getBoundingClientRect(); return box.width > 0 && box.right > view + 1 })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
    return { lang: document.documentElement.lang, overflow: document.documentElement.scrollWidth - view, wide, text: document.body.innerText, title: document.title }
  }, ignore)
  expect({ where, lang: seen.lang }).toEqual({ where, lang })
  expect({ where, overflow: Math.max(0, seen.overflow), wide: seen.wide.slice(0, 5) }).toEqual({ where, overflow: 0, wide: [] })
  const shown = `${seen.title}\n${seen.text}`
  expect({ where, keys: KEYS.filter((key) => shown.includes(key)) }).toEqual({ where, keys: [] })
  expect({ where, places: shown.match(/\{\w+\}/g) ?? [] }).toEqual({ where, places: [] })
}
