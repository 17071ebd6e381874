import { POLLING_SEMI_SPACE_MB } from './young-generation';

/**
 * The bundle bounds its own memory. V8 sizes its heap from the machine's memory (gigabytes on
 * a server) and lets it grow to several times what is live before collecting; the flags below
 * keep it to what a chat server needs, and they take effect only when the process starts
 * (v8.setFlagsFromString comes too late for them). So `node dist/stoa.js` started without
 * them replaces itself, same process ID, by `node <flags> dist/stoa.js ...`: Node 20 has no
 * exec of its own, and koffi (already used for malloc_trim) calls the C library's execve.
 * Flags given by the person starting it (on the command line or in NODE_OPTIONS) win: then
 * nothing is done. Where execve cannot be reached (no glibc), the server runs as started.
 */

/**
 * The old generation's ceiling, and the young generation's semi-spaces' (V8's default is 16 MB
 * each): the server itself keeps them at a few MB unless many long polls are parked
 * (young-generation.ts).
 */
export const HEAP_FLAGS = ['--max-old-space-size=256', `--max-semi-space-size=${POLLING_SEMI_SPACE_MB}`];

/** Whether this process runs with HEAP_FLAGS, as restartWithBoundedHeap starts it. */
export function runsWithOwnHeapFlags(): boolean {
  return HEAP_FLAGS.every((flag) => process.execArgv.includes(flag));
}
/**
 * glibc's malloc, set through its environment (read when the new image starts; any of them
 * the person starting the server has set is kept). It makes an arena per thread that
 * allocates, up to eight per core; V8's and libuv's threads each keep freed memory in their
 * own: two arenas hold what a burst freed in two places instead of a dozen. Its threshold
 * for giving a large block its own mapping starts at 128 KB but rises to the size of every
 * such block freed (up to 32 MB), so after the first large request bodies every later one
 * is carved from the heap, where what it leaves free stays resident; a fixed threshold
 * keeps each block of 128 KB or more in a mapping of its own, returned when freed.
 */
export const MALLOC_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };
/** fcntl's command that sets a descriptor's flags, and the flag itself (Linux). */
const F_SETFD = 2;

/** Whether heap flags were given already, by whoever started the process. */
function heapFlagsGiven(): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((flag) => /^--max-(old|semi)-space-size\b/.test(flag));
}

/**
 * Replaces this process by the same command with HEAP_FLAGS, unless they (or the person's own)
 * are there already. Returns only if nothing was done.
 */
export function restartWithBoundedHeap(): void {
  if (process.platform !== 'linux' || heapFlagsGiven()) return;
  let libc;
  try {
    const koffi = require('koffi') as typeof import('koffi');
    libc = koffi.load('libc.so.6');
  } catch {
    return;
  }
  const execve = libc.func('int execve(const char *path, const char **argv, const char **envp)');
  const fcntl = libc.func('int fcntl(int fd, int cmd, ...)');
  // Node opens its standard streams close-on-exec; the new image must have them.
  for (const fd of [0, 1, 2]) fcntl(fd, F_SETFD, 'int', 0);
  const argv = [process.execPath, ...HEAP_FLAGS, ...process.execArgv, ...process.argv.slice(1), null];
  const env = Object.entries({ ...MALLOC_ENV, ...process.env }).map(([name, value]) => `${name}=${value}`);
  execve(process.execPath, argv, [...env, null]);
  // Only a failed execve returns: go on as started.
}
