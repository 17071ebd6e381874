import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Duplex } from 'node:stream';
import path from 'node:path';
import { createRequestListener } from './app';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { openDatabase, startCheckpointer } from './db';
import type { EventQueuesOptions } from './events/queues';
import { commitShared, write } from './events/send';
import { createDemoOrganization, isDemoOrganization } from './demo/actions';
import { DEMO_PEOPLE } from './demo/organization';
import { DATABASE_FILE, makeOwnerPassword, type OwnerPassword } from './first-start';
import { createOrganization } from './realm/actions';
import { furnishNewOrganization } from './realm/starter';
import { emojiPathIds } from './realm-emoji/present';
import { rescheduleMissedMessageEmails } from './mail/missed-messages';
import { resumePushRegistrations } from './push/actions';
import { backgroundSettled } from './push/background';
import { rescheduleDelivery, stopDelivery } from './scheduled-messages/delivery';
import { startRetention, stopRetention } from './messages/retention';
import { notifyWhatLastQueueMissed } from './messages/withheld-notifications';
import { stopFullMemberPromotion, updateFullMembers } from './groups/full-members';
import { startOutgoingWebhooks } from './bots/outgoing-webhooks';
import { exportsSettled, failInterruptedExports } from './export/actions';
import { runsWithOwnHeapFlags } from './memory/bounded-heap';
import { releaseMemoryWhenQuiet } from './memory/idle-release';
import { governYoungGeneration } from './memory/young-generation';
import { startScheduledBackups } from './backup/schedule';
import { createStoa, type Stoa } from './stoa';
import { Turns } from './http/turns';

export { DATABASE_FILE };
export const ZULIPRC_FILE = 'zuliprc';
/**
 * How often idle event queues are looked for when nobody registers: often enough that queues
 * never polled go soon after their minute (DEFAULT_EVENT_QUEUE_OPTIONS).
 */
const GC_INTERVAL_MS = 10_000;
/** How long an idle keep-alive connection stays open; longer than the heartbeat, as proxies do. */
const KEEP_ALIVE_MS = 65_000;
/** Shutdown gives in-flight requests this long before closing their connections. */
const SHUTDOWN_GRACE_MS = 1000;

export interface RunningServer {
  stoa: Stoa;
  /** Base URL, e.g. http://127.0.0.1:9991. */
  url: string;
  port: number;
  /** The listening HTTP server, for callers that watch requests (the benchmarks do). */
  http: Server;
  /** Where the owner's zuliprc was written; undefined with --data :memory:. */
  zuliprcPath: string | undefined;
  /** Stops accepting, answers what is in flight, closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Heartbeat interval and queue bounds; tests shorten the heartbeat. */
  eventQueues?: Partial<EventQueuesOptions>;
  /** Receives every line the server prints; defaults to stdout. */
  log?: (line: string) => void;
  /** The first owner's password and hash, begun before the server loaded (server.ts). */
  ownerPassword?: Promise<OwnerPassword>;
}

/**
 * The default log: stdout, written once per turn of the event loop. One event can answer
 * thousands of parked polls in a single turn, and a write per line would cost a system call
 * per answer.
 */
function stdoutLog(): { log: (line: string) => void; flush: () => void } {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    process.stdout.write(`${pending.join('\n')}\n`);
    pending = [];
  };
  return {
    log: (line) => {
      if (pending.push(line) === 1) setImmediate(flush);
    },
    flush,
  };
}

/** The URL this machine itself reaches the server by. */
function localUrl(host: string, port: number): string {
  // A wildcard address is where we listen, not an address to connect to.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return urlOf(reachable, port);
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The organization's URL, which clients on other machines build every request from: --site
 * when given; otherwise, when listening on every interface, this machine's first network
 * address, so that a phone on the same network is not sent to its own loopback.
 */
function siteUrl(config: Config, port: number): string {
  if (config.site !== undefined) return config.site;
  if (config.host === '0.0.0.0' || config.host === '::') {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal);
    if (external) return urlOf(external.address, port);
  }
  return localUrl(config.host, port);
}

/** The [api] section Zulip's clients (the Python bindings, zulip-js, zulip-terminal) read. */
export function zuliprcText(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}

/**
 * Connections the kernel holds for us until we accept them (capped by the system's
 * net.core.somaxconn). Node accepts only between callbacks: when a crowd arrives at once,
 * each registering, the server can be busy for seconds with requests already read, and with
 * Node's default of 511 the queue overflows: new connections are dropped (the client waits
 * to try again) or, their handshake done, reset (ECONNRESET). A waiting connection costs the
 * kernel little.
 */
const LISTEN_BACKLOG = 4096;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, LISTEN_BACKLOG, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * A request Node's HTTP parser refuses (a request line or headers too long, bytes a URL may
 * not hold) never reaches the application; its answer is still a Zulip error body, so a
 * client can tell what it did wrong.
 */
function answerUnparsable(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, reason, msg] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request line or headers too large: send long parameters in the body']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request timed out']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Starts Stoa as `npm start` and the bundle do: open (or create) the organization, listen,
 * and write the owner's zuliprc. Tests call this too, so they exercise the same path.
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const stdout = options.log ? undefined : stdoutLog();
  const log = options.log ?? stdout!.log;
  const inMemory = config.data === ':memory:';
  if (!inMemory) mkdirSync(config.data, { recursive: true });
  const file = inMemory ? ':memory:' : path.join(config.data, DATABASE_FILE);
  const db = openDatabase(file);
  const stopCheckpointer = inMemory ? () => Promise.resolve() : startCheckpointer(file, log);
  const stoa = createStoa(db, config, options.clock ?? systemClock, options.eventQueues);
  stoa.log = log;
  try {
    refuseDemoOverOtherOrganization(stoa);
  } catch (err) {
    await stopCheckpointer();
    db.close();
    throw err;
  }
  startOutgoingWebhooks(stoa);
  // Hashing the first owner's password takes about 160 ms on the thread pool; it runs while
  // the application is built (or, from server.ts, while the server loads) instead of after.
  const firstStart = startFirstStart(stoa, options.ownerPassword);
  const turns = new Turns();
  const server = createServer(createRequestListener(stoa, log, turns));
  turns.watch(server);
  // Long-poll clients poll again as soon as they are answered, reusing the connection. Node
  // drops idle connections after 5 s, and a server busy answering a large fan-out can reach
  // that timer before it reads a request already waiting on the socket: the client then sees
  // ECONNRESET. Idle connections of long-poll clients are cheap, so keep them a while.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  server.on('clientError', answerUnparsable);
  try {
    createOrganizationOnFirstStart(stoa, await firstStart, log);
    failInterruptedExports(stoa);
    await listen(server, config.port, config.host);
  } catch (err) {
    await stopCheckpointer();
    db.close();
    stdout?.flush();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  stoa.site = siteUrl(config, port);
  const local = localUrl(config.host, port);

  const owner = stoa.users.firstOwner()!;
  const zuliprc = zuliprcText(owner.delivery_email, owner.api_key, stoa.site);
  let zuliprcPath: string | undefined;
  if (inMemory) {
    log(`Nothing is kept on disk (--data :memory:). The owner's zuliprc:\n${zuliprc.trimEnd()}`);
  } else {
    zuliprcPath = path.resolve(config.data, ZULIPRC_FILE);
    // The file holds an API key: readable by its owner only, even if it existed before.
    writeFileSync(zuliprcPath, zuliprc, { mode: 0o600 });
    chmodSync(zuliprcPath, 0o600);
    log(`The owner's zuliprc is at ${zuliprcPath}`);
  }
  log(`Stoa is listening on ${local}`);
  if (stoa.site !== local) log(`People reach it at ${stoa.site}`);

  // Scheduled messages: the timer waits for the next one due. Any that came due while the
  // server was stopped are sent (or found too late) right away.
  rescheduleDelivery(stoa);
  // Push registrations a stop interrupted go to the relay now.
  resumePushRegistrations(stoa);
  // Missed-message emails waiting for their batch: the timer waits for the next one due.
  rescheduleMissedMessageEmails(stoa);
  // Members whose waiting period ended while the server was stopped become full members now.
  updateFullMembers(stoa);
  // Messages older than the retention policy keeps go now, and then once a day.
  startRetention(stoa);
  // A person's last queue going notifies them of the messages it never delivered.
  stoa.queues.onLastQueueGone = (queue, unacknowledged) => notifyWhatLastQueueMissed(stoa, queue, unacknowledged);
  // Abandoned queues are collected on every registration too; this catches quiet periods.
  const gc = setInterval(() => stoa.queues.collectGarbage(), GC_INTERVAL_MS).unref();
  // What a burst of work grew (V8's heap, SQLite's cache, caches) is given back once it is over.
  const stopReleasing = releaseMemoryWhenQuiet(stoa, server);
  // V8's young generation sized for what the server does: larger while many polls are parked.
  const stopGoverning = runsWithOwnHeapFlags() ? governYoungGeneration(() => stoa.queues.parkedCount) : () => {};
  // With --backup-dir, backups of this data folder while serving.
  const stopBackups = startScheduledBackups(stoa);
  // Files a crash left without a row; uploads arriving meanwhile are newer and left alone.
  const startedAt = Date.now();
  const sweep = stoa.uploads
    .sweep(new Set([...stoa.attachments.allPaths(), ...emojiPathIds(stoa)]), startedAt)
    .then((removed) => {
      if (removed > 0) log(`Removed ${removed} uploaded file(s) left behind by an interrupted upload.`);
    })
    .catch((err: unknown) => log(`error: sweeping uploads: ${(err as Error).message}`));

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      clearInterval(gc);
      stopReleasing();
      stopGoverning();
      // Calls to bots' servers stop: none waiting is made, those in flight are aborted.
      stoa.outgoingWebhooks.stop();
      // Parked long-polls are answered first; once their answers are written (next turn of
      // the event loop) their connections are idle and close with the rest.
      stoa.queues.shutdown();
      setImmediate(() => {
        server.close(() => {
          clearTimeout(deadline);
          // Relay work in flight may still write its outcome, and mail being sent may finish; they get the same grace period.
          const grace = new Promise<void>((done) => setTimeout(done, SHUTDOWN_GRACE_MS).unref());
          const settled = Promise.all([
            backgroundSettled(stoa),
            stoa.outgoingWebhooks.idle(),
            exportsSettled(stoa),
            stoa.mailer.stop(SHUTDOWN_GRACE_MS),
            stopBackups(),
          ]);
          void Promise.all([Promise.race([settled, grace]), sweep]).then(async () => {
            stopDelivery(stoa);
            stopRetention(stoa);
            stopFullMemberPromotion(stoa);
            commitShared(stoa);
            await stopCheckpointer();
            db.close();
            stoa.uploads.close();
            stdout?.flush();
            resolve();
          });
        });
        server.closeIdleConnections();
        // Busy connections get a grace period, then are cut.
        const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      });
    });
    return closing;
  };
  return { stoa, url: local, port, http: server, zuliprcPath, close };
}

/** --demo on a data folder that holds another organization: server.ts reports it and exits. */
export class DemoRefusedError extends Error {}

/**
 * --demo fills an empty data folder, and restarts the organization it made there; it never
 * mixes its people into an organization someone else made.
 */
function refuseDemoOverOtherOrganization(stoa: Stoa): void {
  if (!stoa.config.demo || !stoa.realm.get() || isDemoOrganization(stoa)) return;
  throw new DemoRefusedError(
    `--demo needs an empty data folder, and ${stoa.config.data} already holds the organization ` +
      `"${stoa.realm.get()!.name}"; choose another --data folder, or start without --demo`,
  );
}

/**
 * On an empty database, the owner's password and its hash (begun at once if not yet); null on
 * later starts, and for the demo without --admin-password (its people use the development login).
 */
function startFirstStart(stoa: Stoa, begun: Promise<OwnerPassword> | undefined): Promise<OwnerPassword | null> {
  if (stoa.realm.get() || (stoa.config.demo && stoa.config.adminPassword === undefined)) {
    begun?.catch(() => undefined);
    return Promise.resolve(null);
  }
  return begun ?? makeOwnerPassword(stoa.config);
}

/** On an empty database, creates the organization from the settings; later starts reuse it. */
function createOrganizationOnFirstStart(stoa: Stoa, owner: OwnerPassword | null, log: (line: string) => void): void {
  if (stoa.config.demo && !stoa.realm.get()) return createDemoOnFirstStart(stoa, owner?.hash ?? null, log);
  if (!owner) return;
  const { config } = stoa;
  const { password } = owner;
  write(stoa, () => {
    const ownerId = createOrganization(stoa, {
      name: config.realmName,
      ownerEmail: config.adminEmail,
      ownerPasswordHash: owner.hash,
    });
    if (!config.emptyOrganization) furnishNewOrganization(stoa, stoa.users.byId(ownerId)!);
  });
  log(`Created the organization "${config.realmName}" with owner ${config.adminEmail}.`);
  if (!config.adminPassword) log(`The owner's password is ${password} (shown this once).`);
}

/** The first start with --demo: Zulip's development organization, and how to log in to it. */
function createDemoOnFirstStart(stoa: Stoa, passwordHash: string | null, log: (line: string) => void): void {
  const startedAt = performance.now();
  createDemoOrganization(stoa, passwordHash);
  const people = DEMO_PEOPLE.map((person) => person.email).join(', ');
  log(`Created Zulip's development organization in ${Math.round(performance.now() - startedAt)} ms: ${people}.`);
  log(
    passwordHash === null
      ? 'They log in through the development login (GET /api/v1/dev_list_users, POST /api/v1/dev_fetch_api_key).'
      : 'They log in with the --admin-password given, or through the development login.',
  );
}
