/** Types for the two mailauth modules imported directly that ship no declarations of their own. */
declare module 'mailauth/lib/dmarc/get-dmarc-record.js' {
  type Resolve = (name: string, type: string) => Promise<unknown[]>
  export interface DmarcRecord {
    v?: string
    p?: string
    sp?: string
    np?: string
    rua?: string
    ruf?: string
    pct?: number
    rr: string
    isOrgRecord: boolean
    recordDomain: string
    orgDomain: string | null
    [tag: string]: unknown
  }
  function getDmarcRecord(domain: string, resolver: Resolve, opts?: { strict?: boolean }): Promise<DmarcRecord | false>
  export default getDmarcRecord
}

declare module 'mailauth/lib/tools.js' {
  type Resolve = (name: string, type: string) => Promise<unknown[]>
  export function getPublicKey(
    type: string,
    name: string,
    minBitLength: number,
    resolver: Resolve,
    options?: { strict?: boolean },
  ): Promise<{ publicKey: string; rr: string; modulusLength?: number; keyType: string; flags: string[]; testing: boolean; warnings: string[] }>
}
