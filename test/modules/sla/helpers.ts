import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Writes a PDF to a temp file and reads its text back with poppler's pdftotext (-layout keeps table rows on one line). */
export function pdfText(bytes: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'lantern-pdf-'))
  try {
    const file = join(dir, 'report.pdf')
    writeFileSync(file, bytes)
    const result = Bun.spawnSync(['pdftotext', '-layout', file, '-'])
    if (result.exitCode !== 0) throw new Error(`pdftotext failed: ${result.stderr.toString()}`)
    return result.stdout.toString()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
