import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';
import { modernPresence } from '../lib/presence/present';
import type { PresenceView } from '../lib/presence/queries';

type User = Client & { userId: number };

const clock = new ManualClock();
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const nowSeconds = () => Math.floor(clock.now() / 1000);

async function emailOf(user: User): Promise<string> {
  return (await user.get('/users/me')).body.email;
}

/** The caller's view of one user in the modern format, from a fresh first fetch. */
async function modernPresenceOf(viewer: Client, userId: number) {
  const response = await viewer.post('/users/me/presence', { status: 'idle', last_update_id: -1 });
  return response.body.presences[String(userId)];
}

describe('POST /users/me/presence', () => {
  test('a first report is stored, returned in the legacy format and announced to everyone', async () => {
    const user = await server.createUser();
    const watcher = await server.createUser();
    const legacy = await listen(watcher, { event_types: ['presence'] });
    const slim = await listen(watcher, { event_types: ['presence'], slim_presence: true });
    const modern = await listen(watcher, {
      event_types: ['presence'],
      client_capabilities: { simplified_presence_events: true },
    });
    const email = await emailOf(user);

    const response = await user.post('/users/me/presence', { status: 'active' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const now = nowSeconds();
    assert.equal(response.body.server_timestamp, clock.now() / 1000);
    assert.deepEqual(response.body.presences[email], {
      aggregated: { client: 'website', status: 'active', timestamp: now },
      website: { client: 'website', status: 'active', timestamp: now, pushable: false },
    });
    assert.ok(response.body.presence_last_update_id > 0, 'the newest update returned');

    const website = { client: 'website', status: 'active', timestamp: now, pushable: false };
    assert.deepEqual(await legacy(), [
      { type: 'presence', user_id: user.userId, email, server_timestamp: clock.now() / 1000, presence: { website } },
    ]);
    assert.deepEqual(await slim(), [
      { type: 'presence', user_id: user.userId, server_timestamp: clock.now() / 1000, presence: { website } },
    ]);
    assert.deepEqual(await modern(), [
      { type: 'presence', presences: { [user.userId]: { active_timestamp: now, idle_timestamp: now } } },
    ]);
  });

  test('a first idle report shows the user last active when they joined', async () => {
    const user = await server.createUser();
    const joined = nowSeconds();
    clock.advance(100 * SECOND);
    await user.post('/users/me/presence', { status: 'idle' });
    assert.deepEqual(await modernPresenceOf(server.owner, user.userId), {
      active_timestamp: joined,
      idle_timestamp: nowSeconds(),
    });
    const legacy = (await server.owner.post('/users/me/presence', { status: 'idle' })).body.presences[await emailOf(user)];
    assert.deepEqual(legacy.aggregated, { client: 'website', status: 'idle', timestamp: nowSeconds() });
  });

  test('last_update_id asks for the modern format and only what changed since', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    await user.post('/users/me/presence', { status: 'active' });
    const first = await other.post('/users/me/presence', { status: 'active', last_update_id: -1 });
    const mark = first.body.presence_last_update_id;
    assert.ok(mark > 0);
    assert.deepEqual(first.body.presences[String(user.userId)], { active_timestamp: nowSeconds(), idle_timestamp: nowSeconds() });

    const again = await other.post('/users/me/presence', { status: 'active', last_update_id: mark });
    assert.deepEqual(again.body.presences, {}, 'nothing changed since the mark');
    assert.equal(again.body.presence_last_update_id, mark, 'the same mark says nothing changed');

    clock.advance(60 * SECOND);
    await user.post('/users/me/presence', { status: 'idle' });
    const changed = await other.post('/users/me/presence', { status: 'active', last_update_id: mark });
    assert.deepEqual(Object.keys(changed.body.presences).sort(), [String(other.userId), String(user.userId)].sort());
    assert.ok(changed.body.presence_last_update_id > mark);
  });

  test('slim_presence asks for the modern format too', async () => {
    const user = await server.createUser();
    const response = await user.post('/users/me/presence', { status: 'active', slim_presence: true });
    assert.deepEqual(response.body.presences[String(user.userId)], { active_timestamp: nowSeconds(), idle_timestamp: nowSeconds() });
  });

  test('reports closer than 55 seconds store nothing; coming back online tells everyone', async () => {
    const user = await server.createUser();
    await user.post('/users/me/presence', { status: 'active' });
    const start = nowSeconds();
    const events = await listen(server.owner, { event_types: ['presence'], slim_presence: true });
    const markOf = async () => (await server.owner.post('/users/me/presence', { status: 'active', last_update_id: -1, ping_only: false })).body.presences[String(user.userId)];

    clock.advance(50 * SECOND);
    await user.post('/users/me/presence', { status: 'active' });
    assert.deepEqual(await markOf(), { active_timestamp: start, idle_timestamp: start }, 'within 55 s nothing is stored');

    clock.advance(10 * SECOND);
    await user.post('/users/me/presence', { status: 'idle' });
    assert.deepEqual(await markOf(), { active_timestamp: start, idle_timestamp: nowSeconds() }, 'idle moves only the idle time');

    clock.advance(60 * SECOND);
    await user.post('/users/me/presence', { status: 'active' });
    assert.deepEqual(await markOf(), { active_timestamp: nowSeconds(), idle_timestamp: nowSeconds() });
    const own = (e: Record<string, any>) => e.user_id === user.userId;
    assert.deepEqual((await events()).filter(own), [], '120 s since the last activity is not yet "back online"');

    clock.advance(131 * SECOND);
    await user.post('/users/me/presence', { status: 'active' });
    const [back] = (await events()).filter(own);
    assert.deepEqual(back.presence.website, { client: 'website', status: 'active', timestamp: nowSeconds(), pushable: false });

    clock.advance(200 * SECOND);
    await user.post('/users/me/presence', { status: 'idle' });
    assert.deepEqual((await events()).filter(own), [], 'an idle report is never announced');
  });

  test('history_limit_days trims a first fetch, but not an incremental one', async () => {
    const old = await server.createUser();
    await old.post('/users/me/presence', { status: 'active' });
    clock.advance(3 * DAY);
    const viewer = await server.createUser();
    const key = String(old.userId);
    const fetch = (params: Record<string, unknown>) =>
      viewer.post('/users/me/presence', { status: 'active', ...params }).then((r) => r.body);

    assert.ok(key in (await fetch({ last_update_id: -1 })).presences, 'the default is 14 days');
    assert.ok(!(key in (await fetch({ last_update_id: -1, history_limit_days: 2 })).presences));
    assert.ok(key in (await fetch({ last_update_id: -1, history_limit_days: 4 })).presences);
    const none = await fetch({ last_update_id: -1, history_limit_days: 0 });
    assert.deepEqual(none.presences, {});
    assert.equal(none.presence_last_update_id, -1);
    assert.ok(key in (await fetch({ last_update_id: 1, history_limit_days: 2 })).presences, 'ignored when last_update_id > 0');

    clock.advance(12 * DAY);
    assert.ok(!(key in (await fetch({ last_update_id: -1 })).presences), 'older than two weeks');
    assert.ok(!(await fetch({})).presences[await emailOf(old)], 'the legacy format has the same limit');
  });

  test('ping_only updates without returning anyone', async () => {
    const user = await server.createUser();
    const response = await user.post('/users/me/presence', { status: 'active', ping_only: true, last_update_id: 7 });
    assert.equal(response.status, 200);
    assert.equal(response.body.presences, undefined);
    assert.equal(response.body.server_timestamp, undefined);
    assert.equal(response.body.presence_last_update_id, 7);
    assert.ok(await modernPresenceOf(server.owner, user.userId), 'the ping was recorded');
    const without = await user.post('/users/me/presence', { status: 'active', ping_only: true });
    assert.equal(without.body.presence_last_update_id, -1);
  });

  test('refuses a bad status in Zulip words', async () => {
    const user = await server.createUser();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: 'away' }, 'Invalid status: away'],
      [{}, "Missing 'status' argument"],
      [{ status: 'active', last_update_id: 'x' }, 'last_update_id is not valid JSON'],
      [{ status: 'active', ping_only: 3 }, 'ping_only is not a boolean'],
    ];
    for (const [params, msg] of cases) {
      const response = await user.post('/users/me/presence', params);
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, msg);
    }
    assert.equal(await modernPresenceOf(server.owner, user.userId), undefined, 'nothing was recorded');
  });

  test('new_user_input is accepted', async () => {
    const user = await server.createUser();
    const response = await user.post('/users/me/presence', { status: 'active', new_user_input: true });
    assert.equal(response.status, 200);
    assert.equal(response.body.ignored_parameters_unsupported, undefined);
  });
});

describe('invisible mode (presence_enabled off)', () => {
  test('shows the user offline to everyone at once, ignores their reports, and ends when turned back on', async () => {
    const user = await server.createUser();
    clock.advance(DAY);
    await user.post('/users/me/presence', { status: 'active' });
    const joined = (await user.get('/users/me')).body.date_joined;
    const events = await listen(server.owner, {
      event_types: ['presence'],
      client_capabilities: { simplified_presence_events: true },
    });

    assert.equal((await user.patch('/settings', { presence_enabled: false })).status, 200);
    const offlineSince = nowSeconds() - 320;
    const [hidden] = await events();
    const joinedSeconds = Math.floor(Date.parse(joined) / 1000);
    assert.deepEqual(hidden.presences[user.userId], { active_timestamp: joinedSeconds, idle_timestamp: offlineSince });

    clock.advance(120 * SECOND);
    await user.post('/users/me/presence', { status: 'active' });
    assert.deepEqual(await events(), [], 'reports while invisible are not recorded');
    assert.deepEqual(await modernPresenceOf(server.owner, user.userId), { active_timestamp: joinedSeconds, idle_timestamp: offlineSince });
    const single = await server.owner.get(`/users/${user.userId}/presence`);
    assert.deepEqual(single.body.presence, { active_timestamp: joinedSeconds, idle_timestamp: offlineSince });

    await user.patch('/settings', { presence_enabled: true });
    const [visible] = await events();
    assert.deepEqual(visible.presences[user.userId], { active_timestamp: nowSeconds(), idle_timestamp: nowSeconds() });
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  test('answers one user by ID or email in the modern format (level 487)', async () => {
    const user = await server.createUser();
    await user.post('/users/me/presence', { status: 'active' });
    const at = nowSeconds();
    const email = await emailOf(user);
    const expected = { active_timestamp: at, idle_timestamp: at };
    assert.deepEqual((await server.owner.get(`/users/${user.userId}/presence`)).body.presence, expected);
    assert.deepEqual((await server.owner.get(`/users/${email.toUpperCase()}/presence`)).body.presence, expected);

    clock.advance(201 * SECOND);
    await user.post('/users/me/presence', { status: 'idle' });
    const later = (await server.owner.get(`/users/${user.userId}/presence`)).body.presence;
    assert.deepEqual(later, { active_timestamp: at, idle_timestamp: nowSeconds() });
  });

  test('refuses unknown, deactivated and silent users', async () => {
    const silent = await server.createUser();
    const gone = await server.createUser();
    await gone.post('/users/me/presence', { status: 'active' });
    await server.owner.delete(`/users/${gone.userId}`);
    const cases: Array<[string, string]> = [
      ['999999', 'No such user'],
      ['nobody@example.com', 'No such user'],
      [String(gone.userId), 'No such user'],
      [String(silent.userId), `No presence data for ${silent.userId}`],
    ];
    for (const [target, msg] of cases) {
      const response = await server.owner.get(`/users/${target}/presence`);
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, msg);
    }
  });
});

describe('GET /realm/presence', () => {
  test('lists active users in the legacy format, without deactivated ones', async () => {
    const user = await server.createUser();
    const gone = await server.createUser();
    await user.post('/users/me/presence', { status: 'idle' });
    await gone.post('/users/me/presence', { status: 'active' });
    await server.owner.delete(`/users/${gone.userId}`);
    const response = await server.owner.get('/realm/presence');
    assert.equal(response.status, 200);
    assert.equal(response.body.presence_last_update_id, undefined);
    assert.equal(typeof response.body.server_timestamp, 'number');
    assert.ok(response.body.presences[await emailOf(user)].aggregated);
    assert.equal(response.body.presences[await emailOf(gone)], undefined);
  });
});

describe('POST /register presence state', () => {
  test('honours slim_presence and presence_history_limit_days, and survives a restart', async () => {
    const user = await server.createUser();
    await user.post('/users/me/presence', { status: 'active' });
    const at = nowSeconds();
    const email = await emailOf(user);
    const legacy = (await server.owner.post('/register', { fetch_event_types: ['presence'] })).body;
    assert.equal(legacy.presences[email].aggregated.timestamp, at);
    assert.equal(typeof legacy.server_timestamp, 'number');
    assert.ok(legacy.presence_last_update_id > 0);
    const noOther = (await server.owner.post('/register', { fetch_event_types: ['realm'] })).body;
    assert.equal(noOther.presences, undefined);

    clock.advance(2 * DAY);
    const slim = (await server.owner.post('/register', { fetch_event_types: ['presence'], slim_presence: true })).body;
    assert.deepEqual(slim.presences[String(user.userId)], { active_timestamp: at, idle_timestamp: at });
    const limited = await server.owner.post('/register', {
      fetch_event_types: ['presence'],
      slim_presence: true,
      presence_history_limit_days: 1,
    });
    assert.equal(limited.body.presences[String(user.userId)], undefined);

    await server.restart();
    const restarted = (await server.owner.post('/register', { fetch_event_types: ['presence'], slim_presence: true })).body;
    assert.deepEqual(restarted.presences[String(user.userId)], { active_timestamp: at, idle_timestamp: at });
    assert.equal(restarted.presence_last_update_id, slim.presence_last_update_id);
  });
});

describe('presence rows as read for /register and reports', () => {
  test('are those of active people, in user order, as joining each row with its user gives', async () => {
    const people = [await server.createUser(), await server.createUser(), await server.createUser()];
    for (const person of people.reverse()) await person.post('/users/me/presence', { status: 'active' });
    await server.owner.delete(`/users/${people[1].userId}`);
    const bot = (await server.owner.post('/bots', { full_name: 'Presence bot', short_name: 'presence-bot', bot_type: 1 })).body.user_id as number;
    const newest = (server.stoa.db.prepare('SELECT max(last_update_id) AS id FROM user_presence').get() as { id: number }).id;
    // A bot has no presence of its own; a row of one, as an older server might have left, is not shown.
    server.stoa.db.prepare('INSERT INTO user_presence (user_id, last_active_ms, last_connected_ms, last_update_id) VALUES (?, ?, ?, ?)').run(bot, 1, clock.now(), newest + 1);
    const joined = server.stoa.db.prepare(
      `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
       WHERE p.last_update_id > ? AND p.last_connected_ms >= ? AND u.is_active = 1 AND u.is_bot = 0
       ORDER BY p.user_id`,
    );
    for (const after of [-1, 0, 1, newest - 2, newest - 1, newest + 1]) {
      for (const since of [0, clock.now() - DAY, clock.now() + 1]) {
        assert.deepEqual(server.stoa.presence.changedSince(after, since), joined.all(after, since), `after ${after}, since ${since}`);
      }
    }
    assert.ok(server.stoa.presence.changedSince(-1, 0).length >= 2);
    // Rows kept between reads follow later reports: a person's first, and another's next.
    const late = await server.createUser();
    await late.post('/users/me/presence', { status: 'idle' });
    await people[2].post('/users/me/presence', { status: 'active' });
    for (const after of [-1, newest + 1]) assert.deepEqual(server.stoa.presence.changedSince(after, 0), joined.all(after, 0));
    // A row written behind the server's back (not through its reports) is read again.
    server.stoa.db.prepare('UPDATE user_presence SET last_connected_ms = last_connected_ms + 1 WHERE user_id = ?').run(late.userId);
    assert.deepEqual(server.stoa.presence.changedSince(-1, 0), joined.all(-1, 0));
    // A user written since (here deactivated) drops out at once: the people are not kept stale.
    await server.owner.delete(`/users/${people[0].userId}`);
    assert.deepEqual(server.stoa.presence.changedSince(-1, 0), joined.all(-1, 0));
    assert.equal(server.stoa.presence.changedSince(-1, 0).some((row) => row.user_id === people[0].userId), false);
  });

  test('as modern JSON are those rows, whatever the filter, through first reports, later ones, clock moves and user changes', async () => {
    const joined = server.stoa.db.prepare<[number, number], PresenceView>(
      `SELECT p.*, u.email, u.date_joined_ms FROM user_presence p JOIN users u ON u.id = p.user_id
       WHERE p.last_update_id > ? AND p.last_connected_ms >= ? AND u.is_active = 1 AND u.is_bot = 0
       ORDER BY p.user_id`,
    );
    const expected = (after: number, since: number) => {
      const rows = joined.all(after, Math.max(since, -Number.MAX_VALUE));
      const text = `{${rows.map((row) => `"${row.user_id}":${JSON.stringify(modernPresence(row))}`).join(',')}}`;
      return { text, newestUpdateId: rows.length === 0 ? null : Math.max(...rows.map((row) => row.last_update_id)) };
    };
    const newest = () => (server.stoa.db.prepare('SELECT max(last_update_id) AS id FROM user_presence').get() as { id: number }).id;
    const oldestConnected = () => (server.stoa.db.prepare('SELECT min(last_connected_ms) AS ms FROM user_presence').get() as { ms: number }).ms;
    // Every filter, in two orders, so that text kept from one filter is tried on the others.
    const check = (step: string) => {
      const top = newest();
      const afters = [-1, 0, 1, top - 100, top - 65, top - 64, top - 63, top - 10, top - 1, top, top + 1];
      const edge = oldestConnected();
      const sinces = [-Infinity, 0, clock.now() - 14 * DAY, clock.now() - 60 * SECOND, edge, edge + 1, clock.now() + 1];
      const filters = afters.flatMap((after) => sinces.map((since): [number, number] => [after, since]));
      const bySince = sinces.flatMap((since) => afters.map((after): [number, number] => [after, since]));
      // A /register's filter first and last: text kept from the check before is tried after each change.
      const first: [number, number] = [-1, clock.now() - 14 * DAY];
      for (const [after, since] of [first, ...filters, ...filters, ...bySince, first]) {
        assert.deepEqual(server.stoa.presence.modernJson(after, since, modernPresence), expected(after, since), `${step}: after ${after}, since ${since}`);
      }
    };
    // More people than fit in one block of kept text, or in a poll's few changes.
    const people: User[] = [];
    for (let i = 0; i < 90; i++) people.push(await server.createUser());
    check('before their reports');
    // First reports in reverse user order: each row goes in before every row already kept.
    for (const [i, person] of [...people].reverse().entries()) {
      await person.post('/users/me/presence', { status: i % 4 === 0 ? 'idle' : 'active' });
      // Text is kept by block once there are more rows than a poll's few changes.
      if (i % 30 === 0 || i >= 62) check(`after ${i + 1} first reports`);
      clock.advance(SECOND);
    }
    check('after every first report');
    clock.advance(60 * SECOND);
    for (const [i, person] of people.entries()) if (i % 3 === 0) await person.post('/users/me/presence', { status: i % 2 === 0 ? 'idle' : 'active' });
    check('after later reports');
    await server.owner.delete(`/users/${people[42].userId}`);
    check('after a user within the history limit is deactivated');
    // The history limit passes the oldest rows one by one as the clock moves.
    clock.advance(14 * DAY - 60 * SECOND - 80 * SECOND);
    check('as the oldest rows reach the history limit');
    clock.advance(10 * SECOND);
    check('as some rows fall outside the history limit');
    clock.advance(DAY);
    check('once every row is outside it');
    await people[5].post('/users/me/presence', { status: 'active' });
    check('after a report outside the history limit');
    server.stoa.db.prepare('UPDATE user_presence SET last_active_ms = NULL WHERE user_id = ?').run(people[40].userId);
    check('after a row written behind the server\'s back');
    await server.owner.delete(`/users/${people[41].userId}`);
    check('after a user is deactivated');
  });
});
