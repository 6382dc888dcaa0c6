/** json: an http request whose answer must meet every condition (conditions.ts), e.g. `[BODY].status == up`. */
import { httpSpec, runHttpCheck, validateHttpSpec } from './http.ts'
import type { MonitorKind } from './kind.ts'
import type { HttpSpec } from './spec.ts'

export const jsonKind: MonitorKind<HttpSpec> = { type: 'json', toSpec: httpSpec, validate: validateHttpSpec, run: runHttpCheck, probeable: true }
