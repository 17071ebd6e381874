/**
 * Handing the C library's free memory back to the system. glibc's malloc keeps what the
 * process freed in its own lists, for the next allocation: after a burst of large request
 * bodies, responses and SQLite pages, tens of MB stay resident although nothing uses them, in
 * the middle of the main heap and in the heaps of V8's and libuv's threads, where freeing
 * alone never returns them. glibc's `malloc_trim` does, but JavaScript cannot call a C
 * function; koffi, a maintained FFI library with prebuilt binaries, can. Only on Linux with
 * glibc: other C libraries (musl on Alpine) and systems have no such call, and nothing is done.
 */

type MallocTrim = (pad: number) => number;

let mallocTrim: MallocTrim | null | undefined;

/** Whether the process runs on glibc: Node's diagnostic report names the glibc, and nothing on musl or other systems. */
export function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return Boolean(header?.glibcVersionRuntime);
}

/** glibc's malloc_trim, bound on first use; null where there is no glibc or koffi cannot load. */
function boundMallocTrim(): MallocTrim | null {
  if (mallocTrim !== undefined) return mallocTrim;
  mallocTrim = null;
  if (!runsOnGlibc()) return null;
  try {
    const koffi = require('koffi') as typeof import('koffi');
    mallocTrim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as MallocTrim;
  } catch {
    // No prebuilt koffi for this machine: memory is given back only as glibc decides.
  }
  return mallocTrim;
}

/**
 * Has glibc return every whole free page of its heaps to the system (a few ms per hundred MB
 * held). Returns whether it could be asked.
 */
export function trimNativeHeap(): boolean {
  const trim = boundMallocTrim();
  if (!trim) return false;
  trim(0);
  return true;
}
