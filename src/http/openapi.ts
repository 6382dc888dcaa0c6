/** The OpenAPI document (`/swagger`, `/swagger/json`) of the service app. */
import { swagger } from '@elysiajs/swagger'
import { APP_VERSION } from '../lib/version.ts'

export function openApi() {
  return swagger({
    path: '/swagger',
    // Badges and the widget script have a dot in their paths: list them too.
    excludeStaticFile: false,
    documentation: {
      info: {
        title: 'Lantern API',
        version: APP_VERSION,
        description:
          'Status pages, embeds and the management API of a Lantern instance. Management routes take an API key (`Authorization: Bearer lnt_…` or `X-API-Key: lnt_…`) created with `lantern key create`. Errors are `{"error": "…"}` with the status code.',
      },
      tags: [
        { name: 'Embeds', description: 'Public snippets, badges, widget and status JSON' },
        { name: 'Status pages', description: 'Manage your status pages' },
        { name: 'Components', description: 'Components of a page and their status history' },
        { name: 'Incidents', description: 'Incidents with affected components and a timeline of updates' },
        { name: 'Incident templates', description: 'Reusable incident texts with {{component}} and {{page}}' },
        { name: 'Maintenances', description: 'Scheduled maintenance windows' },
        { name: 'Checks', description: 'Check results reported for components (response times, up/down)' },
        { name: 'API keys', description: 'Create (web session only), list and revoke your API keys' },
        { name: 'Sessions', description: 'Your login sessions: list them, end one, end all others' },
        { name: 'Plan', description: 'Your plan, what it allows and your usage' },
        { name: 'Operations', description: 'Health and operations' },
        { name: 'Analytics', description: 'Page views, uptime and share tokens of your status pages' },
        { name: 'User area', description: 'Login, logout and the server-rendered user area' },
        { name: 'Site', description: 'Docs, blog, changelog, robots.txt and sitemap of the service host' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: lnt_…' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'lantern_session', description: 'The login session (user area)' },
        },
      },
    },
  })
}
