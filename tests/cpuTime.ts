/**
 * How much CPU an action takes in this process (user + system, every thread: the PGlite thread
 * too), in milliseconds. Tests that bound the work a computation does measure this rather than
 * the clock: `npm test` runs its two lanes side by side on the same cores, so the clock also
 * counts the time the other lane held them.
 */
export async function cpuMillis(action: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  await action();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}
