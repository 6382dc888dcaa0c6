/**
 * An import from a file sent through the web app (the Import screen), on the same readers and
 * mappings as `lantern import`: the size is bounded (413 past it), a Kuma database must start as an
 * SQLite file does, and it is written to a private temporary folder only while it is read (opened
 * read-only), then removed, also when reading fails. Errors name the file as the person chose it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { badRequest, HttpError } from '../../lib/errors.ts'
import { readKumaDatabase } from './kuma-read.ts'
import { planFromKuma } from './kuma-map.ts'
import { parseGatusConfig } from './gatus-read.ts'
import { planFromGatus } from './gatus-map.ts'
import { GATUS_UPLOAD_MAX_BYTES, KUMA_UPLOAD_MAX_BYTES, type ImportPlan } from './types.ts'

/** The 16 bytes every SQLite 3 database file starts with. */
const SQLITE_HEADER = new TextEncoder().encode('SQLite format 3\u0000')

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`

function bounded(bytes: Uint8Array, max: number, name: string, what: string): void {
  if (bytes.byteLength === 0) throw badRequest(`${name} is empty: choose ${what}`)
  if (bytes.byteLength > max) throw new HttpError(413, `${name} is larger than ${megabytes(max)}, the most the Import screen takes for ${what} (the command line, lantern import, takes any size)`)
}

/** Where the temporary copies go: the system's temporary folder (tests may point elsewhere). */
export interface UploadOptions {
  tempRoot?: string
}

/** The plan of an uploaded Uptime Kuma database (kuma.db). */
export async function kumaPlanFromUpload(bytes: Uint8Array, name: string, options: UploadOptions = {}): Promise<ImportPlan> {
  bounded(bytes, KUMA_UPLOAD_MAX_BYTES, name, 'an Uptime Kuma database')
  if (bytes.byteLength < SQLITE_HEADER.length || SQLITE_HEADER.some((byte, i) => bytes[i] !== byte)) {
    throw badRequest(`${name} is not an SQLite database (Uptime Kuma keeps its data in kuma.db, in its data folder)`)
  }
  const folder = await mkdtemp(join(options.tempRoot ?? tmpdir(), 'lantern-import-'))
  try {
    const path = join(folder, 'kuma.db')
    await writeFile(path, bytes, { mode: 0o600 })
    return planFromKuma(readKumaDatabase(path, name))
  } finally {
    // The copy, and any journal files SQLite made beside it.
    await rm(folder, { recursive: true, force: true })
  }
}

/** The plan of an uploaded Gatus configuration (config.yaml). */
export function gatusPlanFromUpload(bytes: Uint8Array, name: string): ImportPlan {
  bounded(bytes, GATUS_UPLOAD_MAX_BYTES, name, 'a Gatus configuration')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw badRequest(`${name} is not a Gatus configuration (not UTF-8 text)`)
  }
  return planFromGatus(parseGatusConfig(text, name))
}
