import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * The young generation's size, chosen by what the server is doing. V8 collects its young
 * generation each time it fills (a scavenge), copying what is still alive, and moves to the
 * old generation what survived two; a full collection of the old generation follows once
 * enough has moved there. Every client keeps a long poll parked, and each woken poll's
 * request and response live until the next event answers it. With many polls parked (a
 * thousand people, a few events a second each) small semi-spaces fill faster than the polls
 * are answered: every scavenge copies them all, the second moves them to the old generation,
 * and full collections follow every half second. Semi-spaces of 32 MB outlast a poll, and
 * answering the same polls took about 40% less CPU (bench/RESULTS.md, `bench/poll-floor.ts`).
 * But large semi-spaces are committed whole once grown, and a flood of other requests (which
 * parks few polls) grows them too: its peak went from 179 to 245 MB.
 *
 * So the server starts with V8's ceiling at POLLING_SEMI_SPACE_MB (HEAP_FLAGS) and keeps the
 * semi-spaces at QUIET_SEMI_SPACE_MB while fewer than MANY_PARKED_POLLS polls are parked, by
 * V8's growth factor: it grows them only during a scavenge, by that factor, and reads it at
 * each one, so after each collection the factor is set for the next from the size this one
 * left and the polls parked now. Once the polls are gone, V8 shrinks the semi-spaces at the
 * next full collection with little allocation (the release when quiet, idle-release.ts).
 */

/** Per semi-space: the ceiling while few polls are parked. */
export const QUIET_SEMI_SPACE_MB = 4;
/** Per semi-space: V8's own ceiling (HEAP_FLAGS), reached only with MANY_PARKED_POLLS parked. */
export const POLLING_SEMI_SPACE_MB = 32;
/** Parked polls from which the semi-spaces may grow to POLLING_SEMI_SPACE_MB. */
export const MANY_PARKED_POLLS = 250;

/**
 * Whether the growth factor is set to 1 now. Kept on the global object: the launcher (which
 * compiles the server with the code cache) and the server (which writes it) are compiled
 * apart, each with its own copy of this module.
 */
const GROWTH = Symbol.for('stoa.young-generation-growth');
const growth = ((globalThis as { [GROWTH]?: { stopped: boolean } })[GROWTH] ??= { stopped: false });

/**
 * Sets V8's growth factor when the decision changes (`again`: whatever it is, after a worker
 * thread started; see flagsForNewWorker). Setting it after every collection instead slowed
 * the day of 100: a flag parsed ten times a second.
 */
function setGrowth(growing: boolean, again = false): void {
  if (!again && growth.stopped === !growing) return;
  v8.setFlagsFromString(`--semi-space-growth-factor=${growing ? 2 : 1}`);
  growth.stopped = !growing;
}

/**
 * Runs `work` with V8's flags as they were at start. V8 stamps its code cache with a hash of
 * every flag, the growth factor too, and refuses a cache whose stamp is not that of the start
 * reading it: one written while growth was stopped would be refused, and written again, at
 * every start.
 */
export function withFlagsAsAtStart<T>(work: () => T): T {
  if (!growth.stopped) return work();
  setGrowth(true);
  try {
    return work();
  } finally {
    setGrowth(false);
  }
}

/** Both semi-spaces' size now, in bytes. */
function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

/** Whether semi-spaces of this size (both, in bytes) may grow, with this many polls parked. */
export function youngGenerationMayGrow(bytes: number, parkedPolls: number): boolean {
  const ceilingMb = parkedPolls >= MANY_PARKED_POLLS ? POLLING_SEMI_SPACE_MB : QUIET_SEMI_SPACE_MB;
  // V8 reports a little over the two semi-spaces: half a semi-space of margin.
  return bytes < (2 * ceilingMb - 0.5) * 1024 * 1024;
}

/**
 * V8's flags a new worker thread sets as its first act, passed in its workerData. Each new
 * V8 isolate (a worker thread's) puts a growth factor under 2 back to 2 as it starts, and the
 * server's young generation then grew to its ceiling with few polls parked: the worker puts
 * it back at once, and the server again when it hears the worker is running (by then it may
 * have decided otherwise).
 */
export function flagsForNewWorker(): string[] {
  return growth.stopped ? ['--semi-space-growth-factor=1'] : [];
}

/**
 * Sizes the young generation after every collection (see above), when the server runs with
 * HEAP_FLAGS; started with flags of the person's own, V8 is left as they set it. Returns a
 * function that stops it.
 */
export function governYoungGeneration(parkedPolls: () => number): () => void {
  const follow = () => setGrowth(youngGenerationMayGrow(youngGenerationBytes(), parkedPolls()));
  const observer = new PerformanceObserver(follow);
  observer.observe({ entryTypes: ['gc'] });
  const reassert = () => setGrowth(!growth.stopped, true);
  const onWorker = (worker: Worker) => worker.once('online', reassert);
  process.on('worker', onWorker);
  follow();
  return () => {
    process.off('worker', onWorker);
    observer.disconnect();
    setGrowth(true);
  };
}
