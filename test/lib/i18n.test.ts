/** The public side's words (src/lib/i18n.ts): Accept-Language weights, plural forms from Intl.PluralRules, lengths and numbers per language. */
import { expect, test } from 'bun:test'
import { matchLanguage, negotiateLanguage, words } from '../../src/lib/i18n.ts'

test('Accept-Language: the highest weight we have wins, ties keep the header order, regions fall back to the language', () => {
  expect(negotiateLanguage('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7')).toBe('fr')
  expect(negotiateLanguage('ko, ja;q=0.3, es;q=0.4')).toBe('es')
  expect(negotiateLanguage('de, ja')).toBe('de')
  expect(negotiateLanguage('pt-PT')).toBe('pt-BR')
  expect(negotiateLanguage('PT-br')).toBe('pt-BR')
  for (const header of ['', '*', 'ko', 'de;q=0', 'de;q=1.5', 'de;q=abc', ';;;', null, undefined]) expect(negotiateLanguage(header)).toBeUndefined()
  expect(matchLanguage('ja-JP')).toBe('ja')
})

test('plurals follow each language\'s rules (Intl.PluralRules): French says "0 jour", English "0 days"', () => {
  expect(words('en').plural('uptime.days_ago', 1)).toBe('1 day ago')
  expect(words('en').plural('uptime.days_ago', 0)).toBe('0 days ago')
  expect(words('fr').plural('uptime.days_ago', 0)).toBe('il y a 0 jour')
  expect(words('fr').plural('uptime.days_ago', 2)).toBe('il y a 2 jours')
  expect(words('de').plural('uptime.days_ago', 1)).toBe('vor 1 Tag')
  expect(words('de').plural('uptime.days_ago', 1000)).toBe('vor 1.000 Tagen')
  expect(words('ja').plural('uptime.days_ago', 1)).toBe('1 日前')
})

test('instants name their zone, lengths and figures are written the language\'s way', () => {
  const at = Date.UTC(2026, 6, 1, 9, 30) // summer: Berlin is on CEST
  expect(words('de', 'Europe/Berlin').dateTime(at)).toBe('1. Juli 2026, 11:30 MESZ')
  expect(words('en', 'America/New_York').dateTime(at)).toBe('1 Jul 2026, 05:30 EDT')
  expect(words('ja', 'Asia/Tokyo').dateTime(at)).toBe('2026年7月1日 18:30 JST')
  expect(words('en').length(2 * 3_600_000 + 5 * 60_000)).toBe('2 h 5 min')
  expect(words('de').number(99.95, 2)).toBe('99,95')
})
