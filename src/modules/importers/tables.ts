/** Source object → the Lantern row an import made of it, per account (imports run twice change nothing). */
export interface ImportMappingsTable {
  owner_id: number
  /** `uptime-kuma`, `gatus`. */
  source: string
  /** The object in the source, e.g. `monitor:7`, `page:1:group:2:monitor:5`. */
  source_key: string
  /** What it became: monitor, channel, page, component, maintenance. */
  kind: string
  lantern_id: number
  created_at: number
}
