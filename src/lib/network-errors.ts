/**
 * Low-level network, DNS and TLS errors as sentences people understand: the one table behind every
 * reason Lantern shows for a connection it made for an owner (monitor results, lookup tools, the
 * address guard's "did not resolve"). The sentence says what happened and, where it helps, what to
 * try; the code follows in parentheses, so it can still be searched for.
 *
 *   explainNetworkError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:80'), { code: 'ECONNREFUSED' }))
 *   // 'the connection was refused: nothing is listening on that port, or a firewall turned it away (ECONNREFUSED)'
 *   explainCertificateError('DEPTH_ZERO_SELF_SIGNED_CERT')
 *   // 'the certificate is self-signed: no trusted authority issued it (DEPTH_ZERO_SELF_SIGNED_CERT)'
 */

interface Entry {
  /** Error codes (Node's, OpenSSL's and Bun's names for the same thing). */
  codes: readonly string[]
  /** Matched against the message when the code is missing or unknown (OpenSSL texts, Bun's fetch). */
  pattern?: RegExp
  sentence: string
}

const NOT_TLS = 'the server did not answer in TLS: this port probably speaks plain HTTP (use http://, or the TLS port, usually 443)'

/** Certificate problems: the codes OpenSSL puts in `authorizationError` and in fetch's errors. */
const CERTIFICATE: readonly Entry[] = [
  { codes: ['CERT_HAS_EXPIRED'], pattern: /certificate has expired/i, sentence: 'the certificate has expired' },
  { codes: ['CERT_NOT_YET_VALID'], pattern: /certificate is not yet valid/i, sentence: 'the certificate is not valid yet' },
  { codes: ['DEPTH_ZERO_SELF_SIGNED_CERT'], pattern: /self[- ]signed certificate$/i, sentence: 'the certificate is self-signed: no trusted authority issued it' },
  { codes: ['SELF_SIGNED_CERT_IN_CHAIN'], pattern: /self[- ]signed certificate in certificate chain/i, sentence: 'the certificate chain ends in a self-signed root that is not trusted' },
  {
    codes: ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT'],
    pattern: /unable to (verify the first certificate|get (local )?issuer certificate)/i,
    sentence: "the certificate's issuer is not trusted or not sent: the server may be missing its intermediate certificate",
  },
  { codes: ['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'], pattern: /altnames|hostname mismatch|does not match certificate/i, sentence: 'the certificate does not cover this host name' },
  { codes: ['CERT_REVOKED'], sentence: 'the certificate has been revoked' },
  { codes: ['CERT_SIGNATURE_FAILURE', 'CERT_UNTRUSTED', 'CERT_REJECTED', 'INVALID_CA', 'INVALID_PURPOSE'], sentence: 'the certificate is not trusted' },
]

const CONNECTION: readonly Entry[] = [
  { codes: ['ECONNREFUSED', 'ConnectionRefused'], sentence: 'the connection was refused: nothing is listening on that port, or a firewall turned it away' },
  { codes: ['ECONNRESET', 'ConnectionReset'], sentence: 'the connection was reset by the server or a device on the way' },
  { codes: ['ETIMEDOUT'], sentence: 'the connection timed out: the host did not answer' },
  { codes: ['EHOSTUNREACH', 'HostUnreachable'], sentence: 'the host cannot be reached: there is no route to it' },
  { codes: ['ENETUNREACH', 'NetworkUnreachable'], sentence: 'the network of that address cannot be reached from this server' },
  { codes: ['EADDRNOTAVAIL'], sentence: 'this server cannot connect to that address' },
  { codes: ['EPIPE', 'ECONNABORTED', 'ConnectionClosed', 'UnexpectedEOF'], pattern: /socket hang up|closed unexpectedly/i, sentence: 'the server closed the connection before answering' },
  { codes: ['FailedToOpenSocket'], sentence: 'no connection could be opened to the host' },
  // DNS (node:dns codes, and the codes our own resolver answers with).
  { codes: ['ENOTFOUND', 'NXDOMAIN', 'EAI_NONAME'], sentence: 'the name does not exist in DNS' },
  { codes: ['ENODATA', 'NODATA'], sentence: 'the name has no records of that type' },
  { codes: ['ESERVFAIL', 'SERVFAIL'], sentence: "the name's DNS servers failed to answer" },
  { codes: ['EREFUSED', 'REFUSED'], sentence: 'the DNS server refused to answer' },
  { codes: ['ETIMEOUT', 'EAI_AGAIN'], sentence: 'the DNS did not answer in time' },
  { codes: ['EFORMERR', 'FORMERR'], sentence: 'the DNS server could not read the question' },
  { codes: ['ENOTIMP', 'NOTIMP'], sentence: 'the DNS server does not support that question' },
  // TLS spoken to a port that does not speak it, or a handshake nobody could agree on.
  { codes: ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'], pattern: /wrong[_ ]version[_ ]number|packet[_ ]length[_ ]too[_ ]long|does the server speak tls/i, sentence: NOT_TLS },
  { codes: ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'ERR_SSL_NO_PROTOCOLS_AVAILABLE', 'ERR_SSL_UNSUPPORTED_PROTOCOL', 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'], pattern: /handshake failure|unsupported protocol|protocol version/i, sentence: 'the TLS handshake failed: the server and Lantern have no protocol version or cipher in common' },
  { codes: ['EPROTO'], pattern: /handshake/i, sentence: 'the TLS handshake failed' },
]

const ALL = [...CERTIFICATE, ...CONNECTION]
const BY_CODE = new Map<string, Entry>(ALL.flatMap((entry) => entry.codes.map((code) => [code, entry] as const)))

/** Every code the table knows (for tests and documentation). */
export const KNOWN_NETWORK_ERROR_CODES: readonly string[] = [...BY_CODE.keys()]

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null | undefined)?.code
  return typeof code === 'string' && code !== '' ? code : undefined
}

/**
 * The sentence for a thrown network, DNS or TLS error, with its code; undefined when neither the
 * code nor the message is in the table (the caller then shows what it has).
 */
export function explainNetworkError(error: unknown): string | undefined {
  const code = codeOf(error)
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  // A code first; a generic code (EPROTO) gives way to a more precise message.
  const byCode = code === undefined ? undefined : BY_CODE.get(code)
  const byMessage = message ? ALL.find((entry) => entry.pattern?.test(message)) : undefined
  const entry = byCode && !(byCode.codes.includes('EPROTO') && byMessage) ? byCode : byMessage
  if (!entry) return undefined
  const shown = code ?? entry.codes[0]!
  return `${entry.sentence} (${shown})`
}

/** The sentence for a certificate verification code (`authorizationError`), always one. */
export function explainCertificateError(code: string): string {
  const entry = BY_CODE.get(code)
  return entry ? `${entry.sentence} (${code})` : `the certificate is not trusted (${code})`
}
