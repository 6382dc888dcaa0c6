/**
 * Login throttling that stops guessing without letting strangers lock an owner out: attempts count
 * per email and client (IPv6: per /64), per client, and in a slower budget per email across all
 * clients, from which addresses that logged in to the account before are exempt.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import {
  LOGIN_ATTEMPTS_PER_EMAIL,
  LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT,
  LOGIN_EMAIL_WINDOW_MS,
  LOGIN_WINDOW_MS,
} from '../../../src/modules/accounts/service.ts'
import { createTestContext, type TestContext } from '../../helpers/context.ts'


let ctx: TestContext
const PASSWORD = 'correct horse battery'
const ORIGIN = 'https://lantern.test'

beforeAll(async () => {
  ctx = await createTestContext()
})
afterAll(() => ctx.close())

function login(email: string, password: string, client: string) {
  return ctx.request('/user/login', {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
    body: new URLSearchParams({ email, password }).toString(),
  })
}

describe('login throttling', () => {
  test('an attacker failing from one address does not stop the owner logging in from another', async () => {
    const { user } = await ctx.createOwner()
    const attacker = '198.51.100.1'
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT; i++) expect((await login(user.email, `guess ${i}`, attacker)).status).toBe(401)
    const held = await login(user.email, PASSWORD, attacker)
    expect(held.status).toBe(429)
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await login(user.email, PASSWORD, '203.0.113.9')).status).toBe(303)
    // The owner's success does not give the attacker fresh guesses.
    expect((await login(user.email, 'one more guess', attacker)).status).toBe(429)
    ctx.clock.advance(LOGIN_WINDOW_MS)
    expect((await login(user.email, PASSWORD, attacker)).status).toBe(303)
  })

  test('addresses in one IPv6 /64 share their budget', async () => {
    const { user } = await ctx.createOwner()
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT; i++) {
      expect((await login(user.email, `guess ${i}`, `2001:db8:77:1::${(i + 1).toString(16)}`)).status).toBe(401)
    }
    expect((await login(user.email, PASSWORD, '2001:db8:77:1:ffff::42')).status).toBe(429)
    expect((await login(user.email, PASSWORD, '2001:db8:77:2::1')).status).toBe(303)
    ctx.clock.advance(LOGIN_WINDOW_MS)
  })

  test('guessing from rotating addresses hits the slower per-email budget; an address the owner used before still gets in', async () => {
    const { user } = await ctx.createOwner()
    const home = '192.0.2.200'
    expect((await login(user.email, PASSWORD, home)).status).toBe(303)
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_EMAIL; i++) {
      expect((await login(user.email, `guess ${i}`, `2001:db8:${(i + 1).toString(16)}::1`)).status).toBe(401)
    }
    // A new address, even with the right password, waits for the per-email window.
    const held = await login(user.email, PASSWORD, '2001:db8:ffff::1')
    expect(held.status).toBe(429)
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(LOGIN_WINDOW_MS / 1000)
    expect((await login(user.email, 'yet another guess', '198.51.100.250')).status).toBe(429)
    // The owner's usual address is not locked out by strangers.
    expect((await login(user.email, PASSWORD, home)).status).toBe(303)
    // The budget is bounded in time: after its window anyone with the password gets in.
    ctx.clock.advance(LOGIN_EMAIL_WINDOW_MS)
    expect((await login(user.email, PASSWORD, '2001:db8:ffff::1')).status).toBe(303)
  })

  test('the password-change form counts its guesses like the login, per client', async () => {
    const { user } = await ctx.createOwner()
    const client = '192.0.2.77'
    const response = await login(user.email, PASSWORD, client)
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!
    const change = (current: string, from: string) =>
      ctx.request('/user/password', {
        method: 'POST',
        headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
        body: new URLSearchParams({ current_password: current, new_password: 'a brand new password' }).toString(),
      })
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_EMAIL_AND_CLIENT; i++) expect((await change(`guess ${i}`, client)).status).toBe(400)
    expect((await change(PASSWORD, client)).status).toBe(429)
    expect((await login(user.email, PASSWORD, client)).status).toBe(429)
    expect((await login(user.email, PASSWORD, '203.0.113.10')).status).toBe(303)
    ctx.clock.advance(LOGIN_WINDOW_MS)
  })
})
