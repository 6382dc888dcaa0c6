/**
 * The SSL monitor's verdict from what a handshake showed (pure; ssl-check.ts gathers the facts).
 *
 * Thresholds (documented in src/content/docs/monitors.md, "SSL monitors"):
 * - fail: expired or not yet valid (by the injected clock); fewer than `failBelowDays` (3) left;
 *   the host is not in the certificate's names; not trusted (an incomplete chain included);
 *   an RSA/DSA key under 2048 bits or an EC key under 256 bits; an MD5 or SHA-1 signature.
 * - warning: fewer than `warnBelowDays` (14) left; TLS 1.0 / 1.1 (deprecated by RFC 8996).
 * - pass otherwise.
 */
import { counted } from '../../../lib/words.ts'
import { formatDate } from '../../../lib/human-time.ts'
import { explainCertificateError } from '../../../lib/network-errors.ts'
import { DAY_MS } from '../../../lib/time.ts'
import { DEFAULTS, type SslReport, type Verdict } from './spec.ts'

export interface ChainLink {
  subject: string
  issuer: string
  validTo: string
  selfIssued: boolean
}

/** What one handshake showed, in plain values. */
export interface HandshakeFacts {
  protocol: string
  /** node:tls's verdict against the trust store: null when trusted. */
  authorizationError: string | null
  subject: string
  issuer: string
  validFrom: number
  validTo: number
  sans: string[]
  hostCovered: boolean
  keyType: string
  keyBits: number | null
  curve: string | null
  signatureAlgorithm: string
  fingerprint256: string
  /** Leaf first, up to the root when the peer's chain reaches one. */
  chain: ChainLink[]
  /** The stapled OCSP response when the runtime hands one over; null when it does not. */
  ocspResponse: Uint8Array | null
}

export interface SslAssessment {
  host: string
  port: number
  starttls: boolean
  now: number
  warnBelowDays?: number
  failBelowDays?: number
}

/** Errors about the name or the dates: judged on their own (the dates by the injected clock), not as trust. */
const NOT_TRUST_ERRORS = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'])
/** Errors meaning "the issuer's certificate is not at hand": the chain stops short. */
const MISSING_ISSUER_ERRORS = new Set(['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'])
const DEPRECATED_PROTOCOLS = new Set(['SSLv3', 'TLSv1', 'TLSv1.1'])

export const OCSP_UNAVAILABLE_NOTE =
  "unavailable: Bun's node:tls does not hand the stapled OCSP response to the client (requestOCSP yields nothing on Bun 1.4.5), so stapling cannot be judged here; this says nothing against the server"

export function assessSsl(facts: HandshakeFacts, options: SslAssessment): SslReport {
  const fails: string[] = []
  const warnings: string[] = []
  const daysLeft = Math.floor((facts.validTo - options.now) / DAY_MS)
  const failBelow = options.failBelowDays ?? DEFAULTS.tlsFailBelowDays
  const warnBelow = options.warnBelowDays ?? DEFAULTS.tlsDegradedBelowDays

  if (options.now >= facts.validTo) fails.push(`certificate expired on ${formatDate(facts.validTo)}`)
  else if (options.now < facts.validFrom) fails.push(`certificate is not valid before ${formatDate(facts.validFrom)}`)
  else if (daysLeft < failBelow) fails.push(`certificate expires in ${counted(daysLeft, 'day')} (fails under ${failBelow})`)
  else if (daysLeft < warnBelow) warnings.push(`certificate expires in ${counted(daysLeft, 'day')} (warning under ${warnBelow})`)

  if (!facts.hostCovered) fails.push(`certificate does not cover ${options.host} (it names ${facts.sans.slice(0, 5).join(', ') || 'nothing'})`)

  const trustError = facts.authorizationError !== null && !NOT_TRUST_ERRORS.has(facts.authorizationError) ? facts.authorizationError : null
  const last = facts.chain.at(-1)
  const chainComplete = last?.selfIssued === true
  if (trustError) {
    if (!chainComplete && MISSING_ISSUER_ERRORS.has(trustError) && last) {
      fails.push(`not trusted: the chain stops at "${last.subject}"; the certificate of its issuer "${last.issuer}" is neither sent by the server nor a trusted root (${trustError})`)
    } else fails.push(explainCertificateError(trustError))
  }

  const weakKey = keyWeakness(facts)
  if (weakKey) fails.push(weakKey)
  if (/md5|sha1(?!\d)/i.test(facts.signatureAlgorithm)) fails.push(`weak signature algorithm ${facts.signatureAlgorithm}`)
  if (DEPRECATED_PROTOCOLS.has(facts.protocol)) warnings.push(`${facts.protocol} is deprecated (RFC 8996)`)

  const verdict: Verdict = fails.length > 0 ? 'fail' : warnings.length > 0 ? 'warning' : 'pass'
  return {
    kind: 'ssl',
    verdict,
    reasons: [...fails, ...warnings],
    host: options.host,
    port: options.port,
    starttls: options.starttls,
    protocol: facts.protocol,
    subject: facts.subject,
    issuer: facts.issuer,
    validFrom: new Date(facts.validFrom).toISOString(),
    validTo: new Date(facts.validTo).toISOString(),
    daysLeft,
    sans: facts.sans,
    hostCovered: facts.hostCovered,
    trusted: trustError === null,
    trustError,
    keyType: facts.keyType,
    keyBits: facts.keyBits,
    curve: facts.curve,
    signatureAlgorithm: facts.signatureAlgorithm,
    fingerprint256: facts.fingerprint256,
    chain: {
      complete: chainComplete,
      certificates: facts.chain.map(({ subject, issuer, validTo }) => ({ subject, issuer, validTo })),
      note: chainComplete
        ? `${counted(facts.chain.length, 'certificate')} up to the root "${last?.subject}"`
        : `the chain stops at "${last?.subject ?? facts.subject}": the server does not send the certificate of "${last?.issuer ?? facts.issuer}"`,
    },
    ocsp: facts.ocspResponse && facts.ocspResponse.byteLength > 0
      ? { status: 'stapled', note: `a stapled OCSP response of ${facts.ocspResponse.byteLength} bytes was received (its content is not verified)` }
      : { status: 'unavailable', note: OCSP_UNAVAILABLE_NOTE },
  }
}

/** One line for the monitor's result: the verdict's first reason, or the days left. */
export function sslMessage(report: SslReport): string {
  const head = report.reasons[0] ?? `certificate valid for ${counted(report.daysLeft, 'more day')}, trusted, covers ${report.host}`
  const more = report.reasons.length > 1 ? ` (+${report.reasons.length - 1} more)` : ''
  return `${head}${more}`
}

function keyWeakness(facts: HandshakeFacts): string | null {
  if (facts.keyBits === null) return null
  if ((facts.keyType === 'rsa' || facts.keyType === 'rsa-pss' || facts.keyType === 'dsa') && facts.keyBits < 2048) {
    return `weak key: ${facts.keyType.toUpperCase()} ${facts.keyBits} bits (at least 2048 needed)`
  }
  if (facts.keyType === 'ec' && facts.keyBits < 256) return `weak key: EC ${facts.keyBits} bits (at least 256 needed)`
  return null
}


/** The free plan sees validity, names, trust, key and protocol; chain and OCSP details are for paid plans. */
export function reportForPlan<T extends { kind: string }>(report: T, paid: boolean): T {
  if (paid || report.kind !== 'ssl') return report
  return { ...report, chain: null, ocsp: null }
}
