/**
 * The server side of the event fan-out benchmark (bench/events.ts), bundled as the product
 * is and run with plain Node in its own process, so its memory is the server's alone (no
 * TypeScript loader, no benchmark driver) and its CPU is not shared with the load client.
 *
 *   stoa <data>   Stoa as `npm start` runs it, on that data folder
 *   bare          the yardstick: node:http and nothing else, parking every GET /events and
 *                 answering them all with one event when the driver says so; it answers
 *                 POST /register and DELETE /events with a made-up queue
 *
 * Either reports to the driver over IPC: when it listens, when every poll is parked, each
 * fan-out's timings measured inside the server, and its memory after full collections (run
 * with --expose-gc).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BENCH_OWNER, type ToServer, type FromServer } from './protocol';

/** Long enough that no poll gets a heartbeat while the benchmark runs. */
const HEARTBEAT_MS = 30 * 60_000;

const report = (message: FromServer) => process.send!(message);

function memory() {
  global.gc?.();
  global.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMb: rss / 2 ** 20, heapMb: heapUsed / 2 ** 20 };
}

/**
 * Watches the polls of a server: how many are open, and for each fan-out, when each answer
 * was handed to the kernel (the response's 'finish'), measured from when delivery began.
 */
class PollWatch {
  private openPolls = 0;
  private waitingFor: number | null = null;
  private fanOut: { startedAt: number; cpu: NodeJS.CpuUsage; polls: number; finishes: number[] } | null = null;

  constructor(server: Server) {
    // Before the server's own listener, which may answer at once.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== 'GET' || !req.url?.startsWith('/api/v1/events')) return;
      this.openPolls++;
      this.checkParked();
      res.once('finish', () => this.finished());
      res.once('close', () => this.openPolls--);
    });
  }

  awaitParked(count: number): void {
    this.waitingFor = count;
    this.checkParked();
  }

  /** A delivery began now (right after the commit) and will answer this many polls. */
  started(startedAt: number, polls: number): void {
    if (polls > 0) this.fanOut = { startedAt, cpu: process.cpuUsage(), polls, finishes: [] };
  }

  private checkParked(): void {
    if (this.waitingFor !== null && this.openPolls >= this.waitingFor) {
      this.waitingFor = null;
      report({ type: 'parked' });
    }
  }

  private finished(): void {
    const fanOut = this.fanOut;
    if (!fanOut) return;
    fanOut.finishes.push(performance.now());
    if (fanOut.finishes.length < fanOut.polls) return;
    // CPU time is what the fan-out costs whatever else the machine runs; wall time is not.
    const cpu = process.cpuUsage(fanOut.cpu);
    report({
      type: 'answered',
      startedAtWallMs: performance.timeOrigin + fanOut.startedAt,
      polls: fanOut.polls,
      firstAnswerMs: fanOut.finishes[0] - fanOut.startedAt,
      allAnsweredMs: fanOut.finishes[fanOut.finishes.length - 1] - fanOut.startedAt,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
    this.fanOut = null;
  }
}

async function stoa(data: string): Promise<{ url: string; watch: PollWatch; queues: () => number; close: () => Promise<void> }> {
  // Loaded here only: the bare server runs without Stoa's code in its memory.
  const { DEFAULTS } = await import('../lib/config');
  const { startServer } = await import('../lib/server');
  let watch: PollWatch | undefined;
  const running = await startServer(
    { ...DEFAULTS, port: 0, data, adminEmail: BENCH_OWNER.email, adminPassword: BENCH_OWNER.password, dev: false },
    {
      eventQueues: {
        heartbeatMs: HEARTBEAT_MS,
        // The benchmark spreads thousands of queues over a few users; it measures fan-out,
        // not the per-user bound.
        maxQueuesPerUser: Infinity,
        onDelivery: ({ startedAt, answeredPolls }) => watch?.started(startedAt, answeredPolls),
      },
    },
  );
  watch = new PollWatch(running.http);
  return { url: running.url, watch, queues: () => running.stoa.queues.count, close: running.close };
}

async function bare(): Promise<{ url: string; watch: PollWatch; queues: () => number; fire: () => void }> {
  const ok = (res: ServerResponse, fields: string) => {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(`{"result":"success","msg":""${fields}}`);
  };
  let queueCount = 0;
  let parked: Array<{ res: ServerResponse; queueId: string; nextId: number }> = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://bare');
    req.resume(); // bodies are not read
    if (req.method === 'POST' && url.pathname === '/api/v1/register') {
      return ok(res, `,"queue_id":"bare-${queueCount++}","last_event_id":-1`);
    }
    if (req.method === 'GET' && url.pathname === '/api/v1/events') {
      const queueId = url.searchParams.get('queue_id')!;
      return void parked.push({ res, queueId, nextId: Number(url.searchParams.get('last_event_id')) + 1 });
    }
    ok(res, '');
  });
  server.keepAliveTimeout = 65_000; // as Stoa's (lib/server.ts)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const watch = new PollWatch(server);
  let round = 0;
  const fire = () => {
    const polls = parked;
    parked = [];
    watch.started(performance.now(), polls.length);
    // The event Stoa sends in the same round, made into JSON once.
    const event = JSON.stringify({ type: 'realm_user', op: 'update', person: { user_id: 8, full_name: `Owner ${round++}` } });
    for (const { res, queueId, nextId } of polls) {
      ok(res, `,"events":[${event.slice(0, -1)},"id":${nextId}}],"queue_id":${JSON.stringify(queueId)}`);
    }
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, watch, queues: () => queueCount, fire };
}

async function main(): Promise<void> {
  const [mode, data] = process.argv.slice(2);
  const server = mode === 'bare' ? await bare() : await stoa(data);
  process.on('message', (message: ToServer) => {
    switch (message.type) {
      case 'await-parked':
        server.watch.awaitParked(message.count);
        break;
      case 'fire':
        if (!('fire' in server)) throw new Error('only the bare server fires events by itself');
        server.fire();
        break;
      case 'memory':
        report({ type: 'memory', ...memory(), queues: server.queues() });
        break;
      case 'exit':
        void ('close' in server ? server.close() : Promise.resolve()).then(() => process.exit(0));
        break;
    }
  });
  report({ type: 'listening', url: server.url });
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
