/**
 * The server side of the message benchmarks, run in its own process (forked by
 * bench/messages.ts) so the driver can kill it without warning and then check, from the
 * database file alone, that every acknowledged message survived.
 *
 *   stoa <data>   Stoa as `npm start` runs it, on that data folder
 *   bare <data>   the yardstick: Express and better-sqlite3 storing each message with one INSERT,
 *                 with the same WAL settings as Stoa, and nothing else
 *
 * It tells its parent the base URL once it listens.
 */
import Database from 'better-sqlite3';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DEFAULTS } from '../lib/config';
import { startServer, type RunningServer, type StartOptions } from '../lib/server';
import { BENCH_OWNER } from './protocol';

export { BENCH_OWNER };
export const BARE_DATABASE_FILE = 'bare.db';
/** Long enough that no parked poll gets a heartbeat while the benchmark runs. */
const HEARTBEAT_MS = 30 * 60_000;

function startBare(data: string): Promise<string> {
  const db = new Database(path.join(data, BARE_DATABASE_FILE));
  // The settings Stoa uses (lib/db.ts), so the two pay the same price per commit.
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY, sender TEXT NOT NULL, recipient TEXT NOT NULL, topic TEXT NOT NULL,
    content TEXT NOT NULL, date_sent INTEGER NOT NULL)`);
  const insert = db.prepare('INSERT INTO messages (sender, recipient, topic, content, date_sent) VALUES (?, ?, ?, ?, ?)');
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.post('/api/v1/messages', (req, res) => {
    const sender = req.get('authorization') ?? '';
    const { to, topic, content } = req.body as Record<string, string>;
    const id = Number(insert.run(sender, String(to), String(topic), String(content), Math.floor(Date.now() / 1000)).lastInsertRowid);
    res.json({ result: 'success', msg: '', id });
  });
  const server: Server = createServer(app);
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Stoa in this process on a data folder, owned by the benchmarks' owner. */
export function startBenchStoa(data: string, options: StartOptions = {}): Promise<RunningServer> {
  return startServer(
    { ...DEFAULTS, port: 0, data, adminEmail: BENCH_OWNER.email, adminPassword: BENCH_OWNER.password, dev: false },
    // The request log is left out: it would measure the terminal, not the server.
    { log: () => {}, ...options },
  );
}

async function startStoa(data: string): Promise<string> {
  return (await startBenchStoa(data, { eventQueues: { heartbeatMs: HEARTBEAT_MS } })).url;
}

if (require.main === module) {
  const [kind, data] = process.argv.slice(2);
  // Sent only when profiling: a clean exit writes the CPU profile, a kill would not.
  process.on('message', (message: { type: string }) => {
    if (message.type === 'exit') process.exit(0);
    // CPU time is what a message costs whatever else the machine runs; wall time is not.
    if (message.type === 'cpu') process.send!({ type: 'cpu', usage: process.cpuUsage() });
  });
  (kind === 'bare' ? startBare(data) : startStoa(data)).then(
    (url) => process.send!({ type: 'listening', url }),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
