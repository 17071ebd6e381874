/**
 * Builds the big database the message-fetch benchmark reads: users and channels through the
 * API (so their rows are exactly what Stoa makes), then a million messages with their
 * per-user rows and search entries written straight into SQLite, which takes a minute or
 * two instead of hours. The result is kept in the system's temporary folder, keyed by the
 * schema and this file, so later runs start at once.
 *
 *   node --import tsx bench/generate-messages-db.ts    prints the data folder, building it if needed
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Flag } from '../lib/messages/flags';
import { seededRandom } from '../lib/seeded-random';
import { DATABASE_FILE } from '../lib/server';
import { topicKey } from '../lib/user-topics/queries';
import { Api } from './api';
import { BENCH_OWNER, startBenchStoa } from './message-server';

export const SHAPE = {
  users: 100,
  channels: 50,
  subscribersPerChannel: 10,
  topicsPerChannel: 100,
  messages: 1_000_000,
  vocabulary: 3000,
  /** The newest messages, of which about half are unread: where a reader left off. */
  recentUnreadWindow: 20_000,
  /** Older messages left unread here and there, as real users leave them. */
  oldUnreadRate: 0.0005,
  mentionRate: 0.005,
};

/** The channel and topic the fetch benchmark narrows to: the owner's busiest topic. */
export const HOT_CHANNEL = 'channel 0';
export const HOT_TOPIC = 'topic 0';


/** Picks ranks 0..n-1 with Zipf-like weights (rank r has weight 1 / (r + 1)), as word and topic use goes. */
export function zipf(n: number, next: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r++) cumulative[r] = total += 1 / (r + 1);
  return () => {
    const x = next() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pe', 'dra', 'gin', 'tol', 'bex', 'quo', 'zan', 'fel'];

/** Words that exist in no dictionary, so searches for them match only what we generated. */
export function vocabulary(): string[] {
  const words = new Set<string>();
  const next = seededRandom(7);
  while (words.size < SHAPE.vocabulary) {
    const length = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/** A word most users' histories hold a few thousand times: a typical search. */
export const SEARCH_WORD_RANK = 50;

/** Raise when this file makes a different database from the same schema and shape. */
const GENERATOR_VERSION = 2;

function cacheFolder(): string {
  const hash = createHash('sha256')
    .update(readFileSync(path.join(__dirname, '..', 'schema.sql')))
    .update(JSON.stringify({ GENERATOR_VERSION, SHAPE }))
    .digest('hex')
    .slice(0, 12);
  return path.join(tmpdir(), `stoa-bench-messages-${hash}`);
}

const COMPLETE_MARK = 'complete';

/** The data folder of the generated database, built first if this version of it is not cached. */
export async function generatedDataFolder(log: (line: string) => void = console.log): Promise<string> {
  const data = cacheFolder();
  if (existsSync(path.join(data, COMPLETE_MARK))) return data;
  rmSync(data, { recursive: true, force: true });
  const started = performance.now();
  log(`generating ${SHAPE.messages.toLocaleString()} messages in ${data} ...`);
  await createPeopleAndChannels(data);
  fillMessages(path.join(data, DATABASE_FILE), log);
  writeFileSync(path.join(data, COMPLETE_MARK), new Date().toISOString());
  log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return data;
}

/** Channel k's subscribers: ten users spread over everyone; the owner (user 0) is in every tenth channel. */
function subscriberIndexes(channel: number): number[] {
  return Array.from({ length: SHAPE.subscribersPerChannel }, (_, j) => (channel * 7 + j * 10) % SHAPE.users);
}

async function createPeopleAndChannels(data: string): Promise<void> {
  const running = await startBenchStoa(data);
  const api = new Api(running.url);
  try {
    const owner = Api.authHeader(await api.login(BENCH_OWNER.email, BENCH_OWNER.password));
    const userIds = [(await api.call('GET', '/users/me', owner)).user_id as number];
    for (let i = 1; i < SHAPE.users; i++) {
      const created = await api.call('POST', '/users', owner, {
        email: `user${i}@bench.local`,
        password: 'bench-user-password',
        full_name: `User ${i}`,
      });
      userIds.push(created.user_id);
    }
    for (let k = 0; k < SHAPE.channels; k++) {
      await api.call('POST', '/users/me/subscriptions', owner, {
        subscriptions: [{ name: `channel ${k}` }],
        principals: subscriberIndexes(k).map((i) => userIds[i]),
      });
    }
  } finally {
    api.close();
    await running.close();
  }
}

function fillMessages(file: string, log: (line: string) => void): void {
  const db = new Database(file);
  // A scratch build: nothing to protect until it is done, and the mark is written last.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const channels = db
    .prepare<[], { id: number; recipient_id: number; name: string }>('SELECT id, recipient_id, name FROM streams ORDER BY id')
    .all()
    .filter((channel) => /^channel \d+$/.test(channel.name));
  const people = db.prepare<[], { id: number; full_name: string }>(
    "SELECT id, full_name FROM users WHERE email LIKE '%@bench.local' ORDER BY id",
  ).all();
  const userIds = people.map((person) => person.id);
  const nameOf = new Map(people.map((person) => [person.id, person.full_name]));
  const members = channels.map((channel) =>
    db
      .prepare<[number], { user_id: number }>('SELECT user_id FROM subscriptions WHERE recipient_id = ? AND active = 1 ORDER BY user_id')
      .all(channel.recipient_id)
      .map((r) => r.user_id),
  );
  // Secondary indexes are dropped while rows go in and rebuilt after: one sort instead of a million page splits.
  const indexes = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('messages', 'user_messages') AND sql IS NOT NULL",
    )
    .all();
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  // The notification bot opened each channel with a notice; the generated history replaces them.
  db.exec('DELETE FROM user_messages; DELETE FROM messages_fts; DELETE FROM messages;');

  const words = vocabulary();
  const next = seededRandom(42);
  const pickWord = zipf(words.length, next);
  const pickTopic = zipf(SHAPE.topicsPerChannel, next);
  const channelOf = new Uint8Array(SHAPE.messages + 1);
  const senderOf = new Int32Array(SHAPE.messages + 1);
  const mentionedOf = new Int32Array(SHAPE.messages + 1);
  const firstMessage = new Map<number, number>();
  const insertMessage = db.prepare(
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent, sending_client)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'website')`,
  );
  const insertSearch = db.prepare('INSERT INTO messages_fts (rowid, topic, content) VALUES (?, ?, ?)');
  const startTime = Math.floor(Date.now() / 1000) - SHAPE.messages * 30;
  db.transaction(() => {
    for (let id = 1; id <= SHAPE.messages; id++) {
      const k = Math.floor(next() * channels.length);
      const channel = channels[k];
      const topic = `topic ${pickTopic()}`;
      const sender = members[k][Math.floor(next() * members[k].length)];
      const length = 5 + Math.floor(next() * 20);
      const text = Array.from({ length }, pickWord).map((r) => words[r]).join(' ');
      let content = text;
      let rendered = `<p>${text}</p>`;
      if (next() < SHAPE.mentionRate) {
        const mentioned = members[k][Math.floor(next() * members[k].length)];
        mentionedOf[id] = mentioned;
        content = `@**${nameOf.get(mentioned)}** ${text}`;
        rendered = `<p><span class="user-mention" data-user-id="${mentioned}">@${nameOf.get(mentioned)}</span> ${text}</p>`;
      }
      channelOf[id] = k;
      senderOf[id] = sender;
      if (!firstMessage.has(channel.id)) firstMessage.set(channel.id, id);
      insertMessage.run(id, sender, channel.recipient_id, channel.id, topic, topicKey(topic), content, rendered, startTime + id * 30);
      insertSearch.run(id, topic, content);
      if (id % 200_000 === 0) log(`  ${id.toLocaleString()} messages`);
    }
    const setFirst = db.prepare('UPDATE streams SET first_message_id = ? WHERE id = ?');
    for (const [channelId, id] of firstMessage) setFirst.run(id, channelId);
  })();

  const insertUserMessage = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  const recentStart = SHAPE.messages - SHAPE.recentUnreadWindow;
  let rows = 0;
  db.transaction(() => {
    // User by user, in message order: every insert appends to the primary key's B-tree.
    for (const userId of userIds) {
      const inChannel = members.map((m) => m.includes(userId));
      for (let id = 1; id <= SHAPE.messages; id++) {
        if (!inChannel[channelOf[id]]) continue;
        let flags: number = Flag.read;
        const own = senderOf[id] === userId;
        if (!own && (id > recentStart ? next() < 0.5 : next() < SHAPE.oldUnreadRate)) flags = 0;
        if (mentionedOf[id] === userId) flags |= Flag.mentioned;
        insertUserMessage.run(userId, id, flags);
        rows++;
      }
    }
  })();
  log(`  ${rows.toLocaleString()} per-user rows`);
  for (const { sql } of indexes) db.exec(sql);
  db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')");
  db.pragma('journal_mode = WAL');
  db.close();
}

if (require.main === module) {
  generatedDataFolder().then(
    (data) => console.log(data),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
