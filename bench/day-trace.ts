/**
 * Reads what `bench/day.ts --trace DIR` wrote and tells where the requests' time went:
 *
 *   node --import tsx bench/day-trace.ts DIR [--from S] [--to S] [--slow MS]
 *
 * - each request kind's time split into its phases: waiting for a socket, the new connection's
 *   handshake, waiting for the answer's first byte (the server's queue and its work), and
 *   reading the answer (its transfer, and the load worker's own turns);
 * - the failed requests, by the last phase they reached;
 * - second by second (from --from to --to, default the first 60 s): the server's event-loop
 *   delay, its CPU and garbage collection, what it accepted, began and answered, the accept
 *   queue, the load workers' CPU and their own loops, and the requests sent and answered.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { RequestTrace, WorkerSecond } from './day';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: 'string', default: '-1' },
    to: { type: 'string', default: '60' },
    slow: { type: 'string', default: '1000' },
  },
});
const dir = positionals[0];
if (!dir) throw new Error('usage: bench/day-trace.ts DIR');

const lines = <T>(file: string): T[] =>
  readFileSync(path.join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
const day = JSON.parse(readFileSync(path.join(dir, 'day.json'), 'utf8')) as { startAt: number };
const files = readdirSync(dir);
const requests = files.filter((f) => /^worker-\d+-requests\.ndjson$/.test(f)).flatMap((f) => lines<RequestTrace>(f));
const workerSeconds = files.filter((f) => /^worker-\d+-seconds\.ndjson$/.test(f)).map((f) => lines<WorkerSecond>(f));
const serverLoop = lines<{
  at: number;
  loopP99: number;
  loopMax: number;
  cpuMs: number;
  gcCount: number;
  gcMs: number;
  gcMaxMs: number;
  connections: number;
  requests: number;
  answered: number;
  slowestMs: number;
  slowest: string;
}>('server-loop.ndjson').map((s) => ({ ...s, at: s.at - day.startAt }));
const kernel = lines<{ at: number; waiting: number | null; counters: Record<string, number>; serverThread?: { runNs: number; waitNs: number } }>('kernel.ndjson');

const sortedPercentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const f0 = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0));

/** A request's phases in ms; undefined where it did not get that far. */
function phases(t: RequestTrace) {
  const ready = t.connected ?? t.socket;
  return {
    socketWait: t.socket !== undefined ? t.socket - t.sent : undefined,
    connect: t.connected !== undefined && t.socket !== undefined ? t.connected - t.socket : undefined,
    toFirstByte: t.first !== undefined && ready !== undefined ? t.first - ready : undefined,
    transfer: t.end !== undefined && t.first !== undefined ? t.end - t.first : undefined,
    total: t.end !== undefined ? t.end - t.sent : undefined,
  };
}
type Phase = keyof ReturnType<typeof phases>;
const PHASES: Phase[] = ['socketWait', 'connect', 'toFirstByte', 'transfer', 'total'];

function phaseTable(title: string, traces: RequestTrace[]): void {
  console.log(`\n${title}\n| kind | n | new conn. | ${PHASES.map((p) => `${p} p50 / p99`).join(' | ')} |\n|---|---|---|${PHASES.map(() => '---').join('|')}|`);
  const kinds = [...new Set(traces.map((t) => t.kind))].sort();
  for (const kind of kinds) {
    const mine = traces.filter((t) => t.kind === kind && t.end !== undefined);
    const of = (p: Phase) => mine.map((t) => phases(t)[p]).filter((v): v is number => v !== undefined);
    console.log(
      `| ${kind} | ${mine.length} | ${mine.filter((t) => !t.reused).length} | ${PHASES.map((p) => `${f0(sortedPercentile(of(p), 50))} / ${f0(sortedPercentile(of(p), 99))}`).join(' | ')} |`,
    );
  }
}

phaseTable('Answered requests, phases in ms:', requests);
const slowMs = Number(args.slow);
const slow = requests.filter((t) => t.end !== undefined && t.end - t.sent > slowMs);
phaseTable(`Those slower than ${slowMs} ms:`, slow);

const failed = requests.filter((t) => t.failed !== undefined);
if (failed.length) {
  console.log(`\nFailed: ${failed.length}`);
  const reached = new Map<string, number>();
  for (const t of failed) {
    const phase = t.first !== undefined ? 'answer begun' : t.connected !== undefined ? 'connected, no answer' : t.socket !== undefined ? (t.reused ? 'reused socket, no answer' : 'socket, never connected') : 'no socket';
    const key = `${t.kind}: ${phase}`;
    reached.set(key, (reached.get(key) ?? 0) + 1);
  }
  for (const [key, n] of reached) console.log(`  ${key}: ${n}`);
  const sentAt = failed.map((t) => t.sent);
  console.log(`  sent between ${f0(Math.min(...sentAt))} and ${f0(Math.max(...sentAt))} ms into the day; connected ${failed.filter((t) => t.connected !== undefined).map((t) => f0(t.connected! - t.sent)).slice(0, 10).join(', ')} ms after sending (first few)`);
}

// How much of the time the server's main thread wanted a CPU it got, over the first 30 s.
const within = kernel.filter((x) => x.serverThread && x.at >= 0 && x.at <= 30_000);
if (within.length > 1) {
  const a = within[0].serverThread!;
  const b = within.at(-1)!.serverThread!;
  const run = (b.runNs - a.runNs) / 1e9;
  const wait = (b.waitNs - a.waitNs) / 1e9;
  const span = (within.at(-1)!.at - within[0].at) / 1000;
  console.log(`\nServer main thread over the first ${span.toFixed(0)} s: on a CPU ${run.toFixed(1)} s, runnable but waiting for a CPU ${wait.toFixed(1)} s (it got ${((run / (run + wait)) * 100).toFixed(0)}% of the time it wanted)`);
}

// Second by second.
const from = Number(args.from) * 1000;
const to = Number(args.to) * 1000;
console.log(
  '\n| s | srv loop p99/max ms | srv CPU ms | srv main thread on CPU / waiting for one ms | GC ms (max) | accepted | begun | answered | slowest answer | accept queue max | workers CPU ms | workers loop max ms | sent | of them slow | counters |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
);
let previousCounters: Record<string, number> | undefined;
for (let second = from; second < to; second += 1000) {
  const s = serverLoop.find((x) => x.at > second && x.at <= second + 1000);
  const k = kernel.filter((x) => x.at >= second && x.at < second + 1000);
  const waiting = k.map((x) => x.waiting ?? 0);
  const counters = k.at(-1)?.counters;
  let delta = '';
  if (counters && previousCounters) {
    delta = Object.entries(counters)
      .filter(([name, value]) => value !== previousCounters![name])
      .map(([name, value]) => `${name} +${value - previousCounters![name]}`)
      .join(', ');
  }
  if (counters) previousCounters = counters;
  const threadFrom = kernel.filter((x) => x.at < second).at(-1)?.serverThread;
  const threadTo = k.at(-1)?.serverThread;
  const thread = threadFrom && threadTo ? `${f0((threadTo.runNs - threadFrom.runNs) / 1e6)} / ${f0((threadTo.waitNs - threadFrom.waitNs) / 1e6)}` : '-';
  const w = workerSeconds.map((seconds) => seconds.find((x) => x.at > second && x.at <= second + 1000));
  const sent = requests.filter((t) => t.sent >= second && t.sent < second + 1000);
  console.log(
    `| ${(second / 1000).toFixed(0)} | ${s ? `${f0(s.loopP99)} / ${f0(s.loopMax)}` : '-'} | ${s ? s.cpuMs : '-'} | ${thread} | ${s ? `${s.gcMs} (${s.gcMaxMs})` : '-'} | ${s?.connections ?? '-'} | ${s?.requests ?? '-'} | ${s?.answered ?? '-'} | ${s && s.slowestMs ? `${s.slowestMs} ${s.slowest}` : '-'} | ${waiting.length ? Math.max(...waiting) : '-'} | ${w.map((x) => (x ? f0(x.cpuMs) : '-')).join(' + ')} | ${w.map((x) => (x ? f0(x.loopMax) : '-')).join(', ')} | ${sent.length} | ${sent.filter((t) => t.failed !== undefined || (t.end !== undefined && t.end - t.sent > slowMs)).length} | ${delta} |`,
  );
}
