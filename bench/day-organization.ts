/**
 * Builds the organization the day simulation (bench/day.ts) runs against: people and channels
 * through the API (so their rows are exactly what Stoa makes), then the history written
 * straight into SQLite, as bench/generate-messages-db.ts does for its million messages. The
 * result is kept in the system's temporary folder, keyed by this file's version and the
 * shape, so later runs start at once (a thousand people take minutes to make); each run works
 * on a copy, which the server brings up to its schema when it starts, as it does any older file.
 *
 *   node --import tsx bench/day-organization.ts [--people N]   prints the data folder, building it if needed
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../lib/config';
import { Flag } from '../lib/messages/flags';
import { seededRandom } from '../lib/seeded-random';
import { DATABASE_FILE, startServer } from '../lib/server';
import { topicKey } from '../lib/user-topics/queries';
import { Api, type Credentials } from './api';
import { vocabulary, zipf } from './generate-messages-db';

/** The organization of issue 25: two channels with everyone, eight small ones, a history, a backlog each. */
export interface DayShape {
  people: number;
  /** Channels every person is in. */
  everyoneChannels: number;
  /** The sizes of the other channels (capped at the number of people). */
  smallChannelSizes: number[];
  messages: number;
  /** Share of the history in the channels with everyone. */
  everyoneShare: number;
  topicsPerChannel: number;
  /** The newest messages each person received and has not read. */
  unreadPerPerson: number;
}

export function dayShape(people: number): DayShape {
  return {
    people,
    everyoneChannels: 2,
    smallChannelSizes: [13, 15, 18, 20, 22, 25, 27, 29],
    messages: 20_000,
    everyoneShare: 0.5,
    topicsPerChannel: 20,
    unreadPerPerson: 250,
  };
}

/** A person of the organization as the simulation needs them. */
export interface DayPerson extends Credentials {
  id: number;
  fullName: string;
}

export interface DayChannel {
  id: number;
  name: string;
  members: number[];
}

/** What the simulation reads besides the database: who can log in, and who is where. */
export interface DayOrganization {
  people: DayPerson[];
  channels: DayChannel[];
}

export const DAY_OWNER = { email: 'owner@day.local', password: 'day-owner-password' };
const ORGANIZATION_FILE = 'organization.json';
const COMPLETE_MARK = 'complete';
/** Raise when this file makes a different organization from the same schema and shape. */
const GENERATOR_VERSION = 1;

function cacheFolder(shape: DayShape): string {
  const hash = createHash('sha256')
    .update(JSON.stringify({ GENERATOR_VERSION, shape }))
    .digest('hex')
    .slice(0, 12);
  return path.join(tmpdir(), `stoa-bench-day-${shape.people}-${hash}`);
}

/** The data folder of the organization of that shape (built first if not cached), and who is in it. */
export async function dayOrganization(shape: DayShape, log: (line: string) => void = console.log): Promise<{ data: string; organization: DayOrganization }> {
  const data = cacheFolder(shape);
  if (!existsSync(path.join(data, COMPLETE_MARK))) {
    rmSync(data, { recursive: true, force: true });
    const started = performance.now();
    log(`generating ${shape.people} people and ${shape.messages.toLocaleString()} messages in ${data} ...`);
    const channels = await createPeopleAndChannels(data, shape, log);
    fillHistory(path.join(data, DATABASE_FILE), shape, channels);
    writeFileSync(path.join(data, ORGANIZATION_FILE), JSON.stringify(readOrganization(path.join(data, DATABASE_FILE), channels)));
    writeFileSync(path.join(data, COMPLETE_MARK), new Date().toISOString());
    log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return { data, organization: JSON.parse(readFileSync(path.join(data, ORGANIZATION_FILE), 'utf8')) };
}

/**
 * The Node flags the benchmarks start the server with unless told otherwise: none, as it is
 * shipped (the bundle gives itself its heap flags, lib/memory/bounded-heap.ts).
 */
export const SERVER_NODE_FLAGS: readonly string[] = [];

/**
 * The bundle started on a copy of the organization of that many people, with `nodeFlags` (and
 * --cpu-prof into `profileDir`, if given), for the benchmarks that send it single kinds of
 * request. `stop` ends it and removes the copy.
 */
export async function startOnDayOrganization(people: number, bundle: string, profileDir?: string, nodeFlags: readonly string[] = SERVER_NODE_FLAGS) {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build first`);
  const { data: cached, organization } = await dayOrganization(dayShape(people));
  const data = mkdtempSync(path.join(tmpdir(), 'stoa-day-copy-'));
  cpSync(cached, data, { recursive: true });
  const logFile = path.join(data, 'server.log');
  const flags = [...nodeFlags, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [])];
  const server = spawn('sh', ['-c', `exec node ${flags.join(' ')} "$0" --data "$1" --port 0 > "$2" 2>&1`, bundle, data, logFile], { stdio: 'ignore' });
  let url: string | undefined;
  while (!url) {
    url = /Stoa is listening on (\S+)/.exec(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')?.[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
    rmSync(data, { recursive: true, force: true });
  };
  return { url, pid: server.pid!, organization, stop };
}

/** CPU seconds (user + system) a process has used, from /proc (ticks of 1/100 s). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs task over items with at most `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

async function createPeopleAndChannels(data: string, shape: DayShape, log: (line: string) => void): Promise<DayChannel[]> {
  const running = await startServer(
    { ...DEFAULTS, port: 0, data, adminEmail: DAY_OWNER.email, adminPassword: DAY_OWNER.password, dev: false },
    { log: () => {} },
  );
  const api = new Api(running.url, 8);
  try {
    const owner = Api.authHeader(await api.login(DAY_OWNER.email, DAY_OWNER.password));
    const ownerId = (await api.call('GET', '/users/me', owner)).user_id as number;
    const others: number[] = [];
    // Each account's password is hashed on the thread pool: a few at a time keep it busy.
    await inParallel([...Array(shape.people - 1).keys()], 8, async (i) => {
      const created = await api.call('POST', '/users', owner, {
        email: `person${i + 1}@day.local`,
        password: 'day-person-password',
        full_name: `Person ${i + 1}`,
      });
      others.push(created.user_id);
      if (others.length % 200 === 0) log(`  ${others.length} people`);
    });
    const everyone = [ownerId, ...others.sort((a, b) => a - b)];
    const next = seededRandom(25);
    const channels: DayChannel[] = [];
    const sizes = [...Array(shape.everyoneChannels).fill(everyone.length), ...shape.smallChannelSizes];
    for (const [k, size] of sizes.entries()) {
      const members = size >= everyone.length ? everyone : pickDistinct(everyone, size, next);
      const name = k < shape.everyoneChannels ? `everyone ${k}` : `team ${k - shape.everyoneChannels}`;
      await api.call('POST', '/users/me/subscriptions', owner, { subscriptions: [{ name }], principals: members });
      channels.push({ id: 0, name, members: [...members].sort((a, b) => a - b) });
    }
    return channels;
  } finally {
    api.close();
    await running.close();
  }
}

function pickDistinct(from: readonly number[], count: number, next: () => number): number[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(count, from.length)) picked.add(from[Math.floor(next() * from.length)]);
  return [...picked];
}

function fillHistory(file: string, shape: DayShape, channels: DayChannel[]): void {
  const db = new Database(file);
  // A scratch build: nothing to protect until it is done, and the mark is written last.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const rows = db.prepare<[string], { id: number; recipient_id: number }>('SELECT id, recipient_id FROM streams WHERE name = ?');
  const recipients = channels.map((channel) => {
    const row = rows.get(channel.name)!;
    channel.id = row.id;
    return row.recipient_id;
  });
  // The notification bot's notices and the welcome messages are replaced by the generated history.
  db.exec('DELETE FROM user_messages; DELETE FROM messages_fts; DELETE FROM messages;');
  // Secondary indexes are dropped while rows go in and rebuilt after: one sort instead of millions of page splits.
  const indexes = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('messages', 'user_messages') AND sql IS NOT NULL",
    )
    .all();
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);

  const words = vocabulary();
  const next = seededRandom(42);
  const pickWord = zipf(words.length, next);
  const pickTopic = zipf(shape.topicsPerChannel, next);
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent, sending_client)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'website')`,
  );
  const insertSearch = db.prepare('INSERT INTO messages_fts (rowid, topic, content) VALUES (?, ?, ?)');
  const insertUserMessage = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  const setFirst = db.prepare('UPDATE streams SET first_message_id = ? WHERE id = ? AND first_message_id IS NULL');
  const startTime = Math.floor(Date.now() / 1000) - shape.messages * 60;
  const channelOf = new Uint8Array(shape.messages + 1);
  const senderOf = new Int32Array(shape.messages + 1);
  db.transaction(() => {
    for (let id = 1; id <= shape.messages; id++) {
      const k =
        next() < shape.everyoneShare
          ? Math.floor(next() * shape.everyoneChannels)
          : shape.everyoneChannels + Math.floor(next() * (channels.length - shape.everyoneChannels));
      const channel = channels[k];
      const topic = `topic ${pickTopic()}`;
      const sender = channel.members[Math.floor(next() * channel.members.length)];
      const text = Array.from({ length: 5 + Math.floor(next() * 20) }, pickWord)
        .map((r) => words[r])
        .join(' ');
      channelOf[id] = k;
      senderOf[id] = sender;
      insertMessage.run(id, sender, recipients[k], channel.id, topic, topicKey(topic), text, `<p>${text}</p>`, startTime + id * 60);
      insertSearch.run(id, topic, text);
      setFirst.run(id, channel.id);
    }
    // Each person's newest received messages, up to the backlog, are unread; the rest are read.
    const channelsOf = new Map<number, Set<number>>();
    channels.forEach((channel, k) => channel.members.forEach((m) => (channelsOf.get(m) ?? channelsOf.set(m, new Set()).get(m)!).add(k)));
    for (const [userId, mine] of channelsOf) {
      const received: number[] = [];
      for (let id = 1; id <= shape.messages; id++) if (mine.has(channelOf[id])) received.push(id);
      let unreadLeft = shape.unreadPerPerson;
      const unread = new Set<number>();
      for (let i = received.length - 1; i >= 0 && unreadLeft > 0; i--) {
        if (senderOf[received[i]] !== userId) {
          unread.add(received[i]);
          unreadLeft--;
        }
      }
      for (const id of received) insertUserMessage.run(userId, id, unread.has(id) ? 0 : Flag.read);
    }
  })();
  for (const { sql } of indexes) db.exec(sql);
  db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')");
  db.pragma('journal_mode = WAL');
  db.close();
}

function readOrganization(file: string, channels: DayChannel[]): DayOrganization {
  const db = new Database(file, { readonly: true });
  const people = db
    .prepare<[], { id: number; email: string; api_key: string; full_name: string }>(
      "SELECT id, email, api_key, full_name FROM users WHERE email LIKE '%@day.local' ORDER BY id",
    )
    .all()
    .map((row) => ({ id: row.id, email: row.email, apiKey: row.api_key, fullName: row.full_name }));
  db.close();
  return { people, channels };
}

if (require.main === module) {
  const { values } = parseArgs({ options: { people: { type: 'string', default: '1000' } } });
  dayOrganization(dayShape(Number(values.people))).then(
    ({ data }) => console.log(data),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
