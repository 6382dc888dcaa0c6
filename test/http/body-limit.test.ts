/**
 * The server takes bodies up to the Import screen's 50 MB, so every other path bounds its own body:
 * a declared length past 2 MB is a 413, and a body sent without a declared length (chunked) is a 411
 * there. Raw sockets, so the request goes out exactly as written.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { listenTestContext, type ListeningContext } from '../helpers/listening.ts'

let site: ListeningContext
beforeAll(async () => {
  site = await listenTestContext({ now: Date.UTC(2026, 11, 7, 12) })
})
afterAll(() => site.close())

function raw(request: string): Promise<string> {
  const { port } = new URL(site.base)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request))
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (answer.includes('\r\n\r\n')) socket.end()
    })
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

const host = () => new URL(site.base).host
const chunked = (path: string) =>
  `POST ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`

test('a chunked body to an API path is a 411 that asks for the length; nothing is read', async () => {
  const answer = await raw(chunked('/user/api/v1/teams'))
  expect(answer).toStartWith('HTTP/1.1 411')
  expect(answer).toContain('send the request body with a Content-Length header: this address takes at most 2 MB')
})

test('a chunked body to the Kuma upload is not refused for its missing length', async () => {
  const answer = await raw(chunked('/user/import/uptime-kuma'))
  expect(answer).not.toStartWith('HTTP/1.1 411')
  expect(answer).not.toStartWith('HTTP/1.1 5')
})

test('a declared length past 2 MB is a 413 before the body is sent', async () => {
  const answer = await raw(`POST /user/api/v1/teams HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: ${3 * 1024 * 1024}\r\nConnection: close\r\n\r\n`)
  expect(answer).toStartWith('HTTP/1.1 413')
})

test('a body with its length declared goes on as before', async () => {
  const answer = await raw(`POST /user/api/v1/teams HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`)
  // The body was read: the route's own schema answers.
  expect(answer).toStartWith('HTTP/1.1 400')
  expect(answer).toContain('name is required')
})
