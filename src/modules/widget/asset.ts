/** The built widget script, inlined at transpile/bundle time by the macro (see build.ts). */
import { buildWidget } from './build.ts' with { type: 'macro' }

export const WIDGET_JS: string = buildWidget()
