import type { Server } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { clearRenderedTexCache } from '../markdown/render';
import type { Stoa } from '../stoa';
import { trimNativeHeap } from './native-trim';

/**
 * Giving memory back once the server goes quiet. A burst of work (a flood of requests, many
 * clients at once) grows what the process holds: V8's heap grows to fit the burst's garbage
 * and keeps its pages until a collection finds them empty, SQLite keeps the pages it read in
 * its cache, and the caches of formulas, narrow queries and recent message rows fill. When no request has come for
 * QUIET_MS and there is something to give back, the server empties those caches, has V8
 * collect and compact its whole heap, has SQLite free its unused cache pages, and has the C library hand
 * its free memory back to the system (native-trim.ts). Nothing of this changes
 * what a client sees; the next request refills what it needs.
 */

/** No request for this long: the server is quiet. */
export const QUIET_MS = 10_000;
/**
 * The first release comes this long after the server listens, if no request came meanwhile:
 * what loading left behind (Node's loader's copy of the whole bundle, the buffers its code was
 * read into) is garbage by then, and the code cache, written a second after listening
 * (lib/code-cache.ts), is out.
 */
const AFTER_START_MS = 1200;
/** How often the server looks whether it is quiet. */
const CHECK_EVERY_MS = 5_000;
/** Resident memory this much above its level after the last release makes another worth it. */
const GROWTH_BYTES = 16 * 1024 * 1024;
/** Event text this large let go of by the event queues (collected, acknowledged) makes one worth it too. */
const QUEUE_RELEASE_BYTES = 4 * 1024 * 1024;

export interface Release {
  /** Formulas dropped from the rendering cache. */
  formulas: number;
  /** Statements prepared for narrows that were forgotten (SQLite frees each once collected). */
  narrowStatements: number;
  /** Whether V8 collected its whole heap (false only if it would not let us ask). */
  heapCollected: boolean;
  /** Whether the C library was asked to return its free memory (false where it is not glibc). */
  nativeHeapTrimmed: boolean;
}

let collector: (() => void) | null | undefined;

/**
 * V8's full collection, as a function. V8 offers it to programs only behind its --expose-gc
 * flag, which a server run as `node dist/stoa.js` does not have; the flag takes effect for
 * contexts made after it is set, so it is set for one new context, whose `gc` is kept, and
 * then unset. Node documents `v8.setFlagsFromString` as to be used with care; this flag only
 * adds a global function to that context. If Node was started with --expose-gc, its `gc` is
 * used. null if neither works: memory is then given back only when V8 decides to.
 */
function heapCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collector = exposed as () => void);
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    collector = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collector = null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/**
 * A full collection that also compacts the old generation. V8's own full collections move
 * objects only off the pages it finds most fragmented, so after a burst the old generation
 * keeps pages partly empty, each holding its whole size resident: measured after the
 * benchmark's flood, 25 MB committed for 18 MB in use. Compacting every page, once, while
 * nobody waits, gives those pages back. V8 reads the flag at each full collection, so it is
 * set for this one and unset at once: collections during requests stay as V8 chooses. Where
 * the flag cannot be set, the collection is plain.
 */
function collectCompacting(collect: () => void): void {
  let compacting = false;
  try {
    v8.setFlagsFromString('--compact-on-every-full-gc');
    compacting = true;
  } catch {
    // Flags frozen by this Node: a plain full collection.
  }
  try {
    collect();
  } finally {
    if (compacting) v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * Empties the caches that refill on demand, has V8 collect its whole heap, has SQLite free
 * the pages of its cache that nothing uses, then has the C library return what all of this
 * freed. A full collection stops everything while it runs, longer the larger the heap: it
 * runs only while the server is quiet.
 */
export function releaseMemory(stoa: Stoa): Release {
  const formulas = clearRenderedTexCache();
  const narrowStatements = stoa.messages.forgetNarrowStatements();
  stoa.messages.forgetKeptRows();
  const collect = heapCollector();
  collect?.();
  stoa.db.pragma('shrink_memory');
  const nativeHeapTrimmed = trimNativeHeap();
  return { formulas, narrowStatements, heapCollected: collect !== null, nativeHeapTrimmed };
}

/**
 * Has V8 compact its old generation (see collectCompacting), then the C library return what
 * that freed. Compacting copies every live object to fresh pages before the old ones go, so
 * for a moment the heap holds its live objects twice: run after releaseMemory, once V8 has
 * returned the pages that collection emptied, the moment's peak starts from the lower level.
 * Returns whether V8 would let us ask.
 */
export function compactHeap(): boolean {
  const collect = heapCollector();
  if (!collect) return false;
  collectCompacting(collect);
  trimNativeHeap();
  return true;
}

/**
 * Releases memory (releaseMemory) each time the server has been quiet for QUIET_MS after
 * something grew: once after start-up (loading the server leaves garbage behind; sooner, at
 * AFTER_START_MS, if no request comes before), and again
 * whenever resident memory has grown by GROWTH_BYTES since the last release or the event
 * queues have let go of QUEUE_RELEASE_BYTES (queues of a flood collected at the end of their
 * life); a moment later, if still quiet, it compacts the heap (compactHeap). A server that
 * stays busy is never interrupted; an idle one is left alone once its memory is back down.
 * Returns a function that stops it.
 */
export function releaseMemoryWhenQuiet(stoa: Stoa, server: Server): () => void {
  let lastRequestAt = performance.now();
  let releasedOnce = false;
  let rssAfterRelease = process.memoryUsage.rss();
  let queueBytesAtRelease = stoa.queues.releasedBytes;
  const onRequest = () => {
    lastRequestAt = performance.now();
  };
  server.on('request', onRequest);
  let settle: NodeJS.Timeout | undefined;
  const release = (rss: number) => {
    releasedOnce = true;
    releaseMemory(stoa);
    queueBytesAtRelease = stoa.queues.releasedBytes;
    rssAfterRelease = rss;
    // V8 returns freed pages to the system on a thread of its own: the compaction, and the
    // new level, come a moment later.
    const releasedAt = performance.now();
    settle = setTimeout(() => {
      if (lastRequestAt < releasedAt) compactHeap();
      settle = setTimeout(() => {
        rssAfterRelease = process.memoryUsage.rss();
      }, 1000).unref();
    }, 1000).unref();
  };
  const startedAt = performance.now();
  const afterStart = setTimeout(() => {
    if (!releasedOnce && lastRequestAt <= startedAt) release(process.memoryUsage.rss());
  }, AFTER_START_MS).unref();
  const check = setInterval(() => {
    if (performance.now() - lastRequestAt < QUIET_MS) return;
    const rss = process.memoryUsage.rss();
    // V8 may have given memory back by itself since: growth counts from the lowest level seen.
    rssAfterRelease = Math.min(rssAfterRelease, rss);
    const grown = rss - rssAfterRelease >= GROWTH_BYTES;
    const letGo = stoa.queues.releasedBytes - queueBytesAtRelease >= QUEUE_RELEASE_BYTES;
    if (releasedOnce && !grown && !letGo) return;
    release(rss);
  }, CHECK_EVERY_MS).unref();
  return () => {
    clearTimeout(afterStart);
    clearInterval(check);
    clearTimeout(settle);
    server.off('request', onRequest);
  };
}
