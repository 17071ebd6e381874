import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../../lib/clock';
import { DEFAULTS, type Config } from '../../lib/config';
import { startServer, ZULIPRC_FILE, type RunningServer } from '../../lib/server';
import { Client, type Credentials } from './client';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'owner-password';

/** A clock tests can move by hand; its timers fire when it is moved past them. */
export class ManualClock implements Clock {
  private timers: Array<{ atMs: number; fn: () => void }> = [];
  constructor(private ms = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.ms;
  }
  at(atMs: number, fn: () => void): () => void {
    const timer = { atMs, fn };
    this.timers.push(timer);
    // One already due fires on the next turn, as the system clock's would.
    if (atMs <= this.ms) setImmediate(() => this.fireDue());
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }
  /** Moves the time forward, then fires the timers that came due, earliest first. */
  advance(ms: number): void {
    this.ms += ms;
    this.fireDue();
  }
  private fireDue(): void {
    const due = this.timers.filter((t) => t.atMs <= this.ms).sort((a, b) => a.atMs - b.atMs);
    this.timers = this.timers.filter((t) => !due.includes(t));
    for (const timer of due) timer.fn();
  }
}

export function tempDir(prefix = 'stoa-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Reads `[api]` email, key and site from a zuliprc file. */
export function readZuliprc(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^(\w+)=(.*)$/.exec(line.trim());
    if (match) values[match[1]] = match[2];
  }
  return values;
}

export interface TestServerOptions {
  dev?: boolean;
  /** Run with --web-public, so the organization may offer web-public channels. */
  webPublic?: boolean;
  /** Reuse a data folder (to test restarts); by default a new temporary one. */
  data?: string;
  clock?: Clock;
  /** Milliseconds between heartbeats of a parked long-poll (default: the server's). */
  heartbeatMs?: number;
  /** The push relay's URL (see test/support/relay.ts); by default none. */
  pushRelay?: string;
  /** Other settings, as their flags would give them. */
  config?: Partial<Config>;
}

/**
 * A real Stoa on an ephemeral port with its SQLite file in a temporary folder, started by
 * the same startServer that `npm start` uses. `owner` is a client logged in as the owner.
 */
export class TestServer {
  readonly logs: string[] = [];
  owner!: Client;
  anonymous!: Client;
  running!: RunningServer;
  private userCount = 0;

  private constructor(
    readonly data: string,
    private readonly options: TestServerOptions,
  ) {}

  static async start(options: TestServerOptions = {}): Promise<TestServer> {
    const server = new TestServer(options.data ?? tempDir(), options);
    await server.boot();
    return server;
  }

  get url(): string {
    return this.running.url;
  }

  get stoa() {
    return this.running.stoa;
  }

  /** The user ID of the owner created at first start. */
  get ownerId(): number {
    return this.stoa.users.firstOwner()!.id;
  }

  /** The ID of a named group, such as the system group 'role:members'. */
  groupId(name: string): number {
    return this.stoa.groups.byName(name)!.id;
  }

  config(): Config {
    return {
      ...DEFAULTS,
      port: 0,
      data: this.data,
      adminEmail: OWNER_EMAIL,
      adminPassword: OWNER_PASSWORD,
      dev: this.options.dev ?? false,
      webPublic: this.options.webPublic ?? false,
      pushRelay: this.options.pushRelay,
      // Most tests count channels and messages from zero; test/first-start.test.ts starts as a user would.
      emptyOrganization: true,
      ...this.options.config,
    };
  }

  private async boot(): Promise<void> {
    this.running = await startServer(this.config(), {
      clock: this.options.clock,
      eventQueues: this.options.heartbeatMs ? { heartbeatMs: this.options.heartbeatMs } : {},
      log: (line) => this.logs.push(line),
    });
    const rc = readZuliprc(path.join(this.data, ZULIPRC_FILE));
    this.anonymous = new Client(this.url);
    this.owner = this.anonymous.as({ email: rc.email, apiKey: rc.key });
  }

  /** Stops and starts again on the same data folder (on a new port). */
  async restart(): Promise<void> {
    await this.running.close();
    await this.boot();
  }

  /** Creates a member through the API and returns a client logged in as them. */
  async createUser(fullName?: string): Promise<Client & { userId: number; credentials: Credentials }> {
    this.userCount += 1;
    const name = fullName ?? `User ${this.userCount}`;
    const email = `user${this.userCount}@example.com`;
    const created = await this.owner.post('/users', { email, password: 'secret-password', full_name: name });
    if (created.status !== 200) throw new Error(`creating ${email} failed: ${JSON.stringify(created.body)}`);
    const login = await this.anonymous.post('/fetch_api_key', { username: email, password: 'secret-password' });
    const client = this.anonymous.as({ email, apiKey: login.body.api_key });
    return Object.assign(client, { userId: created.body.user_id as number, credentials: client.credentials! });
  }

  /**
   * Zulip grants can_create_users with a management command, not through the API; this
   * fixture stands in for that command.
   */
  grantCanCreateUsers(userId: number): void {
    this.stoa.users.setCanCreateUsers(userId, true);
  }

  async close(): Promise<void> {
    await this.running.close();
    if (!this.options.data) rmSync(this.data, { recursive: true, force: true });
  }
}

/** A Stoa started as a separate process through server.ts, for command-line behaviour. */
export interface ChildServer {
  process: ChildProcess;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Resolves with the URL once the server says it is listening. */
  listening: Promise<string>;
}

/** Runs `server.ts ...args` (or the bundle) with STOA_* variables cleared unless given. */
export function spawnStoa(args: string[], env: Record<string, string> = {}, script = 'server.ts'): ChildServer {
  const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('STOA_')));
  // One process, as `npm start` runs it: signals reach the server itself, not a wrapper.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], {
    cwd: REPO_ROOT,
    // As TestServer: an organization without starter content, unless the test says otherwise.
    env: { ...cleanEnv, STOA_EMPTY_ORGANIZATION: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let onListening: (url: string) => void;
  const listening = new Promise<string>((resolve, reject) => {
    onListening = resolve;
    child.on('exit', (code) => reject(new Error(`stoa exited with ${code} before listening:\n${output}`)));
  });
  // Callers that never wait for listening (--help, bad flags) must not leave a rejection unhandled.
  listening.catch(() => {});
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    const match = /listening on (\S+)/.exec(output);
    if (match) onListening(match[1]);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited, listening };
}
