import { expect, test } from 'bun:test'
import { startJobs, type Job } from '../src/jobs.ts'

const HOUR = 3_600_000

/** A run that finishes when the test says so. */
function heldRun() {
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))
  return { done, finish }
}

test('only the leader runs leader-only jobs; jobs marked atStart run as they start, the others one interval later', async () => {
  const ran: string[] = []
  const jobs: Job[] = [
    { name: 'everywhere, at start', every: HOUR, leaderOnly: false, atStart: true, run: async () => void ran.push('everywhere') },
    { name: 'leader, at start', every: HOUR, leaderOnly: true, atStart: true, run: async () => void ran.push('leader') },
    { name: 'leader, later', every: HOUR, leaderOnly: true, run: async () => void ran.push('later') },
  ]
  const follower = startJobs(jobs, { leader: false, onError: () => {} })
  await follower.stop()
  expect(ran).toEqual(['everywhere'])

  ran.length = 0
  const leader = startJobs(jobs, { leader: true, onError: () => {} })
  await leader.stop()
  expect(ran).toEqual(['everywhere', 'leader'])
})

test('stop waits for a run in progress, starts no other, and a second stop is the same stop', async () => {
  const held = heldRun()
  let runs = 0
  const running = startJobs([{ name: 'slow', every: HOUR, leaderOnly: false, atStart: true, run: () => (runs++, held.done) }], { leader: true, onError: () => {} })
  let stopped = false
  const first = running.stop().then(() => (stopped = true))
  const second = running.stop()
  // The run is still held: no turn of the event loop ends the stop.
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0))
  expect(stopped).toBe(false)
  held.finish()
  await Promise.all([first, second])
  expect(stopped).toBe(true)
  expect(runs).toBe(1)
})

test('a failing run is reported with its job name, and a job that throws at once does not stop the others', async () => {
  const errors: string[] = []
  const ran: string[] = []
  const running = startJobs(
    [
      { name: 'rejects', every: HOUR, leaderOnly: false, atStart: true, run: async () => Promise.reject(new Error('disk full')) },
      {
        name: 'throws',
        every: HOUR,
        leaderOnly: false,
        atStart: true,
        run: () => {
          throw new Error('no database')
        },
      },
      { name: 'fine', every: HOUR, leaderOnly: false, atStart: true, run: async () => void ran.push('fine') },
    ],
    { leader: true, onError: (name, error) => errors.push(`${name}: ${(error as Error).message}`) },
  )
  await running.stop()
  expect(errors.sort()).toEqual(['rejects: disk full', 'throws: no database'])
  expect(ran).toEqual(['fine'])
})
