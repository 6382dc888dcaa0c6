/**
 * A real OpenID provider on 127.0.0.1 for the single sign-on tests: `oidc-provider` (a certified
 * implementation) on a free port, with one confidential client and an in-memory list of accounts
 * (some addresses verified, some not). Its own development login form signs in whoever is typed in
 * as the login (any password): the browser test fills it like a person would. The first-party
 * client needs no consent screen: a grant of `openid email` is made on the first sign-in.
 *
 *   const idp = await listenOidcProvider([{ id: 'alice', email: 'alice@example.com', emailVerified: true }])
 *   const app = await startWebApp({ now, env: idp.env })   // OIDC_* pointing at it
 *   idp.register(`${app.base}/user/sso/callback`)          // the client's redirect URI, now known
 *
 * The port is known before the client's redirect URI (the app's port), so the provider answers 503
 * until `register` builds it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import Provider from 'oidc-provider'

export interface IdpAccount {
  /** The login typed into the provider's form, and the subject (`sub`) of its tokens. */
  id: string
  email: string
  emailVerified: boolean
}

export interface TestOidcProvider {
  issuer: string
  clientId: string
  clientSecret: string
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_NAME for the app. */
  env: Record<string, string>
  /** The accounts, by id; the test may change one (its address, its verification) between sign-ins. */
  accounts: Map<string, IdpAccount>
  /** Builds the provider with `redirectUri` registered for the client. */
  register(redirectUri: string): void
  close(): Promise<void>
}

export const IDP_NAME = 'Test ID'

export async function listenOidcProvider(accounts: IdpAccount[]): Promise<TestOidcProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 503
    res.end('starting')
  }
  const server = createServer((req, res) => handle(req, res))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the provider is not listening')
  const issuer = `http://127.0.0.1:${address.port}`
  const clientId = 'lantern-test'
  const clientSecret = 'a-client-secret-for-the-tests-only-0123456789'
  const byId = new Map(accounts.map((account) => [account.id, account]))
  return {
    issuer,
    clientId,
    clientSecret,
    accounts: byId,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: IDP_NAME },
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        cookies: { keys: ['a-cookie-signing-key-for-the-tests-only'] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx: unknown, sub: string) {
          const account = byId.get(sub)
          if (!account) return undefined
          return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified }) }
        },
        // The first-party client: the grant is made without asking (no consent screen).
        async loadExistingGrant(ctx: any) {
          const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId)
          if (grantId) return ctx.oidc.provider.Grant.find(grantId)
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId })
          grant.addOIDCScope('openid email')
          await grant.save()
          return grant
        },
      })
      handle = provider.callback()
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
