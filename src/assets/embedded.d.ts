/**
 * Types for files imported into the program (and so into the compiled binary), with an
 * import attribute that says how:
 *   import css from './site.css' with { type: 'text' }    // the file's text, a string
 *   import logo from './logo.png' with { type: 'file' }   // a path; read it with Bun.file(path)
 */
declare module '*.md' {
  const value: string
  export default value
}
declare module '*.css' {
  const value: string
  export default value
}
declare module '*.svg' {
  const value: string
  export default value
}
declare module '*.png' {
  const value: string
  export default value
}
declare module '*.ico' {
  const value: string
  export default value
}
declare module '*.woff2' {
  const value: string
  export default value
}
// Browser scripts shipped as text (never imported as modules by the server).
declare module '*/dashboard.js' {
  const value: string
  export default value
}
// The dashboard's formatters, imported as a module by the server, which writes the dashboard's
// first figures with them (src/web/analytics/views.ts); browsers get its text through a macro.
declare module '*/analytics/format.js' {
  export const DAY_MS: number
  export function pct(v: number | null | undefined): string
  export function num(v: number | null | undefined): string
  export function ms(v: number | null | undefined): string
  export function duration(s: number | null | undefined): string
  export function isoDate(msSinceEpoch: number): string
  export function rangeLabel(range: { key: string; from: string; to: string; days: number }): string
  export function utcTime(iso: string | null | undefined): string
  export function dayLabel(msSinceEpoch: number): string
  /** The report's summary as [label, text], in the order shown (the report's own fields, by name). */
  export function summaryFigures(report: {
    uptime_percent: number | null
    views: number
    unique_visitors: number
    incident_views: number
    incident_unique_visitors: number
    incidents: number
    downtime_s: number
    mttr_s: number | null
    mtbf_s: number | null
    avg_response_ms: number | null
    p95_response_ms: number | null
  }): Array<[label: string, text: string]>
}
declare module '*/analytics/scales.js' {
  const value: string
  export default value
}
declare module 'uplot/dist/uPlot.iife.min.js' {
  const value: string
  export default value
}
declare module '*/user/app.js' {
  const value: string
  export default value
}
declare module '*/api-docs/reference.js' {
  const value: string
  export default value
}
declare module '*/api-docs/start.js' {
  const value: string
  export default value
}
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const value: string
  export default value
}

declare module '*/user/branding.js' {
  const text: string
  export default text
}
declare module '*/user/when.js' {
  const text: string
  export default text
}

declare module '*/user/copy.js' {
  const text: string
  export default text
}

declare module '*/user/monitors.js' {
  const text: string
  export default text
}

declare module '*/user/passkeys.js' {
  const text: string
  export default text
}
