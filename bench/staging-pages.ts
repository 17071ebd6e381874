/**
 * What a message to everyone writes to the WAL, with receiver rows written straight into
 * user_messages (as the server does) or first into a small staging table keyed by message,
 * moved into user_messages a batch of messages at a time.
 *
 *   node --import tsx bench/staging-pages.ts --db PATH/stoa.db [--messages 64] [--designs main,stage8,stage32]
 *
 * Works on a copy of the database (made next to it in the system's temporary folder), with the
 * server's pragmas, one transaction per message; counts the WAL's frames after each commit (no
 * checkpoints run) and the process's CPU time. Batch moves happen inside the message's
 * transaction that fills the batch, so their pages are counted, amortized over the batch.
 */
import Database from 'better-sqlite3';
import { fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    messages: { type: 'string', default: '64' },
    designs: { type: 'string', default: 'main,stage8,stage16,stage32,stage64' },
    // Real-time mode: messages at this rate for --seconds, with a checkpointer process (its
    // own connection, as the server's worker thread) every --checkpoint-ms.
    rate: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    'checkpoint-ms': { type: 'string', default: '500' },
    checkpointer: { type: 'string' },
  },
});
if (values.checkpointer) {
  // The checkpointer child: PASSIVE checkpoints until told to stop, then reports its CPU.
  const db = new Database(values.checkpointer);
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  let calls = 0;
  let copied = 0;
  let before = { log: 0, checkpointed: 0 };
  const timer = setInterval(() => {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    calls++;
    // The counts are of the WAL's current generation: smaller than before when it restarted.
    const restarted = row!.log < before.log || row!.checkpointed < before.checkpointed;
    copied += Math.max(0, row!.checkpointed - (restarted ? 0 : before.checkpointed));
    before = row!;
  }, Number(values['checkpoint-ms']));
  process.on('message', () => {
    clearInterval(timer);
    const cpu = process.cpuUsage();
    process.send!({ calls, copied, userMs: cpu.user / 1000, systemMs: cpu.system / 1000 }, () => process.exit(0));
  });
}
if (!values.db && !values.checkpointer) throw new Error('--db PATH is required');
const messages = Number(values.messages);
const RECENT_ROWS_PER_BATCH = 8000;
const FRAME = 4096 + 24;

const run = async (design: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'staging-pages-'));
  const file = join(dir, 'stoa.db');
  copyFileSync(values.db!, file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('foreign_keys = ON');
  db.pragma('cache_size = -16000');
  db.pragma('temp_store = MEMORY');
  // stageN: moved every N messages at once; rangesN: once N messages' rows wait, moved 256
  // person IDs at a time, a range every 1,000 new rows (as lib/messages/queries.ts does).
  const ranged = design.startsWith('ranges');
  const batch = design.startsWith('stage') ? Number(design.slice('stage'.length)) : ranged ? Number(design.slice('ranges'.length)) : 0;
  if (batch > 0) {
    db.exec(`CREATE TABLE user_messages_new (
      message_id INTEGER NOT NULL, user_id INTEGER NOT NULL, flags INTEGER NOT NULL,
      PRIMARY KEY (message_id, user_id)) STRICT, WITHOUT ROWID;
      CREATE INDEX user_messages_new_by_user ON user_messages_new (user_id, message_id);`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  const receivers = db
    .prepare<[], { user_id: number }>('SELECT user_id FROM subscriptions WHERE recipient_id = 1004 AND active = 1 ORDER BY user_id')
    .all()
    .map((r) => r.user_id);
  const template = db.prepare<[], { id: number }>('SELECT id FROM messages WHERE recipient_id = 1004 ORDER BY id DESC LIMIT 1').get()!.id;
  const insertMessage = db.prepare<[number]>(
    `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent,
       sending_client, is_me_message, has_link, has_image, has_attachment)
     SELECT (SELECT max(id) FROM messages) + 1, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content,
       date_sent + 1, sending_client, is_me_message, has_link, has_image, has_attachment FROM messages WHERE id = ?`,
  );
  const fts = db.prepare<[number, string, string]>('INSERT INTO messages_fts (rowid, topic, content) VALUES (?, ?, ?)');
  const direct = db.prepare<[number, number, number, number | null]>(
    'INSERT INTO user_messages (user_id, message_id, flags, recent) VALUES (?, ?, ?, ?)',
  );
  const countRecent = db.prepare<[], { count: number }>(
    'SELECT count(*) AS count FROM user_messages INDEXED BY user_messages_recent WHERE recent IS NOT NULL',
  );
  const settle = db.prepare('UPDATE user_messages INDEXED BY user_messages_recent SET recent = NULL WHERE recent IS NOT NULL');
  const stagedInsert = batch > 0 ? db.prepare<[number, number, number]>('INSERT INTO user_messages_new (message_id, user_id, flags) VALUES (?, ?, ?)') : undefined;
  const move =
    batch > 0
      ? db.prepare(
          'INSERT INTO user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM user_messages_new INDEXED BY user_messages_new_by_user ORDER BY user_id, message_id',
        )
      : undefined;
  const clear = batch > 0 ? db.prepare('DELETE FROM user_messages_new') : undefined;
  const moveRange = db.prepare<[number, number]>(batch === 0 ? 'SELECT ?, ?' :
    'INSERT INTO user_messages (user_id, message_id, flags) SELECT user_id, message_id, flags FROM user_messages_new INDEXED BY user_messages_new_by_user WHERE user_id >= ? AND user_id < ? ORDER BY user_id, message_id',
  );
  const clearRange = db.prepare<[number, number]>(batch === 0 ? 'SELECT ?, ?' : 'DELETE FROM user_messages_new WHERE user_id >= ? AND user_id < ?');
  let staged = 0;
  let next: number | undefined;
  let sinceMove = 0;
  const last = receivers[receivers.length - 1]!;
  let recent = countRecent.get()!.count;
  const walFrames = () => {
    try {
      return Math.max(0, (statSync(`${file}-wal`).size - 32) / FRAME);
    } catch {
      return 0;
    }
  };
  const store = db.transaction((n: number) => {
    const id = Number(insertMessage.run(template).lastInsertRowid);
    fts.run(id, 'topic', 'some words of a message');
    for (const userId of receivers) {
      // The sender's own row is read; everyone else's unread.
      const flags = userId === receivers[0] ? 1 : 0;
      if (ranged) {
        stagedInsert!.run(id, userId, flags);
        if (next === undefined && ++staged >= batch * receivers.length) {
          next = 0;
          sinceMove = 1000;
        }
        if (next !== undefined && ++sinceMove >= 1000) {
          sinceMove = 0;
          moveRange.run(next, next + 256);
          staged -= clearRange.run(next, next + 256).changes;
          next = next + 256 <= last ? next + 256 : undefined;
        }
      } else if (batch > 0) stagedInsert!.run(id, userId, flags);
      else {
        direct.run(userId, id, flags, flags & 1 ? null : 1);
        if (!(flags & 1) && ++recent >= RECENT_ROWS_PER_BATCH) {
          settle.run();
          recent = 0;
        }
      }
    }
    if (!ranged && batch > 0 && (n + 1) % batch === 0) {
      move!.run();
      clear!.run();
    }
  });
  if (values.rate) {
    // Idle CPU of a bare child (Node's start) is measured by the 0-interval control run.
    const child = fork(process.argv[1]!, ['--checkpointer', file, '--checkpoint-ms', values['checkpoint-ms']!], {
      execArgv: process.execArgv,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const every = 1000 / Number(values.rate);
    const end = Date.now() + Number(values.seconds) * 1000;
    let n = 0;
    let maxWal = 0;
    const started = process.cpuUsage();
    const t0 = Date.now();
    while (Date.now() < end) {
      store(n);
      n++;
      maxWal = Math.max(maxWal, walFrames());
      const next = t0 + n * every;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
    const cpu = process.cpuUsage(started);
    const report = await new Promise<Record<string, number>>((resolve) => {
      child.once('message', (m) => resolve(m as Record<string, number>));
      child.send('stop');
    });
    db.close();
    rmSync(dir, { recursive: true, force: true });
    return {
      design,
      checkpointMs: Number(values['checkpoint-ms']),
      messages: n,
      writerMsPerMessage: +((cpu.user + cpu.system) / 1000 / n).toFixed(1),
      checkpointerCpuMs: Math.round(report.userMs! + report.systemMs!),
      checkpointerUserSystemMs: `${Math.round(report.userMs!)} + ${Math.round(report.systemMs!)}`,
      checkpoints: report.calls,
      pagesCopied: report.copied,
      maxWalMB: +((maxWal * FRAME) / 1e6).toFixed(1),
    };
  }
  const frames: number[] = [];
  const started = process.cpuUsage();
  let before = walFrames();
  const walls: number[] = [];
  for (let n = 0; n < messages; n++) {
    const t = process.hrtime.bigint();
    store(n);
    walls.push(Number(process.hrtime.bigint() - t) / 1e6);
    const after = walFrames();
    frames.push(after - before);
    before = after;
  }
  const cpu = process.cpuUsage(started);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  const total = frames.reduce((a, b) => a + b, 0);
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    design,
    pagesPerMessage: Math.round(total / messages),
    medianPlainMessage: sorted[Math.floor(sorted.length / 2)],
    maxCommit: sorted[sorted.length - 1],
    // Wall time of a message's transaction: the median, and the slowest (a batch move's).
    medianMs: +[...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)]!.toFixed(1),
    maxMs: +Math.max(...walls).toFixed(1),
    slowestMs: [...walls].sort((a, b) => b - a).slice(0, 8).map((w) => Math.round(w)).join(' '),
    userMsPerMessage: +(cpu.user / 1000 / messages).toFixed(1),
    systemMsPerMessage: +(cpu.system / 1000 / messages).toFixed(1),
  };
};

if (!values.checkpointer) {
  void (async () => {
    for (const design of values.designs!.split(',')) console.log(JSON.stringify(await run(design)));
  })();
}
