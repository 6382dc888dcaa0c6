/**
 * The environment a spawned server or probe needs to share this test's clock when CI runs the suite
 * under libfaketime (`faketime -f "@<date> 23:30:00"`). An absolute "@" start makes every process
 * start its clock at that instant when IT starts, so a child spawned minutes into the run would lag
 * the test by those minutes (leases, schedules and staleness would disagree). The child gets this
 * process's current faked time as its start instead (to the second), and both tick from there.
 * Without libfaketime: nothing.
 */
export function sharedClockEnv(): Record<string, string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(LD_PRELOAD|FAKETIME.*|TZ)$/.test(name))) as Record<string, string>
  if (env.FAKETIME?.startsWith('@')) env.FAKETIME = `@${new Date().toISOString().slice(0, 19).replace('T', ' ')}`
  return env
}
