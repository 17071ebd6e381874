/**
 * GET /messages through two checkouts' code side by side, in one process, on copies of one
 * database (the day organization's, bench/day-organization.ts): first every answer of both is
 * compared byte for byte (people, narrows, anchors and options in many combinations), then the
 * view the day's people open first (around the first unread, 50 each way, all messages) is
 * timed alternately, this process's CPU per call, medians of rounds.
 *
 *   node --import tsx bench/view-answers.ts --db DAY/stoa.db --lib A/lib --lib B/lib
 *     --step N     every Nth person for the comparison (default 7)
 *     --rounds N   timing rounds of 200 calls each (default 10)
 *
 * The view is called as the route calls it, without HTTP: what the server spends answering
 * (parsing, authentication, writing the body) is the same for both and left out.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    lib: { type: 'string', multiple: true },
    step: { type: 'string', default: '7' },
    rounds: { type: 'string', default: '10' },
  },
});
if (!args.db || args.lib?.length !== 2) throw new Error('usage: --db FILE --lib A --lib B');

type Call = (userIndex: number, params: Record<string, unknown>) => string;

/** One checkout's GET /messages view on its own copy of the database. */
function load(lib: string, folder: string): { call: Call; people: number; narrows: unknown[][] } {
  const file = path.join(folder, 'stoa.db');
  copyFileSync(args.db!, file);
  // Each checkout's own modules, not ours: required by absolute path at run time.
  const { openDatabase } = require(path.resolve(lib, 'db'));
  const { createStoa } = require(path.resolve(lib, 'stoa'));
  const { DEFAULTS } = require(path.resolve(lib, 'config'));
  const { systemClock } = require(path.resolve(lib, 'clock'));
  const { getMessages } = require(path.resolve(lib, 'messages/views'));
  const db = openDatabase(file);
  const stoa = createStoa(db, { ...DEFAULTS, data: folder }, systemClock);
  const users = db.prepare('SELECT id FROM users WHERE is_bot = 0 ORDER BY id').all().map((r: { id: number }) => stoa.users.byId(r.id));
  const channels = db.prepare('SELECT id FROM streams ORDER BY id LIMIT 4').all() as Array<{ id: number }>;
  const latest = db.prepare('SELECT stream_id, topic FROM messages WHERE stream_id IS NOT NULL ORDER BY id DESC LIMIT 1').get() as { stream_id: number; topic: string };
  const narrows: unknown[][] = [
    [],
    ...channels.map((c) => [{ operator: 'channel', operand: c.id }]),
    [{ operator: 'channel', operand: latest.stream_id }, { operator: 'topic', operand: latest.topic }],
    [{ operator: 'is', operand: 'dm' }],
    [{ operator: 'is', operand: 'starred' }],
    [{ operator: 'is', operand: 'unread' }],
    [{ operator: 'search', operand: 'message' }],
  ];
  const call: Call = (i, params) => {
    try {
      return JSON.stringify(getMessages.view({ stoa, user: users[i % users.length], req: { headers: {} }, res: {}, params }));
    } catch (err) {
      return `error ${(err as Error).message}`;
    }
  };
  return { call, people: users.length, narrows };
}

const folders = args.lib.map(() => mkdtempSync(path.join(tmpdir(), 'stoa-view-answers-')));
try {
  const [a, b] = args.lib.map((lib, i) => load(lib, folders[i]));
  const base = { include_anchor: true, num_before: 50, num_after: 50, allow_empty_topic_name: false };
  let compared = 0;
  let differing = 0;
  for (let i = 0; i < a.people; i += Number(args.step)) {
    for (const narrow of a.narrows) {
      for (const anchor of ['first_unread', 'newest', 'oldest', 'middle']) {
        const params = {
          ...base,
          narrow,
          anchor: anchor === 'middle' ? 100 + ((i * 37) % 20_000) : anchor,
          client_gravatar: i % 2 === 0,
          apply_markdown: i % 3 !== 0,
        };
        compared++;
        if (a.call(i, params) !== b.call(i, params)) {
          differing++;
          if (differing <= 5) console.log(`differs: person ${i}, ${JSON.stringify(params)}`);
        }
      }
    }
  }
  console.log(`${compared} answers compared, ${differing} differ`);

  const first = { ...base, narrow: [], anchor: 'first_unread', client_gravatar: false, apply_markdown: true };
  const cpuPerCall = (call: Call, from: number) => {
    const start = process.cpuUsage();
    for (let i = from; i < from + 200; i++) call(i, first);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 200 / 1000;
  };
  cpuPerCall(a.call, 0);
  cpuPerCall(b.call, 0);
  const times: [number[], number[]] = [[], []];
  for (let round = 0; round < Number(args.rounds); round++) {
    times[0].push(cpuPerCall(a.call, round * 200));
    times[1].push(cpuPerCall(b.call, round * 200));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  args.lib.forEach((lib, i) =>
    console.log(`${lib}: ${times[i].map((t) => t.toFixed(2)).join(' ')} ms, median ${median(times[i]).toFixed(3)} ms per view`),
  );
} finally {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}
