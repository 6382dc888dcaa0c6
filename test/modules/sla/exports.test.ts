import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'
import { createComponent, importHistory, slug } from '../analytics/helpers.ts'
import { csvCell, CSV_HEADER } from '../../../src/modules/sla/csv.ts'
import { winAnsi } from '../../../src/modules/sla/pdf.ts'
import { pdfText } from './helpers.ts'

let ctx: TestContext
let key: string
let pageId: number
let pageSlug: string
const NOVEMBER = '?from=2026-11-01&to=2026-11-30'

/** An RFC 4180 reader: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') (cell += '"'), i++
      else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') row.push(cell), (cell = '')
    else if (char === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++
    else cell += char
  }
  if (cell !== '' || row.length > 0) row.push(cell), rows.push(row)
  return rows
}

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 11, 1, 12, 0, 0) })
  ;({ key } = await ctx.createOwner('free'))
  const page = await ctx.createPage(key, { slug: slug('exp'), name: 'Exports' })
  pageId = page.id
  pageSlug = page.slug
  const api = await createComponent(ctx, key, pageId, 'API')
  const evil = await createComponent(ctx, key, pageId, '=cmd|"/c calc"!A1')
  await importHistory(ctx, key, api, [
    { status: 'up', at: '2026-10-20T00:00:00Z' },
    { status: 'down', at: '2026-11-10T10:00:00Z' },
    { status: 'up', at: '2026-11-10T10:43:12Z' },
  ])
  await importHistory(ctx, key, evil, [{ status: 'up', at: '2026-10-20T00:00:00Z' }])
  const put = await ctx.request(`/user/api/v1/components/${api}/sla-target`, { method: 'PUT', key, json: { target_percent: 99.9 } })
  expect(put.status).toBe(200)
})
afterAll(() => ctx.close())

describe('CSV', () => {
  test('one row per component per day, parses back, and formula cells are escaped', async () => {
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla.csv${NOVEMBER}`, { key })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="sla-${pageSlug}-2026-11-01-2026-11-30.csv"`)
    const rows = parseCsv(await response.text())
    expect(rows[0]).toEqual([...CSV_HEADER])
    expect(rows).toHaveLength(1 + 2 * 30)
    const day10 = rows.find((r) => r[0] === 'API' && r[1] === '2026-11-10')!
    expect(day10.slice(2, 9)).toEqual(['99.9000', '97.0000', String(86400 - 2592), '0', '2592', '0', 'minor'])
    expect(day10[9]).toContain('maintenance windows is excluded')
    const evil = rows.filter((r) => r[1] === '2026-11-01' && r[0] !== 'API')
    expect(evil).toHaveLength(1)
    expect(evil[0]![0]).toBe(`'=cmd|"/c calc"!A1`)
  })

  test('the cell rule: = + - @ TAB CR get an apostrophe; quotes and separators are quoted', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${lead}x`).replace(/^"/, '').startsWith(`'${lead}`)).toBe(true)
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('plain')).toBe('plain')
    expect(csvCell(-5)).toBe('-5')
    expect(csvCell(null)).toBe('')
  })
})

describe('PDF', () => {
  test('read back with pdftotext, it shows the figures, the policy and the lists', async () => {
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla.pdf${NOVEMBER}`, { key })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
    const text = pdfText(bytes)
    expect(text).toContain('SLA report: Exports')
    expect(text).toContain('1 Nov 2026 to 30 Nov 2026 (UTC days)')
    expect(text).toMatch(/API\s+99\.9000 %\s+99\.9000 %\s+yes\s+0:43:12\s+100\.00 %\s+0:00:00\s+1\s+0:43:12/)
    expect(text).toContain('=cmd|"/c calc"!A1')
    expect(text).toContain('Accounting policy')
    expect(text).toContain('Down time counts as down')
    expect(text).toContain('Incidents (0)')
    expect(text).toContain('Excluded maintenance (0)')
  })

  test('characters the standard fonts cannot draw become "?" instead of failing the report', () => {
    expect(winAnsi('Café – “ok” 🚀 数据\u0007')).toBe('Café – “ok” ? ?? ')
  })

  test('many components: ten per page', async () => {
    for (let i = 0; i < 12; i++) await createComponent(ctx, key, pageId, `Extra ${i}`)
    const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/sla.pdf${NOVEMBER}`, { key })
    const text = pdfText(new Uint8Array(await response.arrayBuffer()))
    // 14 components: two pages of figures, each with the header.
    expect(text.match(/SLA report: Exports/g)).toHaveLength(2)
    expect(text).toContain('Extra 11')
  })
})
