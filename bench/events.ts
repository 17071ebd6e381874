/**
 * Event fan-out benchmark: one event to many parked long-polls.
 *
 * Three processes: this driver; the server (bench/event-server.ts, bundled as the product is
 * and run with plain Node, so its memory is the server's alone); and a load client
 * (bench/load-client.ts) that holds the polls over keep-alive sockets. Each round changes the
 * owner's full name with PATCH /settings, a realm_user update every queue receives, and
 * measures from the commit to
 *   - server: the last answer handed to the kernel (the response's 'finish'), and
 *   - clients: the last answer fully received in the load-client process.
 * It also measures the server's RSS with every poll parked, and what 1,000 idle registered
 * queues cost. Then, in the same run, the same load goes to a bare node:http server that
 * parks the polls and answers them all with one event (bench/event-server.ts), the floor
 * that Node itself sets on this machine at this moment:
 *
 *   npm run bench:events -- --polls 1000 --rounds 20
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from '../scripts/build';
import { BENCH_OWNER, type FromLoadClient, type Credentials, type ToServer, type ToLoadClient, type FromServer } from './protocol';

const { values: args } = parseArgs({
  options: {
    polls: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '20' },
    idle: { type: 'string', default: '1000' },
    users: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    /** Write a CPU profile of the server to this folder. */
    profile: { type: 'string' },
  },
});
const POLLS = Number(args.polls);
const ROUNDS = Number(args.rounds);
const IDLE = Number(args.idle);
const USERS = Number(args.users);
/** Quiet time between a round's polls being parked and its event, so rounds do not overlap. */
const SETTLE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A child process and the messages it sent that nobody has taken yet. */
class Child {
  private readonly inbox: Array<{ type: string }> = [];
  private wake: (() => void) | null = null;

  constructor(
    readonly name: string,
    readonly process: ChildProcess,
  ) {
    process.on('message', (message: { type: string; message?: string }) => {
      if (message.type === 'error') {
        console.error(`${name}: ${message.message}`);
        globalThis.process.exit(1);
      }
      this.inbox.push(message);
      this.wake?.();
    });
    process.on('exit', (code) => {
      if (code !== 0) {
        console.error(`${name} exited with ${code}`);
        globalThis.process.exit(1);
      }
    });
  }

  async expect<M extends { type: string }, T extends M['type']>(type: T): Promise<Extract<M, { type: T }>> {
    for (;;) {
      const index = this.inbox.findIndex((message) => message.type === type);
      if (index >= 0) return this.inbox.splice(index, 1)[0] as Extract<M, { type: T }>;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

type Round = { serverMs: number; clientMs: number; firstAnswerMs: number; serverCpuMs: number };

interface FanOutResult {
  rounds: Round[];
  /** Server memory after two full collections: before the polls, and with every poll parked. */
  beforePolls: { rssMb: number; heapMb: number };
  parked: { rssMb: number; heapMb: number };
}

/** Starts one of bench/event-server.ts's servers in its own process and waits until it listens. */
async function startServerProcess(script: string, mode: 'stoa' | 'bare', data: string) {
  const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${args.profile}`] : [];
  // Stoa's request log stays on, as under `npm start`; it goes to /dev/null.
  const stdio = ['ignore', 'ignore', 'inherit', 'ipc'] as const;
  const child = new Child(`${mode} server`, fork(script, [mode, data], { execArgv: ['--expose-gc', ...profiling], stdio: [...stdio] }));
  const tell = (message: ToServer) => void child.process.send(message);
  const expect = <T extends FromServer['type']>(type: T) => child.expect<FromServer, T>(type);
  const { url } = await expect('listening');
  return {
    url,
    tell,
    expect,
    memory: async () => {
      tell({ type: 'memory' });
      return expect('memory');
    },
    stop: async () => {
      tell({ type: 'exit' });
      await new Promise((resolve) => child.process.once('exit', resolve));
    },
  };
}
type ServerProcess = Awaited<ReturnType<typeof startServerProcess>>;

/** A load client in its own process, holding polls against one server. */
async function startLoadClient(url: string) {
  const child = new Child('load client', fork(path.join(__dirname, 'load-client.ts'), [], { execArgv: ['--import', 'tsx'] }));
  const tell = (message: ToLoadClient) => void child.process.send(message);
  const expect = <T extends FromLoadClient['type']>(type: T) => child.expect<FromLoadClient, T>(type);
  await expect('ready');
  tell({ type: 'setup', url, maxSockets: POLLS + 100 });
  return { tell, expect };
}
type LoadClient = Awaited<ReturnType<typeof startLoadClient>>;

/**
 * Parks POLLS polls (queues spread over `users`), then runs ROUNDS fan-outs, each begun by
 * `trigger`, waiting after each until every poll is parked again.
 */
async function measureFanOut(server: ServerProcess, client: LoadClient, users: Credentials[], trigger: (round: number) => Promise<void>): Promise<FanOutResult> {
  const allParked = async () => {
    await client.expect('parking');
    server.tell({ type: 'await-parked', count: POLLS });
    await server.expect('parked');
    await sleep(SETTLE_MS);
  };
  const beforePolls = await server.memory();
  client.tell({ type: 'register-and-park', users, count: POLLS });
  await client.expect('registered');
  await allParked();
  const parked = await server.memory();

  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await trigger(round);
    const [answered, { times }] = await Promise.all([server.expect('answered'), client.expect('received')]);
    if (answered.polls !== POLLS || times.length !== POLLS) {
      throw new Error(`round ${round}: ${answered.polls} polls answered, ${times.length} received`);
    }
    rounds.push({
      serverMs: answered.allAnsweredMs,
      clientMs: Math.max(...times) - answered.startedAtWallMs,
      firstAnswerMs: answered.firstAnswerMs,
      serverCpuMs: answered.cpuMs,
    });
    client.tell({ type: 'repoll' });
    await allParked();
  }
  client.tell({ type: 'exit' });
  return { rounds, beforePolls, parked };
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  // Under node_modules, so the bundle finds better-sqlite3 as the installed product does.
  const buildDir = path.join(root, 'node_modules', '.cache', 'stoa-bench');
  mkdirSync(buildDir, { recursive: true });
  const script = await buildBundle(path.join(buildDir, 'event-server.js'), path.join(__dirname, 'event-server.ts'));
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-'));

  // Stoa: queues registered through the API, one realm_user update per round.
  const stoa = await startServerProcess(script, 'stoa', data);
  const api = async (method: string, apiPath: string, auth: Credentials | null, form: Record<string, string>) => {
    const headers: Record<string, string> = {};
    if (auth) headers.Authorization = `Basic ${Buffer.from(`${auth.email}:${auth.apiKey}`).toString('base64')}`;
    const response = await fetch(`${stoa.url}/api/v1${apiPath}`, { method, headers, body: new URLSearchParams(form) });
    const body = (await response.json()) as Record<string, any>;
    if (response.status !== 200) throw new Error(`${method} ${apiPath}: ${JSON.stringify(body)}`);
    return body;
  };
  const login = async (email: string, password: string): Promise<Credentials> =>
    ({ email, apiKey: (await api('POST', '/fetch_api_key', null, { username: email, password })).api_key });
  const owner = await login(BENCH_OWNER.email, BENCH_OWNER.password);
  const users = [owner];
  for (let i = 1; i < USERS; i++) {
    const email = `user${i}@bench.local`;
    await api('POST', '/users', owner, { email, password: 'bench-user-password', full_name: `User ${i}` });
    users.push(await login(email, 'bench-user-password'));
  }
  const stoaClient = await startLoadClient(stoa.url);

  // A warm-up as large as the measurement: it compiles the register path and grows V8's
  // young generation to what a burst of registrations needs. Neither shrinks back after a
  // collection, and neither is memory the queues hold, so neither is billed to them.
  stoaClient.tell({ type: 'register-idle', users, count: IDLE });
  await stoaClient.expect('registered');
  stoaClient.tell({ type: 'delete-idle' });
  await stoaClient.expect('deleted');
  const beforeIdle = await stoa.memory();
  stoaClient.tell({ type: 'register-idle', users, count: IDLE });
  await stoaClient.expect('registered');
  const withIdle = await stoa.memory();
  stoaClient.tell({ type: 'delete-idle' });
  await stoaClient.expect('deleted');

  const ours = await measureFanOut(stoa, stoaClient, users, async (round) => {
    await api('PATCH', '/settings', owner, { full_name: `Owner ${round}` });
  });
  await stoa.stop();
  rmSync(data, { recursive: true, force: true });

  // The yardstick, in the same run: what node:http alone needs for the same fan-out.
  const bareServer = await startServerProcess(script, 'bare', '');
  const bareClient = await startLoadClient(bareServer.url);
  const bare = await measureFanOut(bareServer, bareClient, users, async () => {
    bareServer.tell({ type: 'fire' });
  });
  await bareServer.stop();

  const summary = (result: FanOutResult, key: keyof Round) => {
    const values = result.rounds.map((round) => round[key]);
    return { median: percentile(values, 50), p90: percentile(values, 90), p99: percentile(values, 99), max: Math.max(...values) };
  };
  const figures = (result: FanOutResult) => ({
    serverAnsweredAllMs: summary(result, 'serverMs'),
    clientsReceivedAllMs: summary(result, 'clientMs'),
    firstAnswerMs: summary(result, 'firstAnswerMs'),
    serverCpuToAnswerAllMs: summary(result, 'serverCpuMs'),
    rssBeforePollsMb: result.beforePolls.rssMb,
    rssWithPollsParkedMb: result.parked.rssMb,
    heapWithPollsParkedMb: result.parked.heapMb,
  });
  const result = {
    date: new Date().toISOString(),
    machine: { nproc: cpus().length, ramGb: Math.round(totalmem() / 2 ** 30), node: process.version, loadAverage: loadavg() },
    polls: POLLS,
    rounds: ROUNDS,
    users: USERS,
    stoa: figures(ours),
    bare: figures(bare),
    idleQueues: { count: withIdle.queues - beforeIdle.queues, rssCostMb: withIdle.rssMb - beforeIdle.rssMb, heapCostMb: withIdle.heapMb - beforeIdle.heapMb },
  };
  if (args.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const f = (n: number) => n.toFixed(1);
  const signed = (n: number) => (n < 0 ? f(n) : `+${f(n)}`);
  const line = (name: string, key: keyof ReturnType<typeof figures>) => {
    const ms = (s: unknown) => {
      const { median, p90, p99 } = s as { median: number; p90: number; p99: number };
      return `median ${f(median).padStart(6)} ms, p90 ${f(p90).padStart(6)} ms, p99 ${f(p99).padStart(6)} ms`;
    };
    return `${name.padEnd(34)} ${ms(result.stoa[key])}   bare: ${ms(result.bare[key])}`;
  };
  const { nproc, ramGb, loadAverage } = result.machine;
  console.log(`${POLLS} parked polls, ${ROUNDS} rounds, ${USERS} users; ${nproc} CPUs, ${ramGb} GB, Node ${process.version}, load ${loadAverage.map(f).join(' ')}`);
  console.log(line('commit -> first answer (server)', 'firstAnswerMs'));
  console.log(line('commit -> all answered (server)', 'serverAnsweredAllMs'));
  console.log(line('commit -> all received (clients)', 'clientsReceivedAllMs'));
  console.log(line('server CPU time to answer all', 'serverCpuToAnswerAllMs'));
  const rss = (r: ReturnType<typeof figures>) => `${f(r.rssWithPollsParkedMb)} MB (heap ${f(r.heapWithPollsParkedMb)} MB; before the polls ${f(r.rssBeforePollsMb)} MB)`;
  console.log(`server RSS with ${POLLS} polls parked: ${rss(result.stoa)}   bare: ${rss(result.bare)}`);
  console.log(`${IDLE} idle registered queues: RSS ${signed(result.idleQueues.rssCostMb)} MB, heap ${signed(result.idleQueues.heapCostMb)} MB`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
