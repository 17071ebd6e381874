/**
 * Start-up benchmark: how long the bundle (dist/stoa.js, as `npm run build` makes it) takes
 * from `node` being started to printing "Stoa is listening on", and how much memory it holds
 * once idle, on a fresh data folder (the first start: the organization is created and the
 * owner's password hashed) and on the same folder again (a restart). A bare Express +
 * better-sqlite3 server that opens one database file and listens is measured in the same run,
 * as the floor this stack sets on this machine at this moment. Starts alternate between the
 * kinds, so a burst of load on the shared machine falls on all of them alike.
 *
 * Memory is read twice: --idle-ms after the ready line, and again --settle-ms after it, once
 * the server has been quiet long enough to give back what loading it left behind (Stoa does
 * after 10 s without requests, see lib/memory/idle-release.ts; V8 also shrinks an idle heap
 * by itself after a while). --settle-ms 0 leaves the second reading out.
 *
 *   npm run bench:startup -- [--runs 15] [--idle-ms 1500] [--settle-ms 20000] [--bundle path/to/stoa.js] [--json]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from '../scripts/build';
import { rssMb } from './api';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    'idle-ms': { type: 'string', default: '1500' },
    'settle-ms': { type: 'string', default: '20000' },
    /** Measure this bundle instead of building dist/stoa.js (to compare two builds in one run). */
    bundle: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const IDLE_MS = Number(args['idle-ms']);
const SETTLE_MS = Number(args['settle-ms']);
const READY_LINE = 'Stoa is listening on';
const root = path.resolve(__dirname, '..');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The bare yardstick: Express and better-sqlite3 opening a WAL database and listening. */
const BARE_SERVER = `
const Database = require('better-sqlite3');
const express = require('express');
const path = require('node:path');
const db = new Database(path.join(process.argv[2], 'bare.db'));
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
const app = express();
app.get('/', (req, res) => res.json({ n: db.prepare('SELECT count(*) AS n FROM t').get().n }));
const server = app.listen(0, '127.0.0.1', () => console.log('${READY_LINE} http://127.0.0.1:' + server.address().port));
`;

interface Start {
  readyMs: number;
  /** CPU time (user + system) the process had used when it printed its ready line. */
  readyCpuMs: number;
  idleRssMb: number;
  /** RSS SETTLE_MS after the ready line (NaN with --settle-ms 0). */
  settledRssMb: number;
}

/** A process's CPU time so far (user + system), from /proc, in ms (10 ms resolution). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command's ")".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Starts a server, times it to its ready line, waits while it idles, reads its RSS and kills it. */
function startOnce(script: string, extraArgs: string[]): Promise<Start> {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    const child = spawn(process.execPath, [script, ...extraArgs], { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    let output = '';
    let readyMs: number | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (readyMs === undefined && output.includes(READY_LINE)) {
        readyMs = performance.now() - startedAt;
        const readyCpuMs = cpuMs(child.pid!);
        void (async () => {
          await sleep(IDLE_MS);
          const idleRssMb = rssMb(child.pid!);
          let settledRssMb = NaN;
          if (SETTLE_MS > IDLE_MS) {
            await sleep(SETTLE_MS - IDLE_MS);
            settledRssMb = rssMb(child.pid!);
          }
          child.once('exit', () => resolve({ readyMs: readyMs!, readyCpuMs, idleRssMb, settledRssMb }));
          child.kill('SIGKILL');
        })();
      }
    });
    child.once('exit', (code) => {
      if (readyMs === undefined) reject(new Error(`${script} exited with ${code} before listening:\n${output}`));
    });
  });
}

async function main(): Promise<void> {
  const bundles = args.bundle?.length ? args.bundle.map((b) => path.resolve(b)) : [await buildBundle()];
  const work = mkdtempSync(path.join(tmpdir(), 'stoa-bench-startup-'));
  // Beside the checkout's node_modules, so require() finds express and better-sqlite3.
  const bare = path.join(root, 'dist', 'bare-server.js');
  writeFileSync(bare, BARE_SERVER);
  const machine = { nproc: cpus().length, node: process.version, loadBefore: loadavg()[0] };
  if (!args.json) console.log(`${machine.nproc} CPUs, Node ${machine.node}, load average ${machine.loadBefore.toFixed(2)}`);

  type Kind = { name: string; run: (i: number) => Promise<Start> };
  const kinds: Kind[] = [];
  bundles.forEach((bundle, b) => {
    const label = bundles.length > 1 ? `${path.relative(root, bundle)}: ` : '';
    const folder = (i: number) => path.join(work, `b${b}-${i}`);
    const flags = (i: number) => ['--data', folder(i), '--port', '0'];
    kinds.push({ name: `${label}first start (empty data folder)`, run: (i) => startOnce(bundle, flags(i)) });
    kinds.push({ name: `${label}restart (same folder)`, run: (i) => startOnce(bundle, flags(i)) });
  });
  kinds.push({ name: 'bare Express + better-sqlite3', run: () => startOnce(bare, [mkdtempSync(path.join(work, 'bare-'))]) });

  const results = kinds.map(() => [] as Start[]);
  // One warm-up round (disk caches), not counted.
  for (let i = -1; i < RUNS; i++) {
    for (const [k, kind] of kinds.entries()) {
      const start = await kind.run(i);
      if (i >= 0) results[k].push(start);
    }
  }
  rmSync(work, { recursive: true, force: true });
  rmSync(bare, { force: true });
  const summary = kinds.map((kind, k) => ({
    name: kind.name,
    runs: results[k].length,
    readyCpuMs: median(results[k].map((r) => r.readyCpuMs)),
    readyMs: { median: median(results[k].map((r) => r.readyMs)), min: Math.min(...results[k].map((r) => r.readyMs)), max: Math.max(...results[k].map((r) => r.readyMs)) },
    idleRssMb: { median: median(results[k].map((r) => r.idleRssMb)), min: Math.min(...results[k].map((r) => r.idleRssMb)), max: Math.max(...results[k].map((r) => r.idleRssMb)) },
    settledRssMb: { median: median(results[k].map((r) => r.settledRssMb)), min: Math.min(...results[k].map((r) => r.settledRssMb)), max: Math.max(...results[k].map((r) => r.settledRssMb)) },
  }));
  const loadAfter = loadavg()[0];
  if (args.json) {
    console.log(JSON.stringify({ date: new Date().toISOString(), machine, loadAfter, idleMs: IDLE_MS, settleMs: SETTLE_MS, summary }));
    return;
  }
  for (const s of summary) {
    console.log(
      `${s.name.padEnd(48)} ready: median ${s.readyMs.median.toFixed(0)} ms (${s.readyMs.min.toFixed(0)} to ${s.readyMs.max.toFixed(0)}), ` +
        `CPU time until ready: median ${s.readyCpuMs.toFixed(0)} ms; ` +
        `idle RSS after ${IDLE_MS / 1000} s: median ${s.idleRssMb.median.toFixed(1)} MB (${s.idleRssMb.min.toFixed(1)} to ${s.idleRssMb.max.toFixed(1)})` +
        (SETTLE_MS > IDLE_MS
          ? `; after ${SETTLE_MS / 1000} s: median ${s.settledRssMb.median.toFixed(1)} MB (${s.settledRssMb.min.toFixed(1)} to ${s.settledRssMb.max.toFixed(1)})`
          : ''),
    );
  }
  console.log(`load average after: ${loadAfter.toFixed(2)}`);
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
