/**
 * Event fan-out benchmark: one event to many parked long-polls.
 *
 * This process runs the server (startServer, as `npm start` does) so it can time the server
 * side; a forked load client (bench/load-client.ts) holds the polls over keep-alive sockets.
 * Each round changes the owner's full name with PATCH /settings, a realm_user update every
 * queue receives, and measures from the commit to
 *   - server: the last answer handed to the kernel (the response's 'finish'), and
 *   - clients: the last answer fully received in the load-client process.
 * It also measures the server's RSS with every poll parked, and what 1,000 idle registered
 * queues cost. Run with --expose-gc so memory is read after a full collection:
 *
 *   node --expose-gc --import tsx bench/events.ts --polls 1000 --rounds 20
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../lib/config';
import { startServer } from '../lib/server';
import type { ClientMessage, Credentials, ServerMessage } from './protocol';

const { values: args } = parseArgs({
  options: {
    polls: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '20' },
    idle: { type: 'string', default: '1000' },
    users: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
  },
});
const POLLS = Number(args.polls);
const ROUNDS = Number(args.rounds);
const IDLE = Number(args.idle);
const USERS = Number(args.users);
const OWNER = { email: 'owner@bench.local', password: 'bench-owner-password' };
/** Long enough that no poll gets a heartbeat while the benchmark runs. */
const HEARTBEAT_MS = 30 * 60_000;
/** Quiet time between a round's polls being parked and its event, so rounds do not overlap. */
const SETTLE_MS = 100;

const wallClock = (monotonic: number) => performance.timeOrigin + monotonic;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memory() {
  global.gc?.();
  global.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20 };
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main(): Promise<void> {
  if (!global.gc) console.warn('warning: run with node --expose-gc for honest memory figures');
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-'));
  let delivery: { startedAt: number; answeredPolls: number; cpu: NodeJS.CpuUsage } | null = null;
  const running = await startServer(
    { ...DEFAULTS, port: 0, data, adminEmail: OWNER.email, adminPassword: OWNER.password, dev: false },
    {
      // The request log is left out: it would measure the terminal, not the fan-out.
      log: () => {},
      eventQueues: { heartbeatMs: HEARTBEAT_MS, onDelivery: (d) => (delivery = { ...d, cpu: process.cpuUsage() }) },
    },
  );

  // Server-side view of the polls: how many are open, and when each answer went out.
  let openPolls = 0;
  let finishes: number[] = [];
  // CPU time is what the fan-out costs whatever else the machine runs; wall time is not.
  let lastFinishCpu = process.cpuUsage();
  // Before Express's own listener, which rewrites req.url as it routes.
  running.http.prependListener('request', (req, res) => {
    if (req.method !== 'GET' || !req.url?.startsWith('/api/v1/events')) return;
    openPolls++;
    res.once('finish', () => {
      finishes.push(performance.now());
      lastFinishCpu = process.cpuUsage();
    });
    res.once('close', () => openPolls--);
  });

  const api = async (method: string, apiPath: string, auth: Credentials | null, form: Record<string, string>) => {
    const headers: Record<string, string> = {};
    if (auth) headers.Authorization = `Basic ${Buffer.from(`${auth.email}:${auth.apiKey}`).toString('base64')}`;
    const response = await fetch(`${running.url}/api/v1${apiPath}`, { method, headers, body: new URLSearchParams(form) });
    const body = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(`${method} ${apiPath}: ${JSON.stringify(body)}`);
    return body;
  };
  const login = async (email: string, password: string): Promise<Credentials> =>
    ({ email, apiKey: (await api('POST', '/fetch_api_key', null, { username: email, password })).api_key });

  const owner = await login(OWNER.email, OWNER.password);
  const users = [owner];
  for (let i = 1; i < USERS; i++) {
    const email = `user${i}@bench.local`;
    await api('POST', '/users', owner, { email, password: 'bench-user-password', full_name: `User ${i}` });
    users.push(await login(email, 'bench-user-password'));
  }

  const client: ChildProcess = fork(path.join(__dirname, 'load-client.ts'), [], { execArgv: ['--import', 'tsx'] });
  const inbox: ClientMessage[] = [];
  let wakeInbox: (() => void) | null = null;
  client.on('message', (message: ClientMessage) => {
    if (message.type === 'error') {
      console.error(`load client: ${message.message}`);
      process.exit(1);
    }
      inbox.push(message);
    wakeInbox?.();
  });
  const tell = (message: ServerMessage) => client.send(message);
  const expect = async <T extends ClientMessage['type']>(type: T): Promise<Extract<ClientMessage, { type: T }>> => {
    for (;;) {
      const index = inbox.findIndex((message) => message.type === type);
      if (index >= 0) return inbox.splice(index, 1)[0] as Extract<ClientMessage, { type: T }>;
      await new Promise<void>((resolve) => (wakeInbox = resolve));
    }
  };
  const allParked = async () => {
    await expect('parking');
    while (openPolls < POLLS) await sleep(5);
    await sleep(SETTLE_MS);
  };

  await expect('ready');
  tell({ type: 'setup', url: running.url, maxSockets: POLLS + 100 });

  // Warm up the register path (code, caches) so it is not billed to the idle queues.
  tell({ type: 'register-idle', users, count: 100 });
  await expect('registered');
  tell({ type: 'delete-idle' });
  await expect('deleted');

  const beforeIdle = memory();
  tell({ type: 'register-idle', users, count: IDLE });
  await expect('registered');
  const withIdle = memory();
  const idleQueues = running.stoa.queues.count;
  tell({ type: 'delete-idle' });
  await expect('deleted');

  const beforePolls = memory();
  tell({ type: 'register-and-park', users, count: POLLS });
  await expect('registered');
  await allParked();
  const parked = memory();

  const rounds: Array<{ serverMs: number; clientMs: number; deliverMs: number; serverCpuMs: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    finishes = [];
    delivery = null;
    await api('PATCH', '/settings', owner, { full_name: `Owner ${round}` });
    const { times } = await expect('received');
    const { startedAt, answeredPolls, cpu } = delivery!;
    const answerCpu = lastFinishCpu.user + lastFinishCpu.system - cpu.user - cpu.system;
    const answered = finishes.filter((at) => at >= startedAt);
    if (answeredPolls !== POLLS || answered.length !== POLLS || times.length !== POLLS) {
      throw new Error(`round ${round}: ${answeredPolls} polls woken, ${answered.length} answered, ${times.length} received`);
    }
    rounds.push({
      serverMs: Math.max(...answered) - startedAt,
      clientMs: Math.max(...times) - wallClock(startedAt),
      deliverMs: Math.min(...answered) - startedAt,
      serverCpuMs: answerCpu / 1000,
    });
    tell({ type: 'repoll' });
    await allParked();
  }
  tell({ type: 'exit' });
  await running.close();
  rmSync(data, { recursive: true, force: true });

  const summary = (key: keyof (typeof rounds)[number]) => {
    const values = rounds.map((round) => round[key]);
    return { median: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) };
  };
  const result = {
    date: new Date().toISOString(),
    machine: { nproc: cpus().length, ramGb: Math.round(totalmem() / 2 ** 30), node: process.version },
    polls: POLLS,
    rounds: ROUNDS,
    users: USERS,
    serverAnsweredAllMs: summary('serverMs'),
    clientsReceivedAllMs: summary('clientMs'),
    firstAnswerMs: summary('deliverMs'),
    serverCpuToAnswerAllMs: summary('serverCpuMs'),
    rssWithPollsParkedMb: parked.rssMb,
    rssBeforePollsMb: beforePolls.rssMb,
    heapWithPollsParkedMb: parked.heapMb,
    idleQueues: { count: idleQueues, rssCostMb: withIdle.rssMb - beforeIdle.rssMb, heapCostMb: withIdle.heapMb - beforeIdle.heapMb },
  };
  if (args.json) {
    console.log(JSON.stringify(result));
  } else {
    const f = (n: number) => n.toFixed(1);
    const line = (name: string, s: { median: number; p99: number; max: number }) =>
      `${name.padEnd(34)} median ${f(s.median)} ms, p99 ${f(s.p99)} ms, max ${f(s.max)} ms`;
    console.log(`${POLLS} parked polls, ${ROUNDS} rounds, ${USERS} users; ${result.machine.nproc} CPUs, ${result.machine.ramGb} GB, Node ${process.version}`);
    console.log(line('commit -> first answer (server)', result.firstAnswerMs));
    console.log(line('commit -> all answered (server)', result.serverAnsweredAllMs));
    console.log(line('commit -> all received (clients)', result.clientsReceivedAllMs));
    console.log(line('server CPU time to answer all', result.serverCpuToAnswerAllMs));
    console.log(`server RSS with ${POLLS} polls parked: ${f(parked.rssMb)} MB (heap ${f(parked.heapMb)} MB; before the polls ${f(beforePolls.rssMb)} MB)`);
    console.log(`${IDLE} idle registered queues: RSS +${f(result.idleQueues.rssCostMb)} MB, heap +${f(result.idleQueues.heapCostMb)} MB`);
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
