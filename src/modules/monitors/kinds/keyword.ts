/** keyword: an http request whose body must contain (or must not contain) a text. */
import { httpSpec, runHttpCheck, validateHttpSpec } from './http.ts'
import type { MonitorKind } from './kind.ts'
import type { HttpSpec } from './spec.ts'

export const keywordKind: MonitorKind<HttpSpec> = { type: 'keyword', toSpec: httpSpec, validate: validateHttpSpec, run: runHttpCheck, probeable: true }
