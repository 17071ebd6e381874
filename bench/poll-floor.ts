/**
 * The floor the day of 1,000 (bench/day.ts) stands on: what the long-poll cycle alone costs a
 * Node server on this machine, with no chat server in it. A bare `node:http` server keeps one
 * event queue per person; every 1/R seconds one event (a channel message's size) goes into
 * every queue, and a parked poll is answered at once with what its queue holds, as Stoa does.
 * The people are load processes like the day's: each answer is read and parsed, and the next
 * poll sent at once on the same keep-alive connection. Measured over the window after a
 * warm-up: polls answered a second, the server's CPU (user + system, its own process), and
 * each event's delivery, from its going into the queues to the last person's answer arriving.
 *
 *   node --import tsx bench/poll-floor.ts --people 1000 --rate 7 --seconds 30
 *     --people N    queues, each with one poll parked at a time (default 1000)
 *     --rate R      events a second into every queue (default 7: the day's ~7,000 answers a second)
 *     --seconds S   measured window, after 5 s of warm-up (default 30)
 *     --workers N   load processes (default 2, as the day's)
 *     --target T    bare (default), or stoa: the bundle on a copy of the day's organization
 *                   (bench/day-organization.ts), each person with a queue of their own, the
 *                   event one person's name change (a small write everyone is told of)
 *     --bundle FILE the bundle for --target stoa (default dist/stoa.js)
 *     --profile DIR with --target stoa: the server's CPU profile (--cpu-prof) into DIR
 *     --node-flags=F with --target stoa: Node flags for the server (default none, as shipped)
 *
 * The day's server pays this cycle for every poll it answers, and then does the chat server's
 * work besides (storing messages, registrations, views, reactions): the server CPU this prints
 * for the day's answer rate is the share of a core no change inside Stoa can save.
 */
import { fork, type ChildProcess } from 'node:child_process';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processCpuSeconds, SERVER_NODE_FLAGS, startOnDayOrganization } from './day-organization';
import type { Credentials } from './protocol';

const WARM_UP_MS = 5_000;

/** A channel message event of the day's size (about 1 KB of JSON), made into JSON once per round. */
function messageEvent(round: number): string {
  const firedAt = performance.timeOrigin + performance.now();
  const content = `<p>${'Round '.repeat(100)}${round}</p>`;
  return JSON.stringify({
    type: 'message',
    flags: [],
    message: { id: round, sender_id: 8, sender_full_name: 'Day Person 8', sender_email: 'user8@day.example', type: 'stream', stream_id: 1, display_recipient: 'everyone', subject: 'the day', content, timestamp: 1_800_000_000 + round, fired_at: firedAt, reactions: [], submessages: [], topic_links: [], is_me_message: false, recipient_id: 2, avatar_url: null, client: 'website', content_type: 'text/html' },
  });
}

interface ServerReport {
  answers: number;
  cpuMs: number;
  wallMs: number;
}

function server(rate: number): void {
  /** Per queue: the events not yet delivered (id, JSON), and the parked poll if there is one. */
  const queues = new Map<string, { events: Array<{ id: number; json: string }>; nextId: number; parked: ServerResponse | null }>();
  let answers = 0;
  const answer = (res: ServerResponse, queueId: string, events: Array<{ id: number; json: string }>) => {
    answers++;
    const body = `{"result":"success","msg":"","events":[${events.map((e) => `${e.json.slice(0, -1)},"id":${e.id}}`).join(',')}],"queue_id":${JSON.stringify(queueId)}}`;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  };
  const httpServer = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://floor');
    const queueId = url.searchParams.get('queue_id') ?? '';
    let queue = queues.get(queueId);
    if (!queue) {
      queue = { events: [], nextId: 0, parked: null };
      queues.set(queueId, queue);
    }
    const last = Number(url.searchParams.get('last_event_id'));
    queue.events = queue.events.filter((e) => e.id > last);
    if (queue.events.length > 0) return answer(res, queueId, queue.events);
    queue.parked = res;
    res.on('close', () => {
      if (queue!.parked === res) queue!.parked = null;
    });
  });
  httpServer.keepAliveTimeout = 65_000;
  let round = 0;
  setInterval(() => {
    const json = messageEvent(round++);
    for (const [queueId, queue] of queues) {
      queue.events.push({ id: queue.nextId++, json });
      if (queue.parked) {
        const res = queue.parked;
        queue.parked = null;
        answer(res, queueId, queue.events);
      }
    }
  }, 1000 / rate);
  let start: { answers: number; cpu: NodeJS.CpuUsage; wall: number } | undefined;
  process.on('message', (message: { type: string }) => {
    if (message.type === 'start') start = { answers, cpu: process.cpuUsage(), wall: performance.now() };
    if (message.type === 'stop' && start) {
      const cpu = process.cpuUsage(start.cpu);
      const report: ServerReport = { answers: answers - start.answers, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - start.wall };
      process.send!({ type: 'report', report }, () => process.exit(0));
    }
  });
  httpServer.listen(0, '127.0.0.1', () => process.send!({ type: 'listening', port: (httpServer.address() as AddressInfo).port }));
}

/** What a load worker is given: the server, and its share of the people (credentials for Stoa). */
interface ClientSetup {
  url: string;
  target: 'bare' | 'stoa';
  queues: Array<{ name: string; credentials?: Credentials }>;
}

/** The round an event belongs to, and when it was fired if the event says (the bare server's do). */
function roundOf(event: any): { round: number; firedAt?: number } | undefined {
  if (event.type === 'message') return { round: event.message.id, firedAt: event.message.fired_at };
  const name = /^Floor (\d+)$/.exec(event.person?.full_name ?? '');
  return name ? { round: Number(name[1]) } : undefined;
}

function client(setup: ClientSetup): void {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  let cpuStart = process.cpuUsage();
  let measuring = false;
  /** Per round measured: when the last of this worker's people got it (and when it was fired, if the event says). */
  const rounds = new Map<number, { firedAt?: number; lastAt: number }>();
  const call = (method: string, path: string, auth: string | undefined, form: Record<string, string> | undefined, done: (body: any) => void, failed: () => void) => {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string | number> = auth ? { Authorization: auth } : {};
    if (body) Object.assign(headers, { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) });
    const req = http.request(new URL(`/api/v1${path}`, setup.url), { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(JSON.parse(Buffer.concat(chunks).toString())));
    });
    req.on('error', failed);
    req.end(body);
  };
  const poll = (queueId: string, auth: string | undefined, lastEventId: number) => {
    call('GET', `/events?queue_id=${queueId}&last_event_id=${lastEventId}`, auth, undefined, (body) => {
      const receivedAt = performance.timeOrigin + performance.now();
      const events = body.events as Array<{ id: number }>;
      if (!events) throw new Error(`poll refused: ${JSON.stringify(body)}`);
      if (measuring) {
        for (const event of events) {
          const seen = roundOf(event);
          if (!seen) continue;
          const round = rounds.get(seen.round) ?? { firedAt: seen.firedAt, lastAt: 0 };
          round.lastAt = Math.max(round.lastAt, receivedAt);
          rounds.set(seen.round, round);
        }
      }
      poll(queueId, auth, events.length ? events[events.length - 1].id : lastEventId);
    }, () => setTimeout(() => poll(queueId, auth, lastEventId), 100));
  };
  const begin = async () => {
    for (const { name, credentials } of setup.queues) {
      if (setup.target === 'bare') {
        poll(name, undefined, -1);
        continue;
      }
      // Stoa: a queue of the person's own, for the event the driver makes (a name change).
      const auth = `Basic ${Buffer.from(`${credentials!.email}:${credentials!.apiKey}`).toString('base64')}`;
      const registered = await new Promise<any>((resolve, reject) =>
        call('POST', '/register', auth, { event_types: '["realm_user"]', fetch_event_types: '[]' }, resolve, () => reject(new Error('register failed'))),
      );
      poll(registered.queue_id, auth, registered.last_event_id);
    }
    process.send!({ type: 'polling' });
  };
  process.on('message', (message: { type: string; setup?: ClientSetup }) => {
    if (message.type === 'start') {
      cpuStart = process.cpuUsage();
      measuring = true;
    }
    if (message.type === 'stop') {
      const cpu = process.cpuUsage(cpuStart);
      process.send!({ type: 'report', cpuMs: (cpu.user + cpu.system) / 1000, rounds: [...rounds] }, () => process.exit(0));
    }
  });
  void begin();
}

/** Stoa on a copy of the day's organization; its events are one person's name changes, `rate` a second. */
async function startStoa(people: number, rate: number, bundle: string, profileDir: string | undefined, nodeFlags: readonly string[]) {
  const running = await startOnDayOrganization(people, bundle, profileDir, nodeFlags);
  const firedAt = new Map<number, number>();
  const changer = running.organization.people[0];
  const auth = `Basic ${Buffer.from(`${changer.email}:${changer.apiKey}`).toString('base64')}`;
  const agent = new http.Agent({ keepAlive: true });
  let round = 0;
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    const id = round++;
    const body = new URLSearchParams({ full_name: `Floor ${id}` }).toString();
    firedAt.set(id, performance.timeOrigin + performance.now());
    const req = http.request(new URL('/api/v1/settings', running.url), { method: 'PATCH', agent, headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } }, (res) => res.resume());
    req.on('error', () => {}); // the last ones, cut off when the server stops
    req.end(body);
  };
  return {
    url: running.url,
    people: running.organization.people,
    startFiring: () => (timer = setInterval(fire, 1000 / rate)),
    cpuSeconds: () => processCpuSeconds(running.pid),
    firedAt,
    stop: async () => {
      clearInterval(timer);
      agent.destroy();
      await running.stop();
    },
  };
}

async function drive(): Promise<void> {
  const { values: args } = parseArgs({
    args: process.argv.slice(2),
    options: {
      people: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '7' },
      seconds: { type: 'string', default: '30' },
      workers: { type: 'string', default: '2' },
      target: { type: 'string', default: 'bare' },
      bundle: { type: 'string', default: path.join(__dirname, '..', 'dist', 'stoa.js') },
      profile: { type: 'string' },
      'node-flags': { type: 'string' },
    },
  });
  const people = Number(args.people);
  const workers = Number(args.workers);
  const rate = Number(args.rate);
  if (args.target !== 'bare' && args.target !== 'stoa') throw new Error('--target is bare or stoa');
  const target = args.target;

  let url: string;
  let stoa: Awaited<ReturnType<typeof startStoa>> | undefined;
  let queues: ClientSetup['queues'];
  const serverChild = target === 'bare' ? fork(__filename, ['--server', String(rate)], { execArgv: ['--import', 'tsx'] }) : undefined;
  if (serverChild) {
    const port = await new Promise<number>((resolve) => serverChild.once('message', (m: { port: number }) => resolve(m.port)));
    url = `http://127.0.0.1:${port}`;
    queues = Array.from({ length: people }, (_, i) => ({ name: `queue-${i}` }));
  } else {
    stoa = await startStoa(people, rate, path.resolve(args.bundle!), args.profile, args['node-flags']?.split(/\s+/).filter(Boolean) ?? SERVER_NODE_FLAGS);
    url = stoa.url;
    queues = stoa.people.slice(0, people).map((person) => ({ name: person.email, credentials: person }));
  }
  const share = Math.ceil(people / workers);
  const clients = Array.from({ length: workers }, (_, w) => {
    const child = fork(__filename, ['--client'], { execArgv: ['--import', 'tsx'] });
    child.send({ type: 'setup', setup: { url, target, queues: queues.slice(w * share, (w + 1) * share) } satisfies ClientSetup });
    return child;
  });
  await Promise.all(clients.map((child) => new Promise((resolve) => child.once('message', resolve))));
  stoa?.startFiring();
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
  const wallStart = performance.now();
  const stoaCpuStart = stoa?.cpuSeconds() ?? 0;
  for (const child of [...(serverChild ? [serverChild] : []), ...clients]) child.send({ type: 'start' });
  await new Promise((resolve) => setTimeout(resolve, Number(args.seconds) * 1000));
  const ask = (child: ChildProcess) => new Promise<any>((resolve) => {
    child.once('message', resolve);
    child.send({ type: 'stop' });
  });
  const wallMs = performance.now() - wallStart;
  const stoaCpuMs = stoa ? (stoa.cpuSeconds() - stoaCpuStart) * 1000 : 0;
  const serverReport = serverChild ? ((await ask(serverChild)).report as ServerReport) : undefined;
  const reports = await Promise.all(clients.map(ask));
  await stoa?.stop();

  const clientCpuMs = reports.reduce((n, r) => n + r.cpuMs, 0);
  // A round's delivery: from the event going into the queues (Stoa: the name change asked for)
  // to the last person's answer arriving, over every worker; rounds fired in the window's last
  // second may not have reached everyone, and are left out.
  const lastAt = new Map<number, { firedAt?: number; lastAt: number }>();
  for (const report of reports) {
    for (const [id, round] of report.rounds as Array<[number, { firedAt?: number; lastAt: number }]>) {
      const seen = lastAt.get(id);
      lastAt.set(id, { firedAt: round.firedAt ?? seen?.firedAt ?? stoa?.firedAt.get(id), lastAt: Math.max(seen?.lastAt ?? 0, round.lastAt) });
    }
  }
  const ids = [...lastAt.keys()].sort((a, b) => a - b).slice(1, -Math.ceil(rate));
  const deliveries = ids.map((id) => lastAt.get(id)!).filter((r) => r.firedAt !== undefined).map((r) => r.lastAt - r.firedAt!).sort((a, b) => a - b);
  const at = (q: number) => deliveries[Math.min(deliveries.length - 1, Math.floor(q * deliveries.length))].toFixed(1);
  const cpuMs = serverReport?.cpuMs ?? stoaCpuMs;
  // Stoa counts no answers for us: a round reaches every queue, with one answer each at most.
  const answers = serverReport?.answers ?? deliveries.length * people;
  console.log(`${target === 'bare' ? 'bare node:http' : `Stoa (${path.relative(process.cwd(), path.resolve(args.bundle!))})`}, ${people} queues, ${rate} events a second into each, ${(wallMs / 1000).toFixed(1)} s measured`);
  console.log(`polls answered: ${answers}${serverReport ? '' : ' at most'} (${Math.round(answers / (wallMs / 1000))} a second)`);
  console.log(`server CPU: ${((cpuMs / wallMs) * 100).toFixed(1)}% of one core, ${((cpuMs * 1000) / answers).toFixed(1)} us a poll answered (and asked again)`);
  console.log(`delivery (event into the queues -> the last person's answer), ${deliveries.length} events: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
  console.log(`load workers: ${workers}, ${((clientCpuMs / wallMs) * 100).toFixed(1)}% of one core together`);
  console.log(`machine load average after: ${loadavg()[0].toFixed(2)}`);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === '--server') server(Number(rest[0]));
else if (mode === '--client') process.once('message', (message: { setup: ClientSetup }) => client(message.setup));
else void drive().catch((err) => {
  console.error(err);
  process.exit(1);
});
