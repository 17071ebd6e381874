import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { HEAP_FLAGS } from '../lib/memory/bounded-heap';
import { MANY_PARKED_POLLS, POLLING_SEMI_SPACE_MB, QUIET_SEMI_SPACE_MB, youngGenerationMayGrow } from '../lib/memory/young-generation';

const PROBE = path.join(__dirname, 'support', 'young-generation-probe.ts');
const SCRIPT = 'globalThis.probed = (n) => n * 2;';

interface Probed {
  beforeWorkerMb: number;
  whenWorkerRunsMb: number;
  afterWorkerMb: number;
  cache?: { asAtStart: string; asNow: string };
}

/** Runs the probe in a Node started with the bundle's heap flags. */
function probe(...args: string[]): Probed {
  const out = execFileSync(process.execPath, [...HEAP_FLAGS, '--import', 'tsx', PROBE, ...args], { encoding: 'utf8', cwd: path.join(__dirname, '..') });
  return JSON.parse(out.trim().split('\n').pop()!);
}

test("the young generation may grow to V8's ceiling only while many polls are parked", () => {
  const mb = 1024 * 1024;
  assert.equal(HEAP_FLAGS.includes(`--max-semi-space-size=${POLLING_SEMI_SPACE_MB}`), true);
  assert.equal(youngGenerationMayGrow(2 * mb, 0), true);
  assert.equal(youngGenerationMayGrow(2 * QUIET_SEMI_SPACE_MB * mb, 0), false);
  assert.equal(youngGenerationMayGrow(2 * QUIET_SEMI_SPACE_MB * mb, MANY_PARKED_POLLS - 1), false);
  assert.equal(youngGenerationMayGrow(2 * QUIET_SEMI_SPACE_MB * mb, MANY_PARKED_POLLS), true);
  assert.equal(youngGenerationMayGrow(2 * POLLING_SEMI_SPACE_MB * mb, MANY_PARKED_POLLS), false);
});

test('in a Node with the heap flags, surviving garbage grows the young generation to 4 MB a semi-space with few polls parked, to 32 with many; a worker thread\'s start does not undo it', () => {
  const few = probe('0', SCRIPT);
  assert.ok(few.beforeWorkerMb <= 2 * QUIET_SEMI_SPACE_MB + 1, `few polls: ${few.beforeWorkerMb} MB`);
  // A starting worker's V8 puts the growth factor back to 2, until the worker's first line sets
  // it again: scavenges in between (a few milliseconds) may grow the young generation, but once
  // the worker runs it grows no further (without setting it again, it reached V8's ceiling).
  assert.ok(few.afterWorkerMb <= few.whenWorkerRunsMb, `after the worker: ${few.afterWorkerMb} MB, ${few.whenWorkerRunsMb} MB when it ran`);
  assert.ok(few.afterWorkerMb < 2 * POLLING_SEMI_SPACE_MB, `after the worker: ${few.afterWorkerMb} MB`);
  const many = probe(String(MANY_PARKED_POLLS));
  assert.ok(many.beforeWorkerMb >= 2 * POLLING_SEMI_SPACE_MB - 1, `many polls: ${many.beforeWorkerMb} MB`);

  // V8 stamps a code cache with its flags, the growth factor among them: the cache the server
  // writes while growth is stopped is made with the flags of a start, so the next start takes it.
  const read = (cache: string) => {
    const program = "const vm = require('node:vm'); const [text, cache] = process.argv.slice(1); console.log(new vm.Script(text, { cachedData: Buffer.from(cache, 'base64') }).cachedDataRejected)";
    return execFileSync(process.execPath, [...HEAP_FLAGS, '-e', program, SCRIPT, cache], { encoding: 'utf8' }).trim() === 'true';
  };
  assert.equal(read(few.cache!.asAtStart), false, 'the cache made as at start is taken');
  assert.equal(read(few.cache!.asNow), true, 'one made with growth stopped would be refused');
});
