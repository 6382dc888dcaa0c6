/**
 * `lantern probe-token create|list|revoke`: the instance's probe tokens (the operator runs the
 * probes, so tokens belong to the instance, not to an owner). `create` prints the token once.
 */
import { badRequest } from '../../lib/errors.ts'
import { need, text, type CliCommand } from '../../lib/cli-flags.ts'
import { toIso, toIsoOrNull } from '../../lib/time.ts'
import type { Services } from '../../services.ts'
import type { ProbeToken } from './service.ts'

const tokenJson = (token: ProbeToken) => ({
  id: token.id,
  region: token.region,
  prefix: token.prefix,
  created_at: toIso(token.createdAt),
  last_used_at: toIsoOrNull(token.lastUsedAt),
  revoked: token.revokedAt !== null,
})

export const probeTokenCommands: Record<string, CliCommand<Services>> = {
  'probe-token create': {
    options: { region: { type: 'string' } },
    run: async (s, f) => (await s.probes.createToken(need(f, 'region'))).token,
  },
  'probe-token list': {
    options: {},
    run: async (s) => (await s.probes.listTokens()).map((token) => JSON.stringify(tokenJson(token))).join('\n'),
  },
  'probe-token revoke': {
    options: { id: { type: 'string' } },
    run: async (s, f) => {
      const id = text(f, 'id')
      if (id === undefined || !/^[1-9]\d{0,15}$/.test(id)) throw badRequest('--id must be a positive integer (see lantern probe-token list)')
      return JSON.stringify(tokenJson(await s.probes.revokeToken(Number(id))))
    },
  },
}
