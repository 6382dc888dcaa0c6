/**
 * The MCP endpoint (Model Context Protocol, streamable HTTP) at `/mcp` on the service host, for
 * agents: the tools of tools.ts, as the owner of the API key the request carries (a session cookie
 * is not taken: an agent is not a browser). Stateless: each POST is answered on its own as JSON, so
 * any server of several answers it. The official SDK loads on the first request, so an instance
 * nobody asks over MCP never holds it in memory.
 *
 *   POST /mcp      JSON-RPC (initialize, tools/list, tools/call …)
 *   GET  /mcp      405: no server-initiated stream in stateless mode
 */
import { Elysia, t } from 'elysia'
import { ErrorBody } from '../../http/schemas.ts'
import { errorResponse } from '../../lib/errors.ts'
import { APP_VERSION } from '../../lib/version.ts'
import { presentedApiKey } from '../accounts/auth.ts'
import type { AccountsService, Owner } from '../accounts/service.ts'
import { callTool, TOOLS, type ToolServices } from './tools.ts'

export const MCP_PATH = '/mcp'

type Sdk = {
  McpServer: typeof import('@modelcontextprotocol/sdk/server/mcp.js').McpServer
  Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport
}
let sdk: Promise<Sdk> | undefined
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]).then(([mcp, http]) => ({
    McpServer: mcp.McpServer,
    Transport: http.WebStandardStreamableHTTPServerTransport,
  })))

/** One request's server: every tool, bound to the key's owner. */
function serverFor(S: Sdk, owner: Owner, services: ToolServices) {
  const server = new S.McpServer({ name: 'lantern', version: APP_VERSION }, { capabilities: { tools: {} } })
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false } },
      (args: Record<string, unknown>) => callTool(tool, owner, args, services),
    )
  }
  return server
}

export function mcpRoutes(deps: { accounts: AccountsService; services: ToolServices; baseUrl: string }) {
  const ownOrigin = new URL(deps.baseUrl).origin
  return new Elysia()
    .post(
      MCP_PATH,
      async ({ request, body, headers }) => {
        // A browser page elsewhere cannot drive it (DNS rebinding, cross-site calls): only our origin or none.
        const origin = headers.origin
        if (origin !== undefined && origin !== ownOrigin) return errorResponse(403, 'requests from other origins are refused')
        const key = presentedApiKey(headers)
        const owner = key === undefined ? undefined : await deps.accounts.authenticateApiKey(key)
        if (!owner) return errorResponse(401, 'an API key is required (Authorization: Bearer lnt_…)', { 'www-authenticate': 'Bearer' })
        const S = await loadSdk()
        const server = serverFor(S, owner, deps.services)
        const transport = new S.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true })
        await server.connect(transport)
        try {
          return await transport.handleRequest(request, { parsedBody: body })
        } finally {
          await server.close()
        }
      },
      {
        body: t.Unknown({
          description: 'A JSON-RPC 2.0 message (or batch) of the Model Context Protocol',
          examples: [{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'page_status', arguments: { page_id: 1 } } }],
        }),
        response: {
          200: t.Unknown({
            description: 'The JSON-RPC answer',
            examples: [{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '{"overall":"operational","components":[]}' }] } }],
          }),
          202: t.Unknown({ description: 'Accepted: a notification, which has no answer' }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          406: ErrorBody,
        },
        detail: {
          tags: ['MCP'],
          summary: 'Model Context Protocol (streamable HTTP)',
          description:
            'The endpoint for AI agents and MCP clients: tools to list pages and their status, report an incident, post an update, resolve it, schedule maintenance, list, pause and resume monitors and read their recent results, acting as the API key\'s owner. Stateless; answers are JSON (`Accept: application/json, text/event-stream`). A session cookie is not accepted.',
          security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        },
      },
    )
    // MCP clients may try to open a server stream; in stateless mode there is none (not an API operation).
    .get(MCP_PATH, () => new Response(JSON.stringify({ error: 'this MCP endpoint is stateless: POST JSON-RPC messages to it' }), { status: 405, headers: { allow: 'POST', 'content-type': 'application/json; charset=utf-8' } }), {
      response: { 405: ErrorBody },
      detail: { hide: true },
    })
}
