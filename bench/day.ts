/**
 * A day of an organization, simulated against the bundle as shipped (issue 25): every person
 * arrives within the first seconds, registers as the web client does, opens a view around
 * their first unread message, long-polls for events, reports presence every minute and about
 * every 30 seconds does one thing (sends, answers a direct message, reacts, marks read,
 * switches view, types, edits, uploads). Measured: each request kind's latency, errors, the
 * delay from a send's answer to the last recipient's poll, the server's CPU and peak memory.
 *
 *   npm run build && npm run bench:day -- --people 1000 --duration 120
 *     --people N       people in the organization, all of them active (default 100)
 *     --duration S     seconds of the day, arrivals included (default 120)
 *     --arrival S      everyone arrives within these first seconds (default 10)
 *     --workers N      load processes the people are spread over (default 2)
 *     --profile DIR    run the server with --cpu-prof, writing its profile into DIR
 *     --trace DIR      write where each request's time went into DIR: the server's event loop
 *                      second by second (bench/loop-probe.cjs), each load worker's own loop and
 *                      CPU, the listening socket's accept queue, and every request but the long
 *                      polls with the moments it was sent, got a socket, connected, had its first
 *                      byte of answer and its last (read them with bench/day-trace.ts DIR)
 *     --bundle FILE    the server script (default dist/stoa.js)
 *     --node-flags=F   Node flags for the server (default none: the bundle gives itself its heap
 *                      flags), to compare settings, e.g. "--max-old-space-size=256 --max-semi-space-size=8"
 *
 * Three kinds of process: this driver, the server (`node dist/stoa.js` as shipped, its request
 * log going to a file as under a service manager), and the load
 * workers (this file again, with --worker), each simulating a share of the people.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from './api';
import { dayOrganization, dayShape, SERVER_NODE_FLAGS, type DayChannel, type DayPerson } from './day-organization';
import { vocabulary } from './generate-messages-db';
import { WEB_CLIENT_REGISTRATION } from '../web/register-params';

/** A request other than a long poll that takes longer than this counts as timed out, as a client gives up. */
const REQUEST_TIMEOUT_MS = 30_000;
/** A long poll gets a heartbeat within 50 s; past this it has failed. */
const POLL_TIMEOUT_MS = 90_000;
/**
 * A kept-alive connection left unused this long is closed by the client. It must be shorter
 * than the server's keep-alive timeout (65 s, announced in each answer's Keep-Alive header):
 * otherwise the server closes idle connections first, and a request the client writes on one
 * at that moment is answered by a reset (ECONNRESET). Node's agent keeps free sockets forever
 * unless given a timeout (it heeds the server's Keep-Alive hint only to shorten its own
 * timeout); browsers close idle connections themselves and retry a request reset on reuse.
 */
const IDLE_SOCKET_MS = 55_000;

/** What the web client asks for at registration (web/register.ts), with subscribers as in the issue. */
// As the web client registers, but with subscribers, as the issue's simulated people ask.
const REGISTER_FORM = { ...WEB_CLIENT_REGISTRATION, include_subscribers: true };

/** The actions a person takes about every 30 seconds, with the issue's mix. */
const ACTIONS = [
  ['send', 0.45],
  ['answer-dm', 0.1],
  ['react', 0.15],
  ['mark-read', 0.15],
  ['switch-view', 0.08],
  ['type', 0.05],
  ['edit', 0.015],
  ['upload', 0.005],
] as const;
type Action = (typeof ACTIONS)[number][0];

const EMOJI = ['octopus', 'heart', 'tada', 'smile', 'rocket', 'eyes'];
/** A 1x1 PNG: the small image of an upload. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const wallNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** What the driver tells a worker. */
interface WorkerSetup {
  url: string;
  people: DayPerson[];
  everyone: number[];
  channels: DayChannel[];
  /** Wall-clock ms when the day begins, and how long it lasts. */
  startAt: number;
  durationMs: number;
  arrivalMs: number;
  seed: number;
  /** Keep each request's phases and the worker's own loop second by second (--trace). */
  trace: boolean;
}

/**
 * One request's moments, in ms since the day began: sent (request() called), socket (the
 * agent gave it one), connected (a new connection's handshake done; absent on a reused one),
 * first (the answer's headers read), end (its last byte read), or failed.
 */
export interface RequestTrace {
  kind: string;
  sent: number;
  socket?: number;
  connected?: number;
  first?: number;
  end?: number;
  failed?: number;
  reused: boolean;
  bytes?: number;
}

/** The worker's own event loop and CPU in one second of the day (--trace). */
export interface WorkerSecond {
  at: number;
  loopP99: number;
  loopMax: number;
  cpuMs: number;
}

/** What a worker reports at the end. */
interface WorkerReport {
  latencies: Record<string, number[]>;
  errors: Record<string, number>;
  /** Failures counted by cause (a status, a timeout, a reset on a new or reused connection). */
  errorCauses: Record<string, number>;
  errorSamples: string[];
  polls: number;
  heartbeats: number;
  registerBytes: number[];
  /** Message id -> wall ms the send's answer arrived (messages this worker's people sent). */
  sent: Array<[number, number]>;
  /** Message id -> wall ms the last of this worker's people's polls got it. */
  received: Array<[number, number]>;
  cpuMs: number;
  traces: RequestTrace[];
  seconds: WorkerSecond[];
}

// ---------------------------------------------------------------- the load worker

function worker(setup: WorkerSetup): Promise<WorkerReport> {
  const base = new URL(setup.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 4096, timeout: IDLE_SOCKET_MS });
  const endAt = setup.startAt + setup.durationMs;
  const report: WorkerReport = {
    latencies: {},
    errors: {},
    errorCauses: {},
    errorSamples: [],
    polls: 0,
    heartbeats: 0,
    registerBytes: [],
    sent: [],
    received: [],
    cpuMs: 0,
    traces: [],
    seconds: [],
  };
  if (setup.trace) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let lastCpu = process.cpuUsage();
    const sampling = setInterval(() => {
      const cpu = process.cpuUsage(lastCpu);
      lastCpu = process.cpuUsage();
      report.seconds.push({
        at: wallNow() - setup.startAt,
        loopP99: delay.percentile(99) / 1e6,
        loopMax: delay.max / 1e6,
        cpuMs: (cpu.user + cpu.system) / 1000,
      });
      delay.reset();
    }, 1000);
    setTimeout(() => clearInterval(sampling), endAt - wallNow() + 1000);
  }
  const sinceStart = () => wallNow() - setup.startAt;
  const received = new Map<number, number>();
  /** Waits ms, or until the day ends if sooner. */
  const pause = (ms: number) => sleep(Math.min(ms, endAt - wallNow()));
  // The day is over: polls still parked are cut off.
  setTimeout(() => agent.destroy(), endAt - wallNow() + 50);
  let seed = setup.seed;
  const random = () => {
    // mulberry32: a reproducible stream per worker.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const words = vocabulary();
  const text = () => Array.from({ length: 4 + Math.floor(random() * 16) }, () => pick(words)).join(' ');

  function failed(kind: string, detail: string, cause: string): void {
    report.errors[kind] = (report.errors[kind] ?? 0) + 1;
    report.errorCauses[cause] = (report.errorCauses[cause] ?? 0) + 1;
    if (report.errorSamples.length < 20) report.errorSamples.push(`${kind}: ${detail.slice(0, 300)}`);
  }

  /** One request; resolves with status and parsed body, or null after counting a failure. */
  function request(
    kind: string,
    method: string,
    apiPath: string,
    auth: string,
    form?: Record<string, unknown>,
    options: { timeoutMs?: number; multipart?: boolean } = {},
  ): Promise<{ body: any; bytes: number; at: number } | null> {
    let url = `/api/v1${apiPath}`;
    let body: Buffer | undefined;
    const headers: Record<string, string | number> = { Authorization: auth };
    if (options.multipart) {
      const boundary = `----day${Math.floor(random() * 1e12)}`;
      body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="dot.png"\r\nContent-Type: image/png\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
    } else if (form) {
      const encoded = new URLSearchParams(Object.entries(form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      if (method === 'GET') url += `?${encoded}`;
      else {
        body = Buffer.from(encoded.toString());
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      }
    }
    if (body) headers['Content-Length'] = body.length;
    const started = performance.now();
    const trace: RequestTrace | undefined = setup.trace && kind !== 'events' ? { kind, sent: sinceStart(), reused: false } : undefined;
    if (trace) report.traces.push(trace);
    return new Promise((resolve) => {
      const req = http.request({ host: base.hostname, port: base.port, path: url, method, agent, headers }, (res) => {
        if (trace) trace.first = sinceStart();
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const at = wallNow();
          const elapsed = performance.now() - started;
          const raw = Buffer.concat(chunks);
          if (trace) {
            trace.end = sinceStart();
            trace.bytes = raw.length;
          }
          if (res.statusCode !== 200) {
            failed(kind, `${res.statusCode} ${raw.toString().slice(0, 200)}`, `HTTP ${res.statusCode}`);
            return resolve(null);
          }
          if (kind !== 'events') (report.latencies[kind] ??= []).push(elapsed);
          resolve({ body: JSON.parse(raw.toString()), bytes: raw.length, at });
        });
        res.on('error', (err) => {
          failed(kind, String(err), `response ${(err as NodeJS.ErrnoException).code ?? err.message}`);
          resolve(null);
        });
      });
      if (trace) {
        req.once('socket', (socket: Socket) => {
          trace.socket = sinceStart();
          trace.reused = req.reusedSocket;
          if (socket.connecting) socket.once('connect', () => (trace.connected = sinceStart()));
        });
      }
      req.setTimeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS, () => {
        req.destroy(new Error('timed out'));
      });
      req.on('error', (err) => {
        if (trace) trace.failed = sinceStart();
        // Polls still parked when the day ends are cut off, which is no failure.
        const when = `${((wallNow() - setup.startAt) / 1000).toFixed(1)} s into the day`;
        const connection = req.reusedSocket ? 'on a reused connection' : 'on a new connection';
        const cause = `${(err as NodeJS.ErrnoException).code ?? err.message} ${connection}`;
        if (wallNow() < endAt) failed(kind, `${String(err)} (${connection}, ${when})`, cause);
        resolve(null);
      });
      req.end(body);
    });
  }

  async function live(person: DayPerson): Promise<void> {
    const auth = `Basic ${Buffer.from(`${person.email}:${person.apiKey}`).toString('base64')}`;
    await sleep(setup.startAt + random() * setup.arrivalMs - wallNow());
    const unread = new Set<number>();
    const seen: number[] = [];
    const mine: number[] = [];
    const reacted = new Set<string>();
    const dmFrom: number[] = [];
    let channels: number[] = [];
    let queue: { id: string; lastEventId: number } | null = null;
    /** The newest presence change this person holds, sent with each report as the web client does (web/live.ts). */
    let presenceLastUpdateId = -1;

    const register = async () => {
      const answer = await request('register', 'POST', '/register', auth, REGISTER_FORM);
      if (!answer) return false;
      report.registerBytes.push(answer.bytes);
      queue = { id: answer.body.queue_id, lastEventId: answer.body.last_event_id };
      presenceLastUpdateId = answer.body.presence_last_update_id ?? -1;
      channels = (answer.body.subscriptions as Array<{ stream_id: number }>).map((s) => s.stream_id);
      const unreads = answer.body.unread_msgs;
      for (const group of [...unreads.streams, ...unreads.pms, ...unreads.huddles]) for (const id of group.unread_message_ids) unread.add(id);
      return true;
    };
    while (!(await register())) {
      if (wallNow() > endAt) return;
      await sleep(2000 + random() * 3000);
    }

    const openView = async (kind: string, narrow: unknown[]) => {
      const answer = await request(kind, 'GET', '/messages', auth, {
        anchor: 'first_unread',
        num_before: 50,
        num_after: 50,
        narrow,
        apply_markdown: true,
        client_gravatar: false,
      });
      if (answer) for (const message of answer.body.messages) seen.push(message.id);
    };

    const poll = async () => {
      while (wallNow() < endAt) {
        const current = queue!;
        const answer = await request('events', 'GET', '/events', auth, { queue_id: current.id, last_event_id: current.lastEventId }, { timeoutMs: POLL_TIMEOUT_MS });
        if (!answer) {
          if (wallNow() >= endAt) return;
          // As the web client does after a failed poll (a gone queue included): register anew.
          await sleep(1000);
          while (wallNow() < endAt && !(await register())) await sleep(2000);
          continue;
        }
        report.polls++;
        for (const event of answer.body.events) {
          current.lastEventId = event.id;
          if (event.type === 'heartbeat') report.heartbeats++;
          if (event.type !== 'message') continue;
          const id = event.message.id as number;
          if ((received.get(id) ?? 0) < answer.at) received.set(id, answer.at);
          seen.push(id);
          if (event.message.sender_id === person.id) continue;
          if (!(event.flags as string[]).includes('read')) unread.add(id);
          if (event.message.type === 'private') dmFrom.push(event.message.sender_id);
        }
        if (seen.length > 400) seen.splice(0, seen.length - 200);
      }
    };

    const presence = async () => {
      while (wallNow() < endAt) {
        const answer = await request('presence', 'POST', '/users/me/presence', auth, {
          status: 'active',
          new_user_input: true,
          slim_presence: true,
          last_update_id: presenceLastUpdateId,
        });
        if (answer) presenceLastUpdateId = answer.body.presence_last_update_id;
        await pause(60_000);
      }
    };

    const send = async (kind: string, form: Record<string, unknown>) => {
      const answer = await request(kind, 'POST', '/messages', auth, { ...form, content: text() });
      if (answer) {
        report.sent.push([answer.body.id, answer.at]);
        mine.push(answer.body.id);
      }
    };
    const topic = () => `topic ${Math.floor(random() * random() * 20)}`;
    const act = async (action: Action): Promise<void> => {
      switch (action) {
        case 'send':
          return send('send', { type: 'stream', to: pick(channels), topic: topic() });
        case 'answer-dm': {
          const to = dmFrom.length > 0 ? dmFrom.pop()! : pick(setup.everyone.filter((id) => id !== person.id));
          return send('send-dm', { type: 'direct', to: [to] });
        }
        case 'react': {
          const id = seen.length > 0 ? pick(seen) : null;
          const emoji = pick(EMOJI);
          if (id === null || reacted.has(`${id} ${emoji}`)) return act('send');
          reacted.add(`${id} ${emoji}`);
          await request('react', 'POST', `/messages/${id}/reactions`, auth, { emoji_name: emoji });
          return;
        }
        case 'mark-read': {
          const ids = [...unread].slice(0, 20);
          if (ids.length === 0) return act('send');
          for (const id of ids) unread.delete(id);
          await request('mark-read', 'POST', '/messages/flags', auth, { messages: ids, op: 'add', flag: 'read' });
          return;
        }
        case 'switch-view':
          return openView('switch-view', [{ operator: 'channel', operand: pick(channels) }]);
        case 'type':
          await request('type', 'POST', '/typing', auth, { type: 'stream', stream_id: pick(channels), topic: topic(), op: 'start' });
          return;
        case 'edit':
          if (mine.length === 0) return act('send');
          await request('edit', 'PATCH', `/messages/${pick(mine)}`, auth, { content: text() });
          return;
        case 'upload':
          await request('upload', 'POST', '/user_uploads', auth, undefined, { multipart: true });
          return;
      }
    };
    const chooseAction = (): Action => {
      let x = random();
      for (const [action, weight] of ACTIONS) if ((x -= weight) < 0) return action;
      return 'send';
    };

    const polling = poll();
    const reporting = presence();
    await openView('open-view', []);
    await pause(random() * 30_000);
    while (wallNow() < endAt) {
      await act(chooseAction());
      await pause(15_000 + random() * 30_000);
    }
    await Promise.all([polling, reporting]);
  }

  return Promise.all(setup.people.map(live)).then(() => {
    const cpu = process.cpuUsage();
    report.cpuMs = (cpu.user + cpu.system) / 1000;
    report.received = [...received];
    return report;
  });
}

// ---------------------------------------------------------------- the driver

interface ServerSample {
  at: number;
  cpuTicks: number;
  rssMb: number;
}

/** CPU ticks (user + system) and resident memory of a process, from /proc. */
function sampleProcess(pid: number): ServerSample {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
  const cpuTicks = Number(fields[11]) + Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { at: wallNow(), cpuTicks, rssMb: Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024 };
}

function peakRssMb(pid: number): number {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** The kernel counts CPU time in ticks of 1/100 s on Linux. */
const TICKS_PER_SECOND = 100;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitForListening(logFile: string, exited: () => boolean): Promise<string> {
  for (;;) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
    const found = /Stoa is listening on (\S+)/.exec(log);
    if (found) return found[1];
    if (exited()) throw new Error(`the server stopped:\n${log}`);
    await sleep(100);
  }
}

/** The kernel's TCP counters (TcpExt), on the whole machine. */
function tcpCounters(): Record<string, number> {
  const [names, values] = readFileSync('/proc/net/netstat', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('TcpExt:'))
    .map((line) => line.split(/\s+/));
  return Object.fromEntries(names.slice(1).map((name, i) => [name, Number(values[i + 1])]));
}

/** Connections dropped because a listening socket's queue was full, on the whole machine (TcpExt ListenOverflows). */
const listenOverflows = () => tcpCounters().ListenOverflows;

/** Counters that tell a connection waiting for the server's accept from one the kernel refused. */
const CONNECTION_COUNTERS = ['ListenOverflows', 'ListenDrops', 'TCPSynRetrans', 'TCPReqQFullDrop', 'TCPReqQFullDoCookies', 'SyncookiesSent', 'TCPTimeouts'];

/** The listening socket's accept queue as `ss -ltn` shows it: connections waiting, and the queue's size. */
function acceptQueue(port: number): Promise<{ waiting: number; size: number } | null> {
  return new Promise((resolve) => {
    execFile('ss', ['-Hltn', `sport = :${port}`], (err, stdout) => {
      const fields = err ? null : /^LISTEN\s+(\d+)\s+(\d+)/m.exec(stdout);
      resolve(fields ? { waiting: Number(fields[1]), size: Number(fields[2]) } : null);
    });
  });
}

const fixed = (n: number | undefined, digits = 1) => (n === undefined ? '-' : n.toFixed(digits));

async function drive(): Promise<void> {
  const { values: args } = parseArgs({
    args: process.argv.slice(2),
    options: {
      people: { type: 'string', default: '100' },
      duration: { type: 'string', default: '120' },
      arrival: { type: 'string', default: '10' },
      workers: { type: 'string', default: '2' },
      profile: { type: 'string' },
      trace: { type: 'string' },
      bundle: { type: 'string', default: path.join(__dirname, '..', 'dist', 'stoa.js') },
      'node-flags': { type: 'string' },
    },
  });
  const nodeFlags = args['node-flags'] === undefined ? SERVER_NODE_FLAGS : args['node-flags'].split(/\s+/).filter(Boolean);
  const people = Number(args.people);
  const durationMs = Number(args.duration) * 1000;
  const bundle = path.resolve(args.bundle);
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  const { data: cached, organization } = await dayOrganization(dayShape(people));

  const data = mkdtempSync(path.join(tmpdir(), 'stoa-day-'));
  cpSync(cached, data, { recursive: true });
  const port = await freePort();
  const logFile = path.join(data, 'server.log');
  const profiling = args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : [];
  const traceDir = args.trace ? path.resolve(args.trace) : undefined;
  if (traceDir) {
    rmSync(traceDir, { recursive: true, force: true });
    mkdirSync(traceDir, { recursive: true });
  }
  const probe = traceDir ? ['--require', path.join(__dirname, 'loop-probe.cjs')] : [];
  // The request log goes to a file, as a service manager would keep it.
  const server = spawn('sh', ['-c', `exec node ${[...nodeFlags, ...profiling, ...probe].join(' ')} "$0" --data "$1" --port "$2" > "$3" 2>&1`, bundle, data, String(port), logFile], {
    stdio: 'ignore',
    env: traceDir ? { ...process.env, STOA_LOOP_PROBE_FILE: path.join(traceDir, 'server-loop.ndjson') } : process.env,
  });
  let exited = false;
  const serverExit = new Promise<void>((resolve) => server.on('exit', () => ((exited = true), resolve())));
  const url = await waitForListening(logFile, () => exited);
  const pid = server.pid!;
  const idleRss = sampleProcess(pid).rssMb;
  console.log(`${people} people for ${durationMs / 1000} s against ${path.relative(process.cwd(), bundle)} at ${url} (server pid ${pid}, ${fixed(idleRss)} MB idle)`);

  const loadBefore = loadavg()[0];
  const overflowsBefore = listenOverflows();
  const workerCount = Math.max(1, Math.min(Number(args.workers), people));
  // The workers are started and loaded before the day's clock is set: loading one (tsx compiles
  // this file and its imports) takes seconds on a busy machine, and a day begun before its
  // workers were ready would have everyone due in those seconds arrive at once.
  const forkedAt = wallNow();
  const children = await Promise.all(
    Array.from({ length: workerCount }, (_, w) => {
      const child = fork(__filename, ['--worker'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      return new Promise<ChildProcess>((resolve, reject) => {
        child.once('message', () => resolve(child));
        child.once('exit', (code) => code !== 0 && reject(new Error(`load worker ${w} exited with ${code}`)));
      });
    }),
  );
  console.log(`load workers ready in ${fixed((wallNow() - forkedAt) / 1000)} s`);
  const startAt = wallNow() + 500;
  const samples: ServerSample[] = [];
  const sampler = setInterval(() => samples.push(sampleProcess(pid)), 1000);
  const first = sampleProcess(pid);
  // With --trace: the accept queue and the kernel's connection counters four times a second.
  const kernel: Array<{ at: number; waiting: number | null; counters: Record<string, number>; serverThread: { runNs: number; waitNs: number } }> = [];
  let kernelSampling = true;
  const sampleKernel = async () => {
    while (kernelSampling) {
      const at = wallNow() - startAt;
      const queue = await acceptQueue(port);
      const all = tcpCounters();
      // The server's main thread: time on a CPU, and time runnable but waiting for one (a busy machine).
      const [runNs, waitNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
      kernel.push({ at, waiting: queue?.waiting ?? null, counters: Object.fromEntries(CONNECTION_COUNTERS.map((name) => [name, all[name]])), serverThread: { runNs, waitNs } });
      await sleep(250);
    }
  };
  const kernelSampled = traceDir ? sampleKernel() : Promise.resolve();
  const reports = await Promise.all(
    children.map((child, w) => {
      const setup: WorkerSetup = {
        url,
        people: organization.people.filter((_, i) => i % workerCount === w),
        everyone: organization.people.map((p) => p.id),
        channels: organization.channels,
        startAt,
        durationMs,
        arrivalMs: Number(args.arrival) * 1000,
        seed: 1000 + w,
        trace: traceDir !== undefined,
      };
      child.send(setup);
      return new Promise<WorkerReport>((resolve) => child.once('message', (message) => resolve(message as WorkerReport)));
    }),
  );
  clearInterval(sampler);
  kernelSampling = false;
  await kernelSampled;
  const last = sampleProcess(pid);
  if (traceDir) {
    writeFileSync(path.join(traceDir, 'day.json'), JSON.stringify({ startAt, people, durationMs, arrivalMs: Number(args.arrival) * 1000 }));
    writeFileSync(path.join(traceDir, 'kernel.ndjson'), kernel.map((k) => JSON.stringify(k)).join('\n'));
    writeFileSync(path.join(traceDir, 'server-cpu.ndjson'), samples.map((s) => JSON.stringify({ at: s.at - startAt, cpuTicks: s.cpuTicks, rssMb: s.rssMb })).join('\n'));
    reports.forEach((r, w) => {
      writeFileSync(path.join(traceDir, `worker-${w}-requests.ndjson`), r.traces.map((t) => JSON.stringify(t)).join('\n'));
      writeFileSync(path.join(traceDir, `worker-${w}-seconds.ndjson`), r.seconds.map((t) => JSON.stringify(t)).join('\n'));
    });
    cpSync(logFile, path.join(traceDir, 'server.log'));
  }
  const peakRss = peakRssMb(pid);
  server.kill('SIGTERM');
  await serverExit;
  rmSync(data, { recursive: true, force: true });

  // Figures per request kind.
  const kinds = [...new Set(reports.flatMap((r) => Object.keys(r.latencies).concat(Object.keys(r.errors))))].sort();
  console.log('\n| request | count | p50 ms | p99 ms | max ms | errors |\n|---|---|---|---|---|---|');
  for (const kind of kinds) {
    const values = reports.flatMap((r) => r.latencies[kind] ?? []);
    const errors = reports.reduce((n, r) => n + (r.errors[kind] ?? 0), 0);
    const max = values.length ? Math.max(...values) : undefined;
    console.log(
      `| ${kind} | ${values.length} | ${fixed(values.length ? percentile(values, 50) : undefined)} | ${fixed(values.length ? percentile(values, 99) : undefined)} | ${fixed(max)} | ${errors} |`,
    );
  }
  const polls = reports.reduce((n, r) => n + r.polls, 0);
  const heartbeats = reports.reduce((n, r) => n + r.heartbeats, 0);
  const registerBytes = reports.flatMap((r) => r.registerBytes);
  console.log(`\nlong polls answered: ${polls.toLocaleString()} (${heartbeats} heartbeats); /register answer ${fixed(percentile(registerBytes, 50) / 1024)} KB (median)`);

  // Delivery: from the send's answer to the last recipient's poll that got the message.
  const lastReceipt = new Map<number, number>();
  for (const r of reports) for (const [id, at] of r.received) if ((lastReceipt.get(id) ?? 0) < at) lastReceipt.set(id, at);
  const delays: number[] = [];
  let undelivered = 0;
  for (const r of reports) {
    for (const [id, answeredAt] of r.sent) {
      const at = lastReceipt.get(id);
      if (at === undefined) undelivered++;
      else delays.push(Math.max(0, at - answeredAt));
    }
  }
  if (delays.length) {
    console.log(
      `delivery (send's answer -> last recipient's poll), ${delays.length} messages: p50 ${fixed(percentile(delays, 50))} ms, p99 ${fixed(percentile(delays, 99))} ms, max ${fixed(Math.max(...delays))} ms${undelivered ? `, ${undelivered} never seen by a poll` : ''}`,
    );
  }

  // The server's CPU, over the whole day and its busiest 10 seconds.
  const seconds = (last.at - first.at) / 1000;
  const overall = ((last.cpuTicks - first.cpuTicks) / TICKS_PER_SECOND / seconds) * 100;
  let busiest = 0;
  for (let i = 10; i < samples.length; i++) {
    busiest = Math.max(busiest, ((samples[i].cpuTicks - samples[i - 10].cpuTicks) / TICKS_PER_SECOND / ((samples[i].at - samples[i - 10].at) / 1000)) * 100);
  }
  const workerCpu = reports.reduce((n, r) => n + r.cpuMs, 0) / 1000;
  const cpuSeconds = (last.cpuTicks - first.cpuTicks) / TICKS_PER_SECOND;
  console.log(
    `server CPU: ${fixed(overall)}% of one core over ${fixed(seconds, 0)} s, ${fixed(cpuSeconds)} CPU seconds (busiest 10 s: ${fixed(busiest)}%); peak RSS ${fixed(peakRss)} MB`,
  );
  // On a shared machine the server waits for a core: its latencies then measure the machine.
  console.log(`machine load average: ${fixed(loadBefore, 2)} before, ${fixed(loadavg()[0], 2)} after`);
  console.log(`listen queue overflows during the day (the whole machine's): ${(listenOverflows() - overflowsBefore).toLocaleString()}`);
  console.log(`load workers: ${workerCount}, ${fixed((workerCpu / seconds) * 100)}% of one core together`);
  const causes = new Map<string, number>();
  for (const r of reports) for (const [cause, n] of Object.entries(r.errorCauses)) causes.set(cause, (causes.get(cause) ?? 0) + n);
  if (causes.size) console.log(`\nerrors by cause: ${[...causes].map(([cause, n]) => `${cause}: ${n}`).join('; ')}`);
  const samplesOfErrors = reports.flatMap((r) => r.errorSamples).slice(0, 10);
  if (samplesOfErrors.length) console.log(`\nerrors, first few:\n${samplesOfErrors.join('\n')}`);
}

if (process.argv.includes('--worker')) {
  // Loaded: the driver sets the day's clock once every worker says so.
  process.send!('ready');
  process.once('message', (setup: WorkerSetup) => {
    worker(setup).then(
      (report) => process.send!(report, () => process.exit(0)),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
} else {
  drive().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
