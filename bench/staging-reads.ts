/**
 * What staging a message's rows costs the reads: the narrow queries of GET /messages (the
 * newest 100, around the first unread, a channel's newest) asked of user_messages alone and
 * of user_messages together with a staging table holding the newest messages' rows.
 *
 *   node --import tsx bench/staging-reads.ts --db PATH/stoa.db [--staged 16] [--users 50]
 *
 * Works on a copy: the newest --staged messages' rows are moved from user_messages into
 * user_messages_new (keyed by message, with a per-user index), as a batch not yet moved would
 * leave them. Prints each query's plan and its median time per user.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { db: { type: 'string' }, staged: { type: 'string', default: '16' }, users: { type: 'string', default: '50' } },
});
if (!values.db) throw new Error('--db PATH is required');
const dir = mkdtempSync(join(tmpdir(), 'staging-reads-'));
const file = join(dir, 'stoa.db');
copyFileSync(values.db, file);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('cache_size = -16000');
const newest = db.prepare<[], { id: number }>('SELECT max(id) AS id FROM messages').get()!.id;
const firstStaged = newest - Number(values.staged) + 1;
db.exec(`CREATE TABLE user_messages_new (
  message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL,
  PRIMARY KEY (message_id, user_id)) STRICT, WITHOUT ROWID;
CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
UPDATE user_messages SET recent = NULL WHERE recent IS NOT NULL;
INSERT INTO user_messages_new SELECT message_id, user_id, flags FROM user_messages WHERE message_id >= ${firstStaged};
DELETE FROM user_messages WHERE message_id >= ${firstStaged};`);
db.pragma('wal_checkpoint(TRUNCATE)');
const staged = db.prepare('SELECT count(*) AS n FROM user_messages_new').get() as { n: number };
console.log(`staged rows: ${staged.n} (messages ${firstStaged}..${newest})`);

const users = db
  .prepare<[number], { user_id: number }>('SELECT user_id FROM subscriptions WHERE recipient_id = 1004 AND active = 1 ORDER BY user_id LIMIT ?')
  .all(Number(values.users))
  .map((r) => r.user_id);
const BOTH = `(SELECT user_id, message_id, flags FROM user_messages UNION ALL SELECT user_id, message_id, flags FROM user_messages_new)`;
/** The query asked of each table with its own order and limit, the two merged by the same order and limit. */
const perArm = (sql: string, order: string, limit: string) =>
  `SELECT * FROM (${sql}) UNION ALL SELECT * FROM (${sql.replace('FROM user_messages um', 'FROM user_messages_new um')}) ORDER BY ${order} LIMIT ${limit}`;
const N100 = `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`;
const C100 = `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND m.recipient_id = 1004 AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`;
const B50 = `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < @anchor ORDER BY um.message_id DESC LIMIT 50`;
const A51 = `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id >= @anchor ORDER BY um.message_id LIMIT 51`;
const HISTORY = (um: string) => `SELECT m.*, coalesce(um.flags, 8192) AS user_flags FROM messages m LEFT JOIN ${um} um ON um.message_id = m.id AND um.user_id = @user WHERE m.recipient_id = 1004 AND m.id < 1e15 ORDER BY m.id DESC LIMIT 100`;
const queries: Record<string, string[]> = {
  'newest 100, per arm': [N100, perArm(N100, 'id DESC', '100')],
  'channel newest 100, per arm': [C100, perArm(C100, 'id DESC', '100')],
  '50 before first unread, per arm': [B50, perArm(B50, 'id DESC', '50')],
  '50 after first unread, per arm': [A51, perArm(A51, 'id', '51')],
  'channel history newest 100 (LEFT JOIN), both tables as a subquery / two LEFT JOINs': [
    HISTORY('user_messages'),
    HISTORY(BOTH),
    `SELECT m.*, coalesce(um.flags, un.flags, 8192) AS user_flags FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = @user
       LEFT JOIN user_messages_new un ON un.message_id = m.id AND un.user_id = @user WHERE m.recipient_id = 1004 AND m.id < 1e15 ORDER BY m.id DESC LIMIT 100`,
  ],
  'newest 100': [
    `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`,
    `SELECT m.*, um.flags FROM ${BOTH} um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`,
  ],
  'channel newest 100': [
    `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND m.recipient_id = 1004 AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`,
    `SELECT m.*, um.flags FROM ${BOTH} um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND m.recipient_id = 1004 AND um.message_id < 1e15 ORDER BY um.message_id DESC LIMIT 100`,
  ],
  'first unread': [
    `SELECT um.message_id AS id FROM user_messages um INDEXED BY user_messages_unread JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND (um.flags & 1) = 0 AND um.recent IS NULL ORDER BY um.message_id LIMIT 1`,
    `SELECT min(id) AS id FROM (
       SELECT um.message_id AS id FROM user_messages um INDEXED BY user_messages_unread JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND (um.flags & 1) = 0 AND um.recent IS NULL ORDER BY um.message_id LIMIT 1)
     UNION ALL SELECT * FROM (SELECT um.message_id AS id FROM user_messages_new um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND (um.flags & 1) = 0 ORDER BY um.message_id LIMIT 1)`,
  ],
  '50 after first unread': [
    `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id >= @anchor ORDER BY um.message_id LIMIT 51`,
    `SELECT m.*, um.flags FROM ${BOTH} um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id >= @anchor ORDER BY um.message_id LIMIT 51`,
  ],
  '50 before first unread': [
    `SELECT m.*, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < @anchor ORDER BY um.message_id DESC LIMIT 50`,
    `SELECT m.*, um.flags FROM ${BOTH} um JOIN messages m ON m.id = um.message_id WHERE um.user_id = @user AND um.message_id < @anchor ORDER BY um.message_id DESC LIMIT 50`,
  ],
  'flags of one': [
    `SELECT flags FROM user_messages WHERE user_id = @user AND message_id = @anchor`,
    `SELECT flags FROM ${BOTH} WHERE user_id = @user AND message_id = @anchor`,
  ],
};
const anchorOf = db.prepare<{ user: number }, { id: number }>(
  `SELECT um.message_id AS id FROM user_messages um INDEXED BY user_messages_unread WHERE um.user_id = @user AND (um.flags & 1) = 0 AND um.recent IS NULL ORDER BY um.message_id LIMIT 1`,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, forms] of Object.entries(queries)) {
  const line: string[] = [name];
  for (const [index, sql] of forms.entries()) {
    const label = index === 0 ? 'alone' : `with staging (${index})`;
    const statement = db.prepare(sql);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all({ user: users[0], anchor: 1 })
      .map((r) => (r as { detail: string }).detail)
      .join('; ');
    const times: number[] = [];
    for (const user of users) {
      const anchor = anchorOf.get({ user })?.id ?? newest;
      const t = process.hrtime.bigint();
      for (let i = 0; i < 5; i++) statement.all({ user, anchor });
      times.push(Number(process.hrtime.bigint() - t) / 5e6);
    }
    line.push(`${label} ${median(times).toFixed(3)} ms [${plan}]`);
  }
  console.log(line.join('\n  '));
}
db.close();
rmSync(dir, { recursive: true, force: true });
