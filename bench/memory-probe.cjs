/**
 * A measuring aid for bench/memory.ts --probe, loaded into the server with `node --require`:
 * on SIGUSR2 it prints one line to stderr, `memory-probe {...}`, with where the process's
 * memory is: V8's heap (each space, in use and reserved), memory V8 tracks outside it (array
 * buffers, Buffers), and the kernel's split of RSS into anonymous memory (heap, C heap, SQLite's
 * page cache) and mapped files (the node binary, shared libraries). With STOA_PROBE_FULL_GC=1
 * it first forces a full collection, to tell what is kept from garbage not yet collected.
 * With STOA_PROBE_SNAPSHOTS=<folder> it also writes a heap snapshot there (slow, and the
 * snapshot takes memory of its own while written: for finding what holds memory, not for figures).
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
  return { rss: field('VmRSS'), rssAnon: field('RssAnon'), rssFile: field('RssFile'), hwm: field('VmHWM') };
}

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
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    heapUsedBeforeGc: forceGc ? mb(before.heapUsed) : undefined,
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    spaces,
  };
  if (process.env.STOA_PROBE_SNAPSHOTS) {
    figures.snapshot = v8.writeHeapSnapshot(require('node:path').join(process.env.STOA_PROBE_SNAPSHOTS, `stoa-${Date.now()}.heapsnapshot`));
  }
  process.stderr.write(`memory-probe ${JSON.stringify(figures)}\n`);
});
