/**
 * Memory benchmark: does the server's memory stay bounded under a flood of varied and hostile
 * requests?
 *
 * The bundle (dist/stoa.js, as `npm run build` makes it) runs in its own process on a fresh
 * data folder, as users run it; its resident memory is read from the kernel. After its idle
 * RSS, a set of users and channels is made, then several rounds of the same flood run: event
 * queue registrations with long lifespans that nobody ever polls, channel and direct messages
 * with Markdown, math, code and mentions (every formula new), previews, fetches with varied
 * narrows, settings, presence, typing, reactions, flags, drafts, alert words, user groups,
 * and bad requests (unknown endpoints, malformed parameters, wrong credentials, large bodies).
 * RSS is read after each round and again after a pause; a bounded server levels off after the
 * first round or two instead of growing by about the same amount every round.
 *
 *   npm run bench:memory -- [--rounds 6] [--requests 5000] [--users 40] [--concurrency 24]
 *     [--bundle path/to/stoa.js ...] [--npm-start] [--json]
 *
 * With several --bundle, each is measured in turn in the same run (to compare two builds).
 * --npm-start measures the server as `npm start` runs it (package.json's start command) instead,
 * or after the given bundles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from '../scripts/build';
import { Api, rssMb, type Credentials } from './api';
import { processCpuSeconds } from './day-organization';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '6' },
    requests: { type: 'string', default: '5000' },
    users: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '24' },
    pause: { type: 'string', default: '3000' },
    /** After the last round, keep reading RSS this many seconds while nothing is asked (0: not at all). */
    quiet: { type: 'string', default: '0' },
    /** Load bench/memory-probe.cjs into the server and print its breakdown of memory after each round. */
    probe: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    /** Leave out the requests with bodies of up to 1.7 MB (to tell their cost from the rest). */
    'no-large-bodies': { type: 'boolean', default: false },
    bundle: { type: 'string', multiple: true },
    'npm-start': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(args.rounds);
const REQUESTS = Number(args.requests);
const USERS = Number(args.users);
const CONCURRENCY = Number(args.concurrency);
const PAUSE_MS = Number(args.pause);
const QUIET_SECONDS = Number(args.quiet);
/** How often RSS is read during the quiet period. */
const QUIET_STEP_SECONDS = 5;
const OWNER = { email: 'owner@bench.local', password: 'bench-owner-password' };
const CHANNELS = ['general', 'random', 'design', 'ops', 'hostile'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => {
  if (!args.json) console.log(line);
};

/** A small deterministic generator, so every bundle gets the same flood. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}
type Random = ReturnType<typeof random>;

type Server = { child: ChildProcess; url: string; probes: string[] };

/** Stands for the server as `npm start` runs it, in the list of servers to measure. */
const NPM_START = 'npm start';
const root = path.resolve(__dirname, '..');

/** Node's arguments that start the server: the bundle, or package.json's start command (without `node`). */
function serverCommand(server: string): string[] {
  if (server !== NPM_START) return [server];
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const [node, ...rest] = scripts.start.split(/\s+/);
  if (node !== 'node') throw new Error(`npm start does not run node: ${scripts.start}`);
  return rest;
}

function startServer(bundle: string, data: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const probe = args.probe ? ['--require', path.join(__dirname, 'memory-probe.cjs')] : [];
    const child = spawn(
      process.execPath,
      [...probe, ...serverCommand(bundle), '--data', data, '--port', '0', '--admin-email', OWNER.email, '--admin-password', OWNER.password],
      { stdio: ['ignore', 'pipe', 'pipe'], cwd: root },
    );
    const probes: string[] = [];
    let errorText = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      errorText += chunk.toString();
      let newline;
      while ((newline = errorText.indexOf('\n')) >= 0) {
        const line = errorText.slice(0, newline);
        errorText = errorText.slice(newline + 1);
        if (line.startsWith('memory-probe ')) probes.push(line.slice('memory-probe '.length));
        else process.stderr.write(`${line}\n`);
      }
    });
    let output = '';
    let url: string | undefined;
    // The request log is read and thrown away, as a terminal or a log collector would.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (url) return;
      output += chunk.toString();
      const match = /Stoa is listening on (\S+)/.exec(output);
      if (match) resolve({ child, url: (url = match[1]), probes });
    });
    child.once('exit', (code) => {
      if (!url) reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Message text of many kinds; every formula and most texts are new, as in a real flood. */
function content(r: Random, n: number, users: string[]): string {
  switch (r.int(8)) {
    case 0:
      return `Formula ${n}: $$\\frac{${n}}{x_${r.int(1000)}} + \\sqrt{${n % 97}} \\sum_{i=0}^{${n}} i^${r.int(9)}$$`;
    case 1:
      return `\`\`\`${r.pick(['python', 'js', 'rust', 'unknownlang', ''])}\ndef f${n}(x):\n    return x * ${n}\n\`\`\``;
    case 2:
      return `@**${r.pick(users)}** look at https://example.com/issues/${n} and #**general** :tada: :${r.pick(['smile', 'rocket', 'nope', 'heart'])}:`;
    case 3:
      return `${'long text with **bold** and _emphasis_ '.repeat(40 + r.int(200))}${n}`;
    case 4:
      return `> quoted ${n}\n\n* item one\n* item two ${n}\n\n| a | b |\n|---|---|\n| ${n} | x |`;
    case 5:
      return `${'$$'.repeat(r.int(50))}${'['.repeat(r.int(300))}${'*'.repeat(r.int(300))} ${n}`;
    case 6:
      return `/me waves ${n}`;
    default:
      return `Message ${n}: the build is green again.`;
  }
}

function narrow(r: Random, users: string[]): unknown[] {
  const terms: unknown[] = [];
  const count = r.int(4);
  for (let i = 0; i < count; i++) {
    terms.push(
      r.pick([
        { operator: 'channel', operand: r.pick(CHANNELS) },
        { operator: 'topic', operand: `topic ${r.int(50)}` },
        { operator: 'search', operand: r.pick(['build', 'green', 'formula', 'item', `x${r.int(1000)}`]) },
        { operator: 'is', operand: r.pick(['starred', 'mentioned', 'unread', 'dm', 'resolved']) },
        { operator: 'sender', operand: r.pick(users) },
        { operator: 'dm', operand: [r.pick(users)] },
        { operator: 'has', operand: r.pick(['link', 'image', 'attachment', 'reaction']) },
        { operator: 'channels', operand: 'public', negated: r.next() < 0.3 },
      ]),
    );
  }
  return terms;
}

/** A narrow of 10,000 terms, more than SQLite takes in one statement. */
function hugeNarrow(n: number): unknown[] {
  return Array.from({ length: 10_000 }, (_, i) => ({ operator: 'topic', operand: `topic ${n}-${i}`, negated: true }));
}

type Request = { method: string; path: string; auth: string | null; form?: Record<string, unknown>; raw?: string };

/** One request of the flood. */
function floodRequest(r: Random, n: number, auths: string[], emails: string[], messageIds: number[]): Request {
  const auth = r.pick(auths);
  const someMessage = () => (messageIds.length ? r.pick(messageIds) : 1);
  const choice = r.int(100);
  if (choice < 18) {
    // A queue with a long life that nobody ever polls.
    return {
      method: 'POST',
      path: '/register',
      auth,
      form: {
        event_types: r.next() < 0.5 ? null : [r.pick(['message', 'presence', 'typing', 'update_message_flags', 'reaction', 'realm_user'])],
        fetch_event_types: r.next() < 0.7 ? [] : null,
        queue_lifespan_secs: r.pick([0, 3600, 86400, 7 * 86400]),
        apply_markdown: r.next() < 0.5,
        client_gravatar: r.next() < 0.5,
        narrow: r.next() < 0.3 ? [['channel', r.pick(CHANNELS)]] : [],
        client_capabilities: { notification_settings_null: true, user_settings_object: r.next() < 0.5 },
      },
    };
  }
  if (choice < 36) {
    const direct = r.next() < 0.25;
    return {
      method: 'POST',
      path: '/messages',
      auth,
      form: direct
        ? { type: 'direct', to: [r.pick(emails)], content: content(r, n, emails) }
        : { type: 'stream', to: r.pick(CHANNELS), topic: `topic ${r.int(50)}`, content: content(r, n, emails) },
    };
  }
  if (choice < 44) return { method: 'POST', path: '/messages/render', auth, form: { content: content(r, n, emails) } };
  if (choice < 52) {
    return {
      method: 'GET',
      path: '/messages',
      auth,
      form: { anchor: r.pick(['newest', 'oldest', 'first_unread', String(someMessage())]), num_before: r.int(60), num_after: r.int(60), narrow: narrow(r, emails) },
    };
  }
  if (choice < 70) {
    switch (r.int(12)) {
      case 0:
        return { method: 'PATCH', path: '/settings', auth, form: { full_name: `Name ${n}`, default_language: r.pick(['en', 'de', 'fr']) } };
      case 1:
        return { method: 'POST', path: '/users/me/presence', auth, form: { status: r.pick(['active', 'idle']), new_user_input: true } };
      case 2:
        return { method: 'POST', path: '/typing', auth, form: { op: 'start', type: 'direct', to: [r.int(USERS) + 8] } };
      case 3:
        return { method: 'POST', path: `/messages/${someMessage()}/reactions`, auth, form: { emoji_name: r.pick(['smile', 'tada', 'rocket', 'octopus']) } };
      case 4:
        return { method: 'POST', path: '/messages/flags', auth, form: { messages: [someMessage(), someMessage()], op: r.pick(['add', 'remove']), flag: r.pick(['read', 'starred']) } };
      case 5:
        return { method: 'POST', path: '/drafts', auth, form: { drafts: [{ type: 'stream', to: [1], topic: `t${n}`, content: `draft ${n}`, timestamp: 1700000000 }] } };
      case 6:
        return { method: 'POST', path: '/users/me/alert_words', auth, form: { alert_words: [`word${n % 200}`] } };
      case 7:
        return { method: 'GET', path: '/users', auth, form: { client_gravatar: r.next() < 0.5 } };
      case 8:
        return { method: 'GET', path: '/streams', auth };
      case 9:
        return { method: 'POST', path: '/users/me/status', auth, form: { status_text: `busy ${n}`, emoji_name: 'car' } };
      case 10:
        return { method: 'GET', path: `/messages/${someMessage()}`, auth };
      default:
        return { method: 'POST', path: '/messages/flags/narrow', auth, form: { anchor: 'newest', num_before: 10, num_after: 0, narrow: narrow(r, emails), op: 'add', flag: 'read' } };
    }
  }
  switch (r.int(9)) {
    case 0:
      return { method: r.pick(['GET', 'POST', 'PATCH']), path: `/no/such/endpoint/${n}`, auth };
    case 8:
      // A narrow too large for one SQL statement (10,000 terms): refused with a 400.
      return { method: 'POST', path: '/messages/flags/narrow', auth, form: { anchor: 'newest', num_before: 10, num_after: 0, op: 'add', flag: 'read', narrow: hugeNarrow(n) } };
    case 1:
      return { method: 'GET', path: '/messages', auth, form: { anchor: 'newest', num_before: 'many', narrow: '{not json' } };
    case 2:
      return { method: 'GET', path: '/users/me', auth: Api.authHeader({ email: `nobody${n}@bench.local`, apiKey: `key${n}` }) };
    case 3:
      if (args['no-large-bodies']) return { method: 'GET', path: '/users/me', auth };
      return { method: 'POST', path: '/messages', auth, raw: `type=stream&to=general&topic=big&content=${'x'.repeat(200_000 + r.int(1_500_000))}` };
    case 4:
      return { method: 'GET', path: '/events', auth, form: { queue_id: `fake-${n}`, last_event_id: 3 } };
    case 5:
      return { method: 'POST', path: '/register', auth, form: { narrow: [{ operator: 'nonsense', operand: n }], event_types: 'x' } };
    case 6:
      return { method: 'DELETE', path: '/messages/99999999', auth };
    default:
      return { method: 'POST', path: '/messages', auth, form: { type: 'stream', to: `nochannel${n}`, topic: 'x', content: 'x', [`unknown_param_${n}`]: 'y' } };
  }
}

/** Any answer is fine (the flood is meant to be refused often); only a 5xx is a failure. */
async function send(base: string, request: Request): Promise<{ status: number; body: any }> {
  const form = request.form
    ? new URLSearchParams(Object.entries(request.form).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
    : undefined;
  const inQuery = request.method === 'GET' || request.method === 'DELETE';
  const body = request.raw ?? (inQuery ? undefined : form);
  const response = await fetch(`${base}/api/v1${request.path}${inQuery && form ? `?${form}` : ''}`, {
    method: request.method,
    headers: {
      ...(request.auth ? { Authorization: request.auth } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
    body,
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

interface BundleResult {
  bundle: string;
  idleRssMb: number;
  afterSetupRssMb: number;
  rounds: Array<{ afterFloodRssMb: number; afterPauseRssMb: number; seconds: number; serverCpuSeconds: number; statuses: Record<string, number>; probe?: unknown }>;
  /** RSS every QUIET_STEP_SECONDS after the last round, while nothing is asked. */
  quiet: Array<{ seconds: number; rssMb: number; probe?: unknown }>;
  peakRssMb: number;
}

async function measure(bundle: string): Promise<BundleResult> {
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-bench-memory-'));
  const { child, url, probes } = await startServer(bundle, data);
  const pid = child.pid!;
  /** The probe's breakdown of the server's memory now (with --probe), else undefined. */
  const readProbe = async (): Promise<unknown> => {
    if (!args.probe) return undefined;
    const count = probes.length;
    child.kill('SIGUSR2');
    for (let waited = 0; probes.length === count && waited < 180_000; waited += 50) await sleep(50);
    const line = probes[probes.length - 1];
    log(`    probe: ${line}`);
    return JSON.parse(line);
  };
  const api = new Api(url, CONCURRENCY + 4);
  let peak = 0;
  const sample = () => {
    const rss = rssMb(pid);
    peak = Math.max(peak, rss);
    return rss;
  };
  const sampler = setInterval(sample, 100);
  try {
    await sleep(1000);
    const idleRssMb = sample();
    const owner = await api.login(OWNER.email, OWNER.password);
    const ownerAuth = Api.authHeader(owner);
    const users: Credentials[] = [owner];
    for (let i = 1; i < USERS; i++) {
      const email = `user${i}@bench.local`;
      await api.call('POST', '/users', ownerAuth, { email, password: 'bench-user-password', full_name: `User ${i}` });
      users.push(await api.login(email, 'bench-user-password'));
    }
    const emails = users.map((u) => u.email);
    await api.call('POST', '/users/me/subscriptions', ownerAuth, { subscriptions: CHANNELS.map((name) => ({ name })), principals: emails });
    const auths = users.map(Api.authHeader);
    const afterSetupRssMb = sample();
    log(`${path.basename(bundle)}: idle ${idleRssMb.toFixed(1)} MB, after setup (${USERS} users) ${afterSetupRssMb.toFixed(1)} MB`);
    await readProbe();

    const rounds: BundleResult['rounds'] = [];
    const messageIds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // The same flood every round, so rounds differ only in what the server keeps.
      const r = random(Number(args.seed) * 7919 + round);
      const statuses: Record<string, number> = {};
      let n = round * REQUESTS;
      let issued = 0;
      const startedAt = performance.now();
      const cpuAtStart = processCpuSeconds(pid);
      const worker = async () => {
        while (issued < REQUESTS) {
          issued++;
          const request = floodRequest(r, n++, auths, emails, messageIds);
          const answer = await send(url, request);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (request.path === '/messages' && request.method === 'POST' && answer.status === 200) {
            messageIds.push(answer.body.id);
            if (messageIds.length > 2000) messageIds.shift();
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const seconds = (performance.now() - startedAt) / 1000;
      // What the round cost the server (V8's collections included), to weigh a smaller heap against it.
      const serverCpuSeconds = processCpuSeconds(pid) - cpuAtStart;
      const afterFloodRssMb = sample();
      await sleep(PAUSE_MS);
      const afterPauseRssMb = sample();
      const probe = await readProbe();
      rounds.push({ afterFloodRssMb, afterPauseRssMb, seconds, serverCpuSeconds, statuses, probe });
      log(
        `  round ${round + 1}: ${REQUESTS} requests in ${seconds.toFixed(1)} s (server CPU ${serverCpuSeconds.toFixed(1)} s); RSS after the flood ${afterFloodRssMb.toFixed(1)} MB, ` +
          `after ${PAUSE_MS / 1000} s ${afterPauseRssMb.toFixed(1)} MB; peak so far ${peak.toFixed(1)} MB; statuses ${JSON.stringify(statuses)}`,
      );
      // 5xx answers are counted, not fatal: finding them is another test suite's job.
    }
    const quiet: BundleResult['quiet'] = [];
    for (let seconds = QUIET_STEP_SECONDS; seconds <= QUIET_SECONDS; seconds += QUIET_STEP_SECONDS) {
      await sleep(QUIET_STEP_SECONDS * 1000);
      const rssMb = sample();
      log(`  quiet for ${seconds} s: RSS ${rssMb.toFixed(1)} MB`);
      quiet.push({ seconds, rssMb, probe: await readProbe() });
    }
    return { bundle, idleRssMb, afterSetupRssMb, rounds, quiet, peakRssMb: peak };
  } finally {
    clearInterval(sampler);
    api.close();
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const bundles = args.bundle?.length ? args.bundle.map((b) => path.resolve(b)) : args['npm-start'] ? [] : [await buildBundle()];
  if (args['npm-start']) bundles.push(NPM_START);
  const machine = { nproc: cpus().length, node: process.version, loadBefore: loadavg()[0] };
  log(`${machine.nproc} CPUs, Node ${machine.node}, load average ${machine.loadBefore.toFixed(2)}; ${ROUNDS} rounds of ${REQUESTS} requests, ${CONCURRENCY} at a time`);
  const results = [];
  for (const bundle of bundles) {
    const result = await measure(bundle);
    const last = result.rounds[result.rounds.length - 1].afterPauseRssMb;
    const second = result.rounds[Math.min(1, result.rounds.length - 1)].afterPauseRssMb;
    const growth = (last - second) / Math.max(1, result.rounds.length - 2);
    log(
      `${path.basename(bundle)}: idle ${result.idleRssMb.toFixed(1)} MB; after the last round ${last.toFixed(1)} MB; peak ${result.peakRssMb.toFixed(1)} MB; ` +
        `growth per round after the second: ${growth.toFixed(1)} MB`,
    );
    results.push({ ...result, growthPerRoundAfterSecondMb: growth });
  }
  const loadAfter = loadavg()[0];
  log(`load average after: ${loadAfter.toFixed(2)}`);
  if (args.json) console.log(JSON.stringify({ date: new Date().toISOString(), machine, loadAfter, rounds: ROUNDS, requests: REQUESTS, users: USERS, results }));
}

void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
