/**
 * Message benchmarks.
 *
 * send: POST /messages to one channel whose subscribers each hold a parked long-poll (one
 * event queue per subscriber, polled again as soon as it is answered), from a fixed number of
 * concurrent senders in a closed loop, for a fixed time after a warm-up. The same load then
 * goes to a bare Express + better-sqlite3 server that stores each message with one INSERT, so
 * our throughput can be read as a ratio of what the stack itself allows on this machine at
 * this moment. Each server runs in its own process (bench/message-server.ts); at the end it
 * is killed with SIGKILL and the database file is opened again to check that every
 * acknowledged message is there. Every subscriber's queue must have received every message.
 *
 * Before both, the storage floor: Stoa's own statements for a channel message (the row, its
 * search entry, one per-user row per subscriber) run straight against SQLite in this
 * process, eight messages per transaction, for 5 s: what storage alone allows.
 *
 * fetch: GET /messages over a generated database of a million messages and ten million
 * per-user rows (bench/generate-messages-db.ts, cached): the newest 100 of a channel + topic
 * narrow, the same narrow around the first unread message, and full-text search, one request
 * at a time; latency is measured by the client.
 *
 * With --listeners N, only the first N subscribers register a queue and poll (the rest only
 * send); --listeners 0 measures sending alone, with nobody listening for events.
 *
 *   node --import tsx bench/messages.ts [--part send|fetch|all] [--seconds 30] [--subscribers 50]
 *     [--senders 16] [--listeners 50] [--no-bare] [--fetches 300] [--json]
 */
import Database from 'better-sqlite3';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../lib/db';
import { DATABASE_FILE } from '../lib/server';
import { Api, percentile, type Credentials } from './api';
import { generatedDataFolder, HOT_CHANNEL, HOT_TOPIC, SEARCH_WORD_RANK, vocabulary } from './generate-messages-db';
import { BARE_DATABASE_FILE, BENCH_OWNER } from './message-server';
import { storageWorkload } from './storage-floor';

const { values: args } = parseArgs({
  options: {
    part: { type: 'string', default: 'all' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    subscribers: { type: 'string', default: '50' },
    senders: { type: 'string', default: '16' },
    /** How many subscribers hold a queue with a parked poll; all of them unless given. */
    listeners: { type: 'string' },
    /** Leave out the bare server (and the storage floor) to measure Stoa alone. */
    'no-bare': { type: 'boolean', default: false },
    fetches: { type: 'string', default: '300' },
    /** Write a CPU profile of each server to this folder (the server then exits cleanly instead of being killed). */
    profile: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP_SECONDS = Number(args.warmup);
const SUBSCRIBERS = Number(args.subscribers);
const SENDERS = Number(args.senders);
const LISTENERS = args.listeners === undefined ? SUBSCRIBERS : Number(args.listeners);
const FETCHES = Number(args.fetches);
const CHANNEL = 'bench';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => {
  if (!args.json) console.log(line);
};

interface ServerProcess {
  child: ChildProcess;
  url: string;
}

function startServerProcess(kind: 'stoa' | 'bare', data: string): Promise<ServerProcess> {
  const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
  const child = fork(path.join(__dirname, 'message-server.ts'), [kind, data], { execArgv: ['--import', 'tsx', ...profiling] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

/** The server process's CPU time so far, user + system, in ms. */
function serverCpuMs(server: ServerProcess): Promise<number> {
  return new Promise((resolve) => {
    const listener = (message: { type: string; usage?: NodeJS.CpuUsage }) => {
      if (message.type !== 'cpu') return;
      server.child.off('message', listener);
      resolve((message.usage!.user + message.usage!.system) / 1000);
    };
    server.child.on('message', listener);
    server.child.send({ type: 'cpu' });
  });
}

/** Kills the server the hard way, as a crash would, and waits until it is gone. */
function crash(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    // A profiled server must exit by itself to write its profile.
    if (args.profile) server.child.send({ type: 'exit' });
    else server.child.kill('SIGKILL');
  });
}

/** One parked long-poll per queue, polled again as soon as it is answered; counts message events. */
class Pollers {
  private stopped = false;
  /** How many answers the polls got: with many events per answer, far fewer than events. */
  answers = 0;
  readonly received: number[];
  readonly newestSeen: number[];

  constructor(
    private readonly api: Api,
    private readonly queues: Array<{ auth: string; id: string; lastEventId: number }>,
  ) {
    this.received = queues.map(() => 0);
    this.newestSeen = queues.map(() => 0);
    queues.forEach((_, i) =>
      this.poll(i).catch((err) => {
        // Polls still parked when the server is killed end with a reset: expected then.
        if (this.stopped) return;
        console.error(err);
        process.exit(1);
      }),
    );
  }

  private async poll(i: number): Promise<void> {
    const queue = this.queues[i];
    while (!this.stopped) {
      const answer = await this.api.request('GET', '/events', queue.auth, { queue_id: queue.id, last_event_id: String(queue.lastEventId) });
      if (answer.status !== 200) throw new Error(`poll: ${JSON.stringify(answer.body)}`);
      this.answers++;
      for (const event of answer.body.events as Array<{ id: number; type: string; message?: { id: number } }>) {
        queue.lastEventId = event.id;
        if (event.type === 'heartbeat') throw new Error('a heartbeat came during the benchmark');
        if (event.type === 'message') {
          this.received[i]++;
          this.newestSeen[i] = Math.max(this.newestSeen[i], event.message!.id);
        }
      }
    }
  }

  /** Waits until every queue has seen the given message; false if that takes longer than the timeout. */
  async caughtUp(messageId: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    while (this.newestSeen.some((seen) => seen < messageId)) {
      if (performance.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  }

  stop(): void {
    this.stopped = true;
  }
}

interface SendRun {
  server: 'stoa' | 'bare';
  acknowledged: number;
  perSecond: number;
  slowestSecond: number;
  latencyMs: { median: number; p90: number; p99: number; max: number };
  errors: number;
  /** Server CPU time per acknowledged message, warm-up included, and the driver's. */
  serverCpuPerMessageMs: number;
  driverCpuPerMessageMs: number;
  durable: boolean;
  /** Whether every subscriber's queue received every message (Stoa only). */
  fannedOut?: boolean;
  /** Poll answers per message sent, over all queues (Stoa only; at most the number of subscribers). */
  pollAnswersPerMessage?: number;
}

/** Closed-loop senders; each keeps one request in flight. Returns the IDs acknowledged while measuring. */
async function sendLoad(api: Api, senders: string[]): Promise<{ ids: number[]; warmupIds: number[]; latencies: number[]; bySecond: number[]; errors: number }> {
  const ids: number[] = [];
  const warmupIds: number[] = [];
  const latencies: number[] = [];
  const bySecond = new Array<number>(SECONDS).fill(0);
  let errors = 0;
  const start = performance.now();
  const measureFrom = start + WARMUP_SECONDS * 1000;
  const end = measureFrom + SECONDS * 1000;
  let n = 0;
  const loop = async (auth: string) => {
    while (performance.now() < end) {
      const i = n++;
      const sentAt = performance.now();
      const answer = await api.request('POST', '/messages', auth, {
        type: 'stream',
        to: CHANNEL,
        topic: `topic ${i % 10}`,
        content: `Message ${i}: the **build** is green again, see https://example.com/builds/${i} for details.`,
      });
      if (answer.status !== 200) {
        errors++;
        continue;
      }
      if (sentAt < measureFrom) {
        warmupIds.push(answer.body.id);
      } else if (answer.receivedAt <= end) {
        ids.push(answer.body.id);
        latencies.push(answer.receivedAt - sentAt);
        bySecond[Math.floor((answer.receivedAt - measureFrom) / 1000)]++;
      } else {
        // Acknowledged after the window: still must be durable, not counted as throughput.
        warmupIds.push(answer.body.id);
      }
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, (_, i) => loop(senders[i % senders.length])));
  return { ids, warmupIds, latencies, bySecond, errors };
}

function countStored(file: string, table: string, ids: readonly number[]): number {
  const db = new Database(file);
  try {
    return db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).get(JSON.stringify(ids))!.n;
  } finally {
    db.close();
  }
}

async function runSend(kind: 'stoa' | 'bare'): Promise<SendRun> {
  const data = mkdtempSync(path.join(tmpdir(), `stoa-bench-send-${kind}-`));
  const server = await startServerProcess(kind, data);
  const api = new Api(server.url, SUBSCRIBERS + SENDERS + 8);
  let senders: string[] = [];
  let pollers: Pollers | null = null;
  if (kind === 'stoa') {
    const owner = await api.login(BENCH_OWNER.email, BENCH_OWNER.password);
    const users: Credentials[] = [owner];
    const ownerAuth = Api.authHeader(owner);
    for (let i = 1; i < SUBSCRIBERS; i++) {
      const email = `user${i}@bench.local`;
      await api.call('POST', '/users', ownerAuth, { email, password: 'bench-user-password', full_name: `User ${i}` });
      users.push(await api.login(email, 'bench-user-password'));
    }
    await api.call('POST', '/users/me/subscriptions', ownerAuth, { subscriptions: [{ name: CHANNEL }], principals: users.map((u) => u.email) });
    senders = users.map(Api.authHeader);
    const queues = [];
    for (const auth of senders.slice(0, LISTENERS)) {
      const registered = await api.call('POST', '/register', auth, { event_types: ['message'], fetch_event_types: [] });
      queues.push({ auth, id: registered.queue_id as string, lastEventId: registered.last_event_id as number });
    }
    if (queues.length > 0) pollers = new Pollers(api, queues);
    await sleep(200);
  } else {
    senders = Array.from({ length: SUBSCRIBERS }, (_, i) => Api.authHeader({ email: `user${i}@bench.local`, apiKey: 'x' }));
  }
  log(`${kind}: sending for ${WARMUP_SECONDS} + ${SECONDS} s with ${SENDERS} senders ...`);
  const cpuBefore = await serverCpuMs(server);
  const driverBefore = process.cpuUsage();
  const load = await sendLoad(api, senders);
  const everyId = [...load.warmupIds, ...load.ids];
  const serverCpu = (await serverCpuMs(server)) - cpuBefore;
  const driverUsage = process.cpuUsage(driverBefore);
  const driverCpu = (driverUsage.user + driverUsage.system) / 1000;
  let fannedOut: boolean | undefined;
  let pollAnswersPerMessage: number | undefined;
  if (pollers) {
    pollAnswersPerMessage = pollers.answers / everyId.length;
    fannedOut = await pollers.caughtUp(Math.max(...everyId), 30_000);
    fannedOut &&= pollers.received.every((count) => count === everyId.length);
    pollers.stop();
  }
  await crash(server);
  api.close();
  const stored = countStored(path.join(data, kind === 'stoa' ? DATABASE_FILE : BARE_DATABASE_FILE), 'messages', everyId);
  rmSync(data, { recursive: true, force: true });
  const run: SendRun = {
    server: kind,
    acknowledged: load.ids.length,
    perSecond: load.ids.length / SECONDS,
    slowestSecond: Math.min(...load.bySecond),
    latencyMs: {
      median: percentile(load.latencies, 50),
      p90: percentile(load.latencies, 90),
      p99: percentile(load.latencies, 99),
      max: load.latencies.reduce((a, b) => Math.max(a, b), 0) },
    errors: load.errors,
    serverCpuPerMessageMs: serverCpu / everyId.length,
    driverCpuPerMessageMs: driverCpu / everyId.length,
    durable: stored === everyId.length,
    ...(fannedOut === undefined ? {} : { fannedOut, pollAnswersPerMessage }),
  };
  log(
    `${kind}: ${run.perSecond.toFixed(0)} messages/s (slowest second ${run.slowestSecond}), latency median ${run.latencyMs.median.toFixed(1)} ms, ` +
      `p90 ${run.latencyMs.p90.toFixed(1)} ms, p99 ${run.latencyMs.p99.toFixed(1)} ms (p99 / median ${(run.latencyMs.p99 / run.latencyMs.median).toFixed(1)}), max ${run.latencyMs.max.toFixed(1)} ms; errors ${run.errors}; ` +
      `CPU per message: server ${run.serverCpuPerMessageMs.toFixed(3)} ms, driver ${run.driverCpuPerMessageMs.toFixed(3)} ms; ` +
      `${stored} of ${everyId.length} acknowledged messages in the file after ${args.profile ? 'exit' : 'SIGKILL'}` +
      (fannedOut === undefined ? '' : `; every queue got every message: ${fannedOut}; poll answers per message: ${pollAnswersPerMessage!.toFixed(1)}`),
  );
  return run;
}

interface FetchCase {
  name: string;
  params: Record<string, unknown>;
  /** How many messages a correct answer holds. */
  expect: (messages: unknown[]) => boolean;
}

async function runFetch(): Promise<Array<{ name: string; count: number; median: number; p99: number; serverCpuMs: number }>> {
  const data = await generatedDataFolder(log);
  const server = await startServerProcess('stoa', data);
  const api = new Api(server.url, 4);
  const owner = Api.authHeader(await api.login(BENCH_OWNER.email, BENCH_OWNER.password));
  const searchWord = vocabulary()[SEARCH_WORD_RANK];
  const hot = [
    { operator: 'channel', operand: HOT_CHANNEL },
    { operator: 'topic', operand: HOT_TOPIC },
  ];
  const cases: FetchCase[] = [
    {
      name: 'channel + topic, newest 100',
      params: { narrow: hot, anchor: 'newest', num_before: 100, num_after: 0 },
      expect: (m) => m.length === 100,
    },
    {
      name: 'channel + topic, first_unread 50 + 50',
      params: { narrow: hot, anchor: 'first_unread', num_before: 50, num_after: 50 },
      expect: (m) => m.length >= 51,
    },
    {
      name: `search "${searchWord}", newest 100`,
      params: { narrow: [{ operator: 'search', operand: searchWord }], anchor: 'newest', num_before: 100, num_after: 0 },
      expect: (m) => m.length === 100,
    },
    {
      name: `channel + search "${searchWord}", newest 100`,
      params: { narrow: [hot[0], { operator: 'search', operand: searchWord }], anchor: 'newest', num_before: 100, num_after: 0 },
      expect: (m) => m.length === 100,
    },
  ];
  const results = [];
  for (const fetchCase of cases) {
    const latencies: number[] = [];
    let cpuBefore = 0;
    for (let i = 0; i < FETCHES + 20; i++) {
      if (i === 20) cpuBefore = await serverCpuMs(server);
      const sentAt = performance.now();
      const answer = await api.request('GET', '/messages', owner, fetchCase.params);
      if (answer.status !== 200 || !fetchCase.expect(answer.body.messages)) {
        throw new Error(`${fetchCase.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
      if (i >= 20) latencies.push(answer.receivedAt - sentAt);
    }
    const serverCpu = ((await serverCpuMs(server)) - cpuBefore) / latencies.length;
    const result = {
      name: fetchCase.name,
      count: latencies.length,
      median: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      serverCpuMs: serverCpu,
    };
    log(`${result.name.padEnd(44)} median ${result.median.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms; server CPU ${serverCpu.toFixed(2)} ms per request`);
    results.push(result);
  }
  api.close();
  await crash(server);
  return results;
}

/** Messages per transaction in the storage floor: what group commit made of this load (about 7.5). */
const FLOOR_BATCH = 8;
const FLOOR_SECONDS = 5;

/**
 * The storage floor: what storing a channel message costs SQLite alone, in our schema and with
 * Stoa's own statements (the message row, its search entry, one user_messages row per
 * subscriber, the sender's read), FLOOR_BATCH messages per transaction. No HTTP, Markdown or
 * events: the most messages per second one process could store on this machine now.
 */
function storageFloor(): { perSecond: number; cpuPerMessageMs: number } {
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-floor-'));
  const db = openDatabase(path.join(data, DATABASE_FILE));
  const { store, stored: storedCount } = storageWorkload(db, SUBSCRIBERS, FLOOR_BATCH);
  const warmupEnd = performance.now() + WARMUP_SECONDS * 1000;
  while (performance.now() < warmupEnd) store.immediate();
  const stored = storedCount();
  const cpu = process.cpuUsage();
  const end = performance.now() + FLOOR_SECONDS * 1000;
  while (performance.now() < end) store.immediate();
  const used = process.cpuUsage(cpu);
  db.close();
  rmSync(data, { recursive: true, force: true });
  const count = storedCount() - stored;
  return { perSecond: count / FLOOR_SECONDS, cpuPerMessageMs: (used.user + used.system) / 1000 / count };
}

async function main(): Promise<void> {
  const machine = { nproc: cpus().length, ramGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadBefore: loadavg()[0] };
  log(`${machine.nproc} CPUs, ${machine.ramGb} GB, Node ${machine.node}, load average ${machine.loadBefore.toFixed(1)}`);
  const result: Record<string, unknown> = { date: new Date().toISOString(), machine };
  if ((args.part === 'send' || args.part === 'all') && args['no-bare']) {
    log(`${SENDERS} senders, ${SUBSCRIBERS} subscribers, ${LISTENERS} of them listening`);
    result.send = { subscribers: SUBSCRIBERS, senders: SENDERS, listeners: LISTENERS, seconds: SECONDS, stoa: await runSend('stoa') };
  } else if (args.part === 'send' || args.part === 'all') {
    const floor = storageFloor();
    log(
      `storage floor: ${floor.perSecond.toFixed(0)} messages/s stored by SQLite alone (${SUBSCRIBERS} rows each, ` +
        `${FLOOR_BATCH} per transaction), CPU ${floor.cpuPerMessageMs.toFixed(3)} ms per message`,
    );
    const bare = await runSend('bare');
    const stoa = await runSend('stoa');
    result.send = { subscribers: SUBSCRIBERS, senders: SENDERS, seconds: SECONDS, floor, bare, stoa, ratio: stoa.perSecond / bare.perSecond };
    log(`stoa / bare throughput: ${(stoa.perSecond / bare.perSecond).toFixed(2)}; stoa / storage floor: ${(stoa.perSecond / floor.perSecond).toFixed(2)}`);
  }
  if (args.part === 'fetch' || args.part === 'all') result.fetch = await runFetch();
  result.loadAfter = loadavg()[0];
  if (args.json) console.log(JSON.stringify(result));
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
