/** Reads a Gatus configuration file: YAML through Bun's own parser; a file that is not YAML is a clear error. */
import { badRequest } from '../../lib/errors.ts'

export async function readGatusConfig(path: string): Promise<unknown> {
  const file = Bun.file(path)
  if (!(await file.exists())) throw badRequest(`cannot read ${path}: no such file`)
  return parseGatusConfig(await file.text(), path)
}

/** The configuration from its text; `name` is how errors call the file. */
export function parseGatusConfig(text: string, name: string): unknown {
  if (text.includes('\u0000')) throw badRequest(`${name} is not a Gatus configuration (a binary file)`)
  try {
    return Bun.YAML.parse(text)
  } catch (error) {
    throw badRequest(`${name} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
}
