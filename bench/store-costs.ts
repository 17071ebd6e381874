/**
 * Where the CPU of storing a message to everyone goes, phase by phase: the receivers' rows
 * into user_messages_new, the batch's moves into user_messages, and the COMMIT, for several
 * ways of doing each (bench/RESULTS.md).
 *
 *   node --import tsx bench/store-costs.ts --db DAY/stoa.db [--messages 200] [--designs row,multi64]
 *
 * Works on a copy of the day organization's database (bench/day-organization.ts), opened as the
 * server opens it (pragmas, migrations), one transaction per message to the channel with
 * everyone, batches and ranges moved as lib/messages/queries.ts moves them. A design's name
 * lists its choices:
 *   row        one INSERT per receiver (as the server did)
 *   multiN     INSERT … VALUES with N rows a statement (the rest one by one)
 *   json       INSERT … SELECT from json_each of the message's receivers
 *   +nofk      foreign keys off (to measure what their checks cost; not a server option)
 *   +stagenofk user_messages_new rebuilt without foreign keys, a trigger for deleted messages
 *              (measured on a schema that had them; since version 39 it has none anyway)
 *   +bN        a batch starts when N thousand rows wait (default 16, as before version 39)
 *   +pN, +rN   a range of N people (default 256) moves every N new rows (default 1,000)
 * Designs run alternately, `--rounds` times each, each on a fresh copy; CPU is this process's
 * (user + system) per phase, in ms per message, the slowest range's wall time, and the WAL's
 * pages per message (the WAL is truncated every 20 messages, outside the timed phases); the
 * medians over rounds are printed.
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type Db } from '../lib/db';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    messages: { type: 'string', default: '200' },
    designs: { type: 'string', default: 'row,multi64' },
    rounds: { type: 'string', default: '3' },
  },
});
if (!values.db) throw new Error('--db PATH is required');


const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function run(design: string) {
  const dir = mkdtempSync(join(tmpdir(), 'store-costs-'));
  const file = join(dir, 'stoa.db');
  copyFileSync(values.db!, file);
  const db: Db = openDatabase(file);
  db.pragma('wal_autocheckpoint = 0');
  if (design.includes('+nofk')) db.pragma('foreign_keys = OFF');
  const option = (letter: string, fallback: number) => Number(new RegExp(`\\+${letter}(\\d+)`).exec(design)?.[1] ?? fallback);
  const PEOPLE_PER_MOVE = option('p', 256);
  const ROWS_BETWEEN_MOVES = option('r', 1000);
  const STAGED_ROWS_PER_BATCH = /\+b(\d+)/.test(design) ? Number(/\+b(\d+)/.exec(design)![1]) * 1000 : 16_000;
  if (design.includes('+stagenofk')) {
    // The staging table without foreign keys, a trigger in place of the cascade.
    db.exec(`
      DROP VIEW user_messages_all;
      ALTER TABLE user_messages_new RENAME TO user_messages_old;
      CREATE TABLE user_messages_new (
        message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL,
        PRIMARY KEY (message_id, user_id)) STRICT, WITHOUT ROWID;
      INSERT INTO user_messages_new SELECT message_id, user_id, flags FROM user_messages_old;
      DROP TABLE user_messages_old;
      CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);
      CREATE TRIGGER user_messages_new_cascade AFTER DELETE ON messages BEGIN
        DELETE FROM user_messages_new WHERE message_id = OLD.id;
      END;
    `);
  }
  const everyone = db
    .prepare<[], { recipient_id: number; n: number }>(
      `SELECT s.recipient_id, count(*) AS n FROM subscriptions s JOIN recipients r ON r.id = s.recipient_id
       WHERE s.active = 1 AND r.type = 2 AND EXISTS (SELECT 1 FROM messages m WHERE m.recipient_id = r.id)
       GROUP BY s.recipient_id ORDER BY n DESC, s.recipient_id LIMIT 1`,
    )
    .get()!.recipient_id;
  const receivers = db
    .prepare<[number], { user_id: number }>('SELECT user_id FROM subscriptions WHERE recipient_id = ? AND active = 1 ORDER BY user_id')
    .all(everyone)
    .map((r) => r.user_id);
  const template = db.prepare<[number], { id: number }>('SELECT id FROM messages WHERE recipient_id = ? ORDER BY id DESC LIMIT 1').get(everyone)!.id;
  const insertMessage = db.prepare<[number]>(
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent,
       sending_client, is_me_message, has_link, has_image, has_attachment)
     SELECT (SELECT max(id) FROM messages) + 1, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content,
       date_sent + 1, sending_client, is_me_message, has_link, has_image, has_attachment FROM messages WHERE id = ?`,
  );
  const fts = db.prepare<[number, string, string]>('INSERT INTO messages_fts (rowid, topic, content) VALUES (?, ?, ?)');
  const one = db.prepare<[number, number, number]>('INSERT INTO user_messages_new (user_id, message_id, flags) VALUES (?, ?, ?)');
  const multiN = design.startsWith('multi') ? Number(/^multi(\d+)/.exec(design)![1]) : 0;
  const multi =
    multiN > 0
      ? db.prepare(`INSERT INTO user_messages_new (user_id, message_id, flags) VALUES ${Array(multiN).fill('(?, ?, ?)').join(', ')}`)
      : undefined;
  const json = db.prepare<[number, string]>(
    `INSERT INTO user_messages_new (message_id, user_id, flags) SELECT ?, value ->> 0, value ->> 1 FROM json_each(?)`,
  );
  const moveRange = db.prepare<[number, number]>(
    `INSERT INTO user_messages (user_id, message_id, flags)
     SELECT user_id, message_id, flags FROM user_messages_new INDEXED BY user_messages_new_by_user
     WHERE user_id >= ? AND user_id < ? ORDER BY user_id, message_id`,
  );
  const clearRange = db.prepare<[number, number]>('DELETE FROM user_messages_new WHERE user_id >= ? AND user_id < ?');
  const lastStagedPerson = db.prepare<[], { id: number | null }>('SELECT max(user_id) AS id FROM user_messages_new');
  let staged = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM user_messages_new').get()!.n;
  let nextPerson: number | undefined;
  let sinceMove = 0;
  const walFrames = () => {
    try {
      return Math.max(0, (statSync(`${file}-wal`).size - 32) / (4096 + 24));
    } catch {
      return 0;
    }
  };
  let frames = 0;
  const t = { rows: 0, moveInsert: 0, moveDelete: 0, commit: 0, message: 0, slowestMove: 0 };
  const moveNextRange = () => {
    const last = lastStagedPerson.get()!.id;
    let from = nextPerson ?? 0;
    nextPerson = undefined;
    while (last !== null && from <= last) {
      const to = from + PEOPLE_PER_MOVE;
      const wall = performance.now();
      let c = cpuMs();
      moveRange.run(from, to);
      t.moveInsert += cpuMs() - c;
      c = cpuMs();
      const moved = clearRange.run(from, to).changes;
      t.moveDelete += cpuMs() - c;
      t.slowestMove = Math.max(t.slowestMove, performance.now() - wall);
      from = to;
      if (moved > 0) {
        staged -= moved;
        if (from <= last) nextPerson = from;
        return;
      }
    }
  };
  // Counts rows as the server does, a move starting within the message's rows when due.
  const afterRows = (count: number) => {
    for (let k = 0; k < count; k++) {
      staged++;
      if (nextPerson === undefined && staged >= STAGED_ROWS_PER_BATCH) {
        nextPerson = 0;
        sinceMove = ROWS_BETWEEN_MOVES;
      }
      if (nextPerson !== undefined && ++sinceMove >= ROWS_BETWEEN_MOVES) {
        sinceMove = 0;
        moveNextRange();
      }
    }
  };
  const messages = Number(values.messages);
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  for (let n = 0; n < messages; n++) {
    if (n % 20 === 0) db.pragma('wal_checkpoint(TRUNCATE)');
    const framesBefore = walFrames();
    let c = cpuMs();
    begin.run();
    const id = Number(insertMessage.run(template).lastInsertRowid);
    fts.run(id, 'topic', 'some words of a message');
    t.message += cpuMs() - c;
    const flags = receivers.map((_, i) => (i === n % receivers.length ? 1 : 0));
    c = cpuMs();
    if (design.startsWith('row')) for (let i = 0; i < receivers.length; i++) one.run(receivers[i], id, flags[i]);
    else if (design.startsWith('json')) json.run(id, JSON.stringify(receivers.map((u, i) => [u, flags[i]])));
    else {
      let i = 0;
      const params: number[] = [];
      for (; i + multiN <= receivers.length; i += multiN) {
        params.length = 0;
        for (let k = i; k < i + multiN; k++) params.push(receivers[k], id, flags[k]);
        multi!.run(params);
      }
      for (; i < receivers.length; i++) one.run(receivers[i], id, flags[i]);
    }
    t.rows += cpuMs() - c;
    afterRows(receivers.length);
    c = cpuMs();
    commit.run();
    t.commit += cpuMs() - c;
    frames += walFrames() - framesBefore;
  }
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const per = (ms: number) => +(ms / messages).toFixed(2);
  return {
    design,
    message: per(t.message),
    rows: per(t.rows),
    moveInsert: per(t.moveInsert),
    moveDelete: per(t.moveDelete),
    commit: per(t.commit),
    total: per(t.message + t.rows + t.moveInsert + t.moveDelete + t.commit),
    slowestMove: +t.slowestMove.toFixed(1),
    walPages: Math.round(frames / messages),
  };
}

const designs = values.designs!.split(',');
const results = new Map<string, ReturnType<typeof run>[]>(designs.map((d) => [d, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const design of designs) {
    const r = run(design);
    results.get(design)!.push(r);
    console.log(JSON.stringify(r));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log('medians, ms of CPU per message:');
for (const [design, rs] of results) {
  const keys = ['message', 'rows', 'moveInsert', 'moveDelete', 'commit', 'total', 'slowestMove', 'walPages'] as const;
  console.log(`${design.padEnd(16)} ${keys.map((k) => `${k} ${median(rs.map((r) => r[k])).toFixed(2)}`).join('  ')}`);
}
