/** A badge URL with an embed token is read like any badge URL: a malformed escape in the slug was a 500 (URIError). */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createTestContext, type TestContext } from '../../helpers/context.ts'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

test('a badge path with a malformed escape and an auth_token gets what it gets without the token, never a 500', async () => {
  for (const path of ['/badge/%E0%A4%A.svg', '/badge/%E0%A4%A/uptime.svg']) {
    const anonymous = await ctx.request(path)
    const withToken = await ctx.request(`${path}?auth_token=lpt_${'A'.repeat(43)}`)
    expect(anonymous.status).toBeLessThan(500)
    expect(withToken.status).toBe(anonymous.status)
    expect(await withToken.text()).toBe(await anonymous.text())
  }
})
