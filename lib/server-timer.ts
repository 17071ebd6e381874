import type { Stoa } from './stoa';

/**
 * One timer per server for a job that waits for the next time something falls due (scheduled
 * messages, full-member promotions): `arm` points it at a time, or stops it with undefined;
 * pointing it at the time it already waits for changes nothing. The job runs only while the
 * database is open.
 */
export function serverTimer(job: (stoa: Stoa) => void): (stoa: Stoa, atMs: number | undefined) => void {
  const armed = new WeakMap<Stoa, { atMs: number; cancel: () => void }>();
  return (stoa, atMs) => {
    const current = armed.get(stoa);
    if (current?.atMs === atMs) return;
    current?.cancel();
    armed.delete(stoa);
    if (atMs === undefined) return;
    const cancel = stoa.clock.at(atMs, () => {
      armed.delete(stoa);
      if (stoa.db.open) job(stoa);
    });
    armed.set(stoa, { atMs, cancel });
  };
}
