import type { Stoa } from '../stoa';

/**
 * Relay work that no client waits for (message notifications, device registrations). It
 * starts after the current transaction has committed, and its failures are logged, never
 * thrown: a relay that is down must not fail or slow a message send.
 */
const running = new WeakMap<Stoa, Set<Promise<void>>>();

export function inBackground(stoa: Stoa, what: string, task: () => Promise<void>): void {
  let tasks = running.get(stoa);
  if (!tasks) running.set(stoa, (tasks = new Set()));
  const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .catch((err: unknown) => stoa.log(`Push: ${what} failed: ${err instanceof Error ? err.message : String(err)}`))
    .finally(() => tasks.delete(done));
  tasks.add(done);
}

/** Resolves once no background relay work is left (tests wait on it; so does shutdown). */
export async function backgroundSettled(stoa: Stoa): Promise<void> {
  const tasks = running.get(stoa);
  while (tasks && tasks.size > 0) await Promise.all([...tasks]);
}
