import { describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../../src/config.ts'

const SMTP = { SMTP_HOST: 'smtp.example.com', MAIL_FROM: 'Status <status@example.com>' }
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('no ConfigError')
}

describe('mail settings', () => {
  test('no SMTP_HOST: mail is off', () => {
    expect(loadConfig({}).mail.enabled).toBe(false)
    expect(loadConfig({ MAIL_FROM: 'a@example.com' }).mail.enabled).toBe(false)
  })

  test('defaults: port 587, STARTTLS required, no login, no DKIM', () => {
    expect(loadConfig(SMTP).mail).toEqual({
      enabled: true,
      from: 'Status <status@example.com>',
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      user: undefined,
      password: undefined,
      tlsCaFile: undefined,
      dkim: undefined,
    })
  })

  test('every setting read', () => {
    const mail = loadConfig({
      ...SMTP,
      SMTP_PORT: '465',
      SMTP_SECURITY: 'TLS',
      SMTP_USER: 'apikey',
      SMTP_PASSWORD: ' secret with spaces ',
      SMTP_TLS_CA_FILE: '/etc/lantern/ca.pem',
      DKIM_DOMAIN: 'Example.com',
      DKIM_SELECTOR: 'lantern1',
      DKIM_PRIVATE_KEY_FILE: '/etc/lantern/dkim.pem',
    }).mail
    expect(mail).toMatchObject({ port: 465, security: 'tls', user: 'apikey', password: ' secret with spaces ', tlsCaFile: '/etc/lantern/ca.pem' })
    expect(mail.dkim).toEqual({ domain: 'example.com', selector: 'lantern1', privateKeyFile: '/etc/lantern/dkim.pem' })
    expect(Object.isFrozen(mail)).toBe(true)
  })

  test('bad values stop the start with one line naming the variable', () => {
    expect(refusal({ SMTP_HOST: 'smtp.example.com' })).toBe('MAIL_FROM is required when SMTP_HOST is set (e.g. "Lantern <status@example.com>")')
    expect(refusal({ ...SMTP, SMTP_PORT: '0' })).toBe('SMTP_PORT must be an integer from 1 to 65535, got "0"')
    expect(refusal({ ...SMTP, SMTP_PORT: 'smtp' })).toBe('SMTP_PORT must be an integer from 1 to 65535, got "smtp"')
    expect(refusal({ ...SMTP, SMTP_SECURITY: 'ssl' })).toBe('SMTP_SECURITY must be one of starttls, tls, none, got "ssl"')
    expect(refusal({ ...SMTP, SMTP_USER: 'me' })).toBe('SMTP_USER and SMTP_PASSWORD must be set together')
    expect(refusal({ ...SMTP, SMTP_HOST: 'smtp.example.com:25' })).toStartWith('SMTP_HOST must be a host name or IPv4 address')
    expect(refusal({ ...SMTP, MAIL_FROM: 'not an address' })).toBe('MAIL_FROM must be an address or "Name <address>", got "not an address"')
    expect(refusal({ ...SMTP, MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' })).toStartWith('MAIL_FROM must be an address')
    expect(refusal({ ...SMTP, DKIM_DOMAIN: 'example.com' })).toBe('DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE must be set together')
    expect(refusal({ ...SMTP, DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: 's', DKIM_PRIVATE_KEY_FILE: '/k' })).toBe('DKIM_DOMAIN must be a domain name, got "not a domain"')
    expect(refusal({ ...SMTP, DKIM_DOMAIN: 'example.com', DKIM_SELECTOR: 'a b', DKIM_PRIVATE_KEY_FILE: '/k' })).toStartWith('DKIM_SELECTOR must be')
  })
})
