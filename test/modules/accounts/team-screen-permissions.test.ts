/**
 * The rules of the team members screen (route-permissions.ts) mirror the API's team routes: every
 * member reads the lists, every write (invite, revoke, change a role, remove, claim a domain) and a removal's
 * confirmation is the admin's. The routes are read from the router, so a new one is covered.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { permissionFor } from '../../../src/modules/accounts/route-permissions.ts'
import { routeList } from '../../helpers/site-map.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext

beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 11, 7, 12) })
})
afterAll(async () => {
  await ctx.close()
})

test('the API and the screen need the same permission for the same act', () => {
  const pairs: Array<[string, string, string, string]> = [
    ['GET', '/user/api/v1/team/members', 'GET', '/user/team'],
    ['POST', '/user/api/v1/team/invitations', 'POST', '/user/team/invitations'],
    ['DELETE', '/user/api/v1/team/invitations/:id', 'POST', '/user/team/invitations/:id/revoke'],
    ['PATCH', '/user/api/v1/team/members/:user_id', 'POST', '/user/team/members/:user_id/role'],
    ['DELETE', '/user/api/v1/team/members/:user_id', 'POST', '/user/team/members/:user_id/remove'],
    ['PATCH', '/user/api/v1/team', 'POST', '/user/team/security'],
    ['PUT', '/user/api/v1/team/sso-domain', 'POST', '/user/team/sso-domain'],
    ['DELETE', '/user/api/v1/team/sso-domain', 'POST', '/user/team/sso-domain/release'],
  ]
  for (const [apiMethod, apiRoute, screenMethod, screenRoute] of pairs) {
    expect({ screenRoute, needs: permissionFor(screenMethod, screenRoute) }).toEqual({ screenRoute, needs: permissionFor(apiMethod, apiRoute) })
  }
  expect(permissionFor('GET', '/user/team')).toBe('read')
  expect(permissionFor('GET', '/user/team/members/:user_id/remove')).toBe('manage')
  // The audit log: admins and owners, on the screen, the API and the CSV alike.
  for (const route of ['/user/team/audit', '/user/api/v1/team/audit', '/user/api/v1/team/audit.csv']) expect({ route, needs: permissionFor('GET', route) }).toEqual({ route, needs: 'manage' })
})

test('every route of the members screen has a rule: reads for every member, writes for admins', () => {
  const routes = routeList(ctx.app).filter((route) => route.host === 'service' && /^\/user\/team(\/|$)/.test(route.path))
  expect(routes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
    'GET /user/team',
    'GET /user/team/audit',
    'GET /user/team/members/:user_id/remove',
    'POST /user/team/invitations',
    'POST /user/team/invitations/:id/revoke',
    'POST /user/team/members/:user_id/remove',
    'POST /user/team/members/:user_id/role',
    'POST /user/team/security',
    'POST /user/team/sso-domain',
    'POST /user/team/sso-domain/release',
  ])
  for (const route of routes) {
    const expected = route.method === 'GET' && route.path === '/user/team' ? 'read' : 'manage'
    expect({ route: route.path, method: route.method, needs: permissionFor(route.method, route.path) }).toEqual({ route: route.path, method: route.method, needs: expected })
  }
})
