/**
 * A measuring aid for bench/memory.ts --probe, loaded into the server with `node --require`:
 * on SIGUSR2 it prints one line to stderr, `memory-probe {...}`, with where the process's
 * memory is: V8's heap (each space, in use and reserved), memory V8 tracks outside it (array
 * buffers, Buffers), and the kernel's split of RSS into anonymous memory (heap, C heap, SQLite's
 * page cache) and mapped files (the node binary, shared libraries), glibc's own count of its
 * heaps (held, in use, free) and the resident size of its main heap. With STOA_PROBE_FULL_GC=1
 * it first forces a full collection, to tell what is kept from garbage not yet collected.
 * With STOA_PROBE_SNAPSHOTS=<folder> it also writes a heap snapshot there each time a file
 * named `take` is in that folder (it removes the file: create it again for the next one; slow,
 * and the snapshot takes memory of its own while written: for finding what holds memory, not
 * for figures). STOA_PROBE_V8_FLAGS sets V8 flags at start, to try one without a new build.
 * Not part of the server: it only reads.
 */
'use strict';
const { readFileSync } = require('node:fs');
const v8 = require('node:v8');
const vm = require('node:vm');

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function kernelFigures() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const field = (name) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  };
  return { rss: field('VmRSS'), rssAnon: field('RssAnon'), rssFile: field('RssFile'), hwm: field('VmHWM'), ...mappingFigures() };
}

/** Resident memory of glibc's main heap ([heap]) and of the largest anonymous mappings (the other arena, V8's reservations). */
function mappingFigures() {
  let mainHeap = 0;
  let current = null;
  const anon = [];
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      current = { name: header[5], perms: header[3], inode: header[4], size: (parseInt(header[2], 16) - parseInt(header[1], 16)) / 1024 };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) {
      const kb = Number(rss[1]);
      if (current.name === '[heap]') mainHeap += kb;
      else if (current.name === '' && current.inode === '0') anon.push({ kb, size: current.size });
    }
  }
  anon.sort((a, b) => b.kb - a.kb);
  return { mainHeap: mb(mainHeap * 1024), largestAnon: anon.slice(0, 4).map((m) => `${mb(m.kb * 1024)}/${mb(m.size * 1024)}`) };
}

/**
 * glibc's own count of its heaps (mallinfo2, every arena): what it holds from the system, what
 * of that is in use, what is free in its lists. null where there is no glibc or koffi.
 */
let mallinfo2;
function mallocFigures() {
  if (mallinfo2 === undefined) {
    mallinfo2 = null;
    try {
      const koffi = require('koffi');
      const fields = ['arena', 'ordblks', 'smblks', 'hblks', 'hblkhd', 'usmblks', 'fsmblks', 'uordblks', 'fordblks', 'keepcost'];
      const struct = koffi.struct('stoa_probe_mallinfo2', Object.fromEntries(fields.map((name) => [name, 'size_t'])));
      mallinfo2 = koffi.load('libc.so.6').func('mallinfo2', struct, []);
    } catch {
      return null;
    }
  }
  if (!mallinfo2) return null;
  const info = mallinfo2();
  const n = (value) => mb(Number(value));
  // arena: taken with brk/sbrk and arenas' heaps; hblkhd: blocks in mappings of their own.
  return { heaps: n(info.arena), mapped: n(info.hblkhd), inUse: n(info.uordblks), free: n(info.fordblks), chunks: Number(info.ordblks) };
}

// V8 flags to try (measuring only), set before the server's code is compiled.
if (process.env.STOA_PROBE_V8_FLAGS) v8.setFlagsFromString(process.env.STOA_PROBE_V8_FLAGS);

let forceGc;
if (process.env.STOA_PROBE_FULL_GC === '1') {
  v8.setFlagsFromString('--expose-gc');
  forceGc = vm.runInNewContext('gc');
}

process.on('SIGUSR2', () => {
  const before = process.memoryUsage();
  if (forceGc) forceGc(process.env.STOA_PROBE_GC_OPTIONS ? JSON.parse(process.env.STOA_PROBE_GC_OPTIONS) : undefined);
  const usage = process.memoryUsage();
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics()) {
    spaces[space.space_name.replace(/_space$/, '')] = { size: mb(space.space_size), used: mb(space.space_used_size) };
  }
  const figures = {
    kernel: kernelFigures(),
    malloc: mallocFigures(),
    code: mb(v8.getHeapCodeStatistics().code_and_metadata_size + v8.getHeapCodeStatistics().bytecode_and_metadata_size),
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    heapUsedBeforeGc: forceGc ? mb(before.heapUsed) : undefined,
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    spaces,
  };
  if (process.env.STOA_PROBE_SNAPSHOTS && require('node:fs').existsSync(require('node:path').join(process.env.STOA_PROBE_SNAPSHOTS, 'take'))) {
    require('node:fs').rmSync(require('node:path').join(process.env.STOA_PROBE_SNAPSHOTS, 'take'));
    figures.snapshot = v8.writeHeapSnapshot(require('node:path').join(process.env.STOA_PROBE_SNAPSHOTS, `stoa-${Date.now()}.heapsnapshot`));
  }
  process.stderr.write(`memory-probe ${JSON.stringify(figures)}\n`);
});
