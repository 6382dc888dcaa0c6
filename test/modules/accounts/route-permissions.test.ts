/**
 * The role guard's table (route-permissions.ts) against the app's own routes: every owner route and
 * screen under /user names a permission for its method (a route no rule names is refused, so a
 * forgotten one shows up here first), and the Import screen needs `edit`: an editor may import,
 * a responder or a viewer may look at the screen and not send it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { isPublicScreen, permissionFor } from '../../../src/modules/accounts/route-permissions.ts'
import { roleMay } from '../../../src/modules/plans/roles.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext({ now: Date.UTC(2026, 11, 7, 12) })
})
afterAll(() => ctx.close())

describe('route permissions', () => {
  test('every route under /user that is no signed-out screen names a permission', () => {
    const unnamed = ctx.app.routes.service
      .filter((route) => route.path.startsWith('/user') && !isPublicScreen(route.path))
      .filter((route) => permissionFor(route.method, route.path) === undefined)
      .map((route) => `${route.method} ${route.path}`)
    expect(unnamed).toEqual([])
  })

  test('the Import screen: every member reads it; importing needs edit (editor and above)', () => {
    const routes = ctx.app.routes.service.filter((route) => route.path.startsWith('/user/import')).map((route) => `${route.method} ${route.path}`).sort()
    expect(routes).toEqual(['GET /user/import', 'POST /user/import/gatus', 'POST /user/import/uptime-kuma'])
    expect(permissionFor('GET', '/user/import')).toBe('read')
    for (const path of ['/user/import/uptime-kuma', '/user/import/gatus']) {
      const needed = permissionFor('POST', path)!
      expect(needed).toBe('edit')
      expect(['owner', 'admin', 'editor', 'responder', 'viewer'].map((role) => [role, roleMay(role as 'owner', needed)])).toEqual([
        ['owner', true], ['admin', true], ['editor', true], ['responder', false], ['viewer', false],
      ])
    }
  })
})
