import type { TestContext } from '../../helpers/context.ts'

export const ORIGIN = 'https://lantern.test'

/** Logs `email` in through the form and returns the Cookie header value. */
export async function loginCookie(ctx: TestContext, email: string, password = 'correct horse battery'): Promise<string> {
  const response = await ctx.request('/user/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams({ email, password }).toString(),
  })
  if (response.status !== 303) throw new Error(`login failed: ${response.status}`)
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!
}

export async function createComponent(ctx: TestContext, key: string, pageId: number, name: string): Promise<number> {
  const response = await ctx.request(`/user/api/v1/status-pages/${pageId}/components`, { method: 'POST', key, json: { name } })
  if (response.status !== 201) throw new Error(`component: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { id: number } }).data.id
}

export async function importHistory(ctx: TestContext, key: string, componentId: number, entries: Array<{ status: string; at: string }>) {
  const response = await ctx.request(`/user/api/v1/components/${componentId}/history`, { method: 'POST', key, json: entries })
  if (response.status !== 200) throw new Error(`import: ${response.status} ${await response.text()}`)
}

export async function createToken(ctx: TestContext, key: string, pageId: number, body: Record<string, unknown> = {}) {
  const response = await ctx.request(`/user/analytics/${pageId}/tokens`, { method: 'POST', key, json: body })
  if (response.status !== 201) throw new Error(`token: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { id: number; token: string; url: string; state: string } }).data
}

export const slug = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`
