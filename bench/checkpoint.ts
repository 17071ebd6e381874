/**
 * Where sends stall: how long each transaction of the send path takes when checkpoints run
 * on the server's own thread (wal_autocheckpoint alone, as before the checkpointer) and when
 * the worker-thread checkpointer runs them (lib/db.ts, startCheckpointer).
 *
 * On the own thread, autocheckpoint is replaced by the same checkpoint made explicitly after
 * every CHECKPOINT_EVERY transactions (about the 10,000 WAL pages of wal_autocheckpoint), so
 * each checkpoint's duration can be reported: the time every request waits behind it.
 *
 * Stoa's own statements for a channel message (the message row, its search entry, one
 * user_messages row per subscriber) run straight against SQLite, eight messages per
 * transaction (what group commit makes of a busy server), one transaction per turn of the
 * event loop so timers (and the checkpointer's watch) still run. Each transaction's wall time
 * is recorded: a checkpoint made by the server's connection lands inside one of them. No
 * HTTP and no rendering, so the machine's CPU load matters little; the disk is what is
 * measured.
 *
 *   node --import tsx bench/checkpoint.ts [--seconds 30] [--subscribers 50] [--rounds 2] [--json]
 *
 * A third mode checkpoints on the own thread five times as often (about 2,000 pages each), to
 * see whether smaller stalls on the own thread beat the worker.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, startCheckpointer } from '../lib/db';
import { DATABASE_FILE } from '../lib/server';
import { percentile } from './api';
import { storageWorkload } from './storage-floor';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    subscribers: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const SUBSCRIBERS = Number(args.subscribers);
const BATCH = 8;
/** Transactions between two checkpoints on the own thread: about 10,000 WAL pages at 50 subscribers... */
const CHECKPOINT_EVERY = 150;
/** ...or about 2,000 (smaller checkpoints, five times as often). */
const SMALL_CHECKPOINT_EVERY = 30;

type Mode = 'own thread' | 'own, small' | 'worker';

async function run(mode: Mode): Promise<Record<string, number | string>> {
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-checkpoint-'));
  const file = path.join(data, DATABASE_FILE);
  const db = openDatabase(file);
  const stop = mode === 'worker' ? startCheckpointer(file, (line) => console.error(line)) : async () => {};
  const { store } = storageWorkload(db, SUBSCRIBERS, BATCH);
  const times: number[] = [];
  const checkpoints: Array<{ ms: number; pages: number }> = [];
  const every = mode === 'own thread' ? CHECKPOINT_EVERY : mode === 'own, small' ? SMALL_CHECKPOINT_EVERY : 0;
  if (every) db.pragma('wal_autocheckpoint = 0');
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    const begun = performance.now();
    store.immediate();
    if (every && times.length % every === every - 1) {
      const at = performance.now();
      const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
      checkpoints.push({ ms: performance.now() - at, pages: log });
    }
    times.push(performance.now() - begun);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const walMb = statSync(`${file}-wal`).size / 2 ** 20;
  await stop();
  db.close();
  rmSync(data, { recursive: true, force: true });
  const result = {
    mode,
    walMb: walMb.toFixed(0),
    transactions: times.length,
    messagesPerSecond: Math.round((times.length * BATCH) / SECONDS),
    medianMs: percentile(times, 50),
    p99Ms: percentile(times, 99),
    p999Ms: percentile(times, 99.9),
    maxMs: Math.max(...times),
    over50Ms: times.filter((t) => t > 50).length,
    checkpointsOnThread: checkpoints.length,
    checkpointMedianMs: checkpoints.length ? percentile(checkpoints.map((c) => c.ms), 50) : 0,
    checkpointMaxMs: checkpoints.length ? Math.max(...checkpoints.map((c) => c.ms)) : 0,
    checkpointMedianPages: checkpoints.length ? percentile(checkpoints.map((c) => c.pages), 50) : 0,
  };
  if (!args.json) {
    console.log(
      `${mode.padEnd(10)}: ${result.transactions} transactions (${result.messagesPerSecond} messages/s); each: median ${result.medianMs.toFixed(2)} ms, ` +
        `p99 ${result.p99Ms.toFixed(2)} ms, p99.9 ${result.p999Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms; ${result.over50Ms} over 50 ms` +
        (checkpoints.length
          ? `; ${checkpoints.length} checkpoints on this thread of ${result.checkpointMedianPages} WAL pages, median ${result.checkpointMedianMs.toFixed(1)} ms, max ${result.checkpointMaxMs.toFixed(1)} ms`
          : '') +
        `; WAL file ${result.walMb} MB at the end`,
    );
  }
  return result;
}

async function main(): Promise<void> {
  const machine = { nproc: cpus().length, node: process.version, loadBefore: loadavg()[0] };
  if (!args.json) console.log(`${machine.nproc} CPUs, Node ${machine.node}, load average ${machine.loadBefore.toFixed(2)}; ${BATCH} messages of ${SUBSCRIBERS} rows per transaction`);
  // Alternated, so that a change in the machine's load falls on every mode alike.
  const modes: Mode[] = ['own thread', 'worker', 'own, small'];
  const results = [];
  for (let round = 0; round < Number(args.rounds); round++) for (const mode of modes) results.push(await run(mode));
  if (args.json) console.log(JSON.stringify({ date: new Date().toISOString(), machine, loadAfter: loadavg()[0], results }));
  else console.log(`load average after: ${loadavg()[0].toFixed(2)}`);
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
