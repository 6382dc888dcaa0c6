/**
 * The translation files of the public side (src/content/locales/*.json): every language has every
 * sentence English has and no other, with the same `{places}`, and each plural has the forms its
 * language's `Intl.PluralRules` asks for. A contributor who adds a key to en.json learns here which
 * files still need it.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LANGUAGES, words } from '../../src/lib/i18n.ts'

const DIR = join(import.meta.dir, '../../src/content/locales')
type Entry = string | Record<string, string>
const read = (lang: string): Record<string, Entry> => JSON.parse(readFileSync(join(DIR, `${lang}.json`), 'utf8'))
const english = read('en')
const places = (entry: Entry): string[] => [...new Set((typeof entry === 'string' ? entry : Object.values(entry).join(' ')).match(/\{\w+\}/g) ?? [])].sort()

test('there is one file per language of LANGUAGES, and no other', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort()
  expect(files).toEqual([...LANGUAGES].sort())
})

describe.each([...LANGUAGES])('%s.json', (lang) => {
  const file = read(lang)

  test('has every key of en.json and no extra key', () => {
    expect(Object.keys(file).filter((k) => !(k in english))).toEqual([])
    expect(Object.keys(english).filter((k) => !(k in file))).toEqual([])
  })

  test('each sentence is filled, of the same kind as English, with the same {places}', () => {
    for (const [key, entry] of Object.entries(english)) {
      const theirs = file[key]
      if (theirs === undefined) continue
      expect({ key, kind: typeof theirs }).toEqual({ key, kind: typeof entry })
      expect({ key, places: places(theirs) }).toEqual({ key, places: places(entry) })
      const texts = typeof theirs === 'string' ? [theirs] : Object.values(theirs)
      // list.separator is the one entry that may be punctuation only.
      for (const text of texts) expect({ key, empty: key === 'list.separator' ? text.length === 0 : text.trim().length === 0 }).toEqual({ key, empty: false })
    }
  })

  test("each plural has the forms Intl.PluralRules names for the language, and no others", () => {
    const categories = [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort()
    for (const [key, entry] of Object.entries(file)) {
      if (typeof entry === 'string') continue
      expect({ key, forms: Object.keys(entry).sort() }).toEqual({ key, forms: categories })
    }
  })

  test('every sentence can be said (words() finds each key)', () => {
    const w = words(lang)
    for (const [key, entry] of Object.entries(english)) {
      if (typeof entry === 'string') expect(w.t(key)).toBe(String(file[key]))
      else for (const n of [0, 1, 2, 5, 21, 90]) expect(w.plural(key, n)).not.toContain('{count}')
    }
  })
})
