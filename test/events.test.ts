import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { sendEvent, write } from '../lib/events/send';
import { pollFields } from '../lib/http/long-poll';
import { queryFields } from '../lib/http/params';
import type { Client } from './support/client';
import { assertValidEvent } from './support/openapi';
import { ManualClock, TestServer } from './support/server';

const HEARTBEAT_MS = 300;

let server: TestServer;
before(async () => {
  server = await TestServer.start({ heartbeatMs: HEARTBEAT_MS });
});
after(() => server.close());

async function registerQueue(client: Client, params: Record<string, unknown> = {}) {
  const response = await client.post('/register', { fetch_event_types: [], ...params });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as { queue_id: string; last_event_id: number };
}

/** GET /events; every event received is checked against zulip.yaml. */
async function getEvents(client: Client, params: Record<string, unknown>, signal?: AbortSignal) {
  const response = await client.request('GET', '/events', params, { signal });
  if (response.status === 200) for (const event of response.body.events) assertValidEvent(event);
  return response;
}

/** Settles to 'pending' if the promise has not settled within ms. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
}

describe('POST /register', () => {
  test('creates a queue and tells the server version', async () => {
    const response = await server.owner.post('/register', { event_types: ['alert_words'] });
    assert.equal(response.status, 200);
    assert.equal(typeof response.body.queue_id, 'string');
    assert.equal(response.body.last_event_id, -1);
    assert.equal(response.body.zulip_feature_level, 488);
    assert.equal(typeof response.body.zulip_version, 'string');
    assert.equal(typeof response.body.zulip_merge_base, 'string');
    assert.deepEqual(response.body.alert_words, []);
    assert.equal('realm_users' in response.body, false, 'only the requested types are fetched');
  });

  test('fetches fetch_event_types when given, else event_types, else everything', async () => {
    const fetched = await server.owner.post('/register', { event_types: ['alert_words'], fetch_event_types: ['realm_user'] });
    assert.ok('realm_users' in fetched.body);
    assert.equal('alert_words' in fetched.body, false);
    const everything = await server.owner.post('/register', {});
    for (const key of ['alert_words', 'realm_users', 'realm_user_groups', 'custom_profile_fields']) {
      assert.ok(key in everything.body, key);
    }
  });

  test('rejects bad parameters with Zulip errors', async () => {
    const badTypes = await server.owner.post('/register', { event_types: 'message' });
    assert.equal(badTypes.status, 400);
    assert.equal(badTypes.body.msg, 'event_types is not valid JSON');
    const badCapability = await server.owner.post('/register', { client_capabilities: { user_settings_object: 1 } });
    assert.equal(badCapability.status, 400);
    assert.match(badCapability.body.msg, /user_settings_object/);
  });
});

describe('GET /events', () => {
  test('with dont_block answers at once, with no events', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const response = await getEvents(server.owner, { queue_id, last_event_id: -1, dont_block: true });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.events, []);
    assert.equal(response.body.queue_id, queue_id);
  });

  test('parks until an event arrives, then answers with it', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const poll = getEvents(server.owner, { queue_id, last_event_id: -1 });
    assert.equal(await within(poll, 100), 'pending');
    await server.owner.post('/users/me/alert_words', { alert_words: ['wake'] });
    const response = await poll;
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.events, [{ type: 'alert_words', alert_words: ['wake'], id: 0 }]);
  });

  test('answers a parked poll with a heartbeat when nothing happens', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const started = Date.now();
    const response = await getEvents(server.owner, { queue_id, last_event_id: -1 });
    assert.ok(Date.now() - started >= HEARTBEAT_MS - 20);
    assert.deepEqual(response.body.events, [{ type: 'heartbeat', id: 0 }]);
  });

  test('keeps events until acknowledged, and refuses ids it cannot account for', async () => {
    const user = await server.createUser();
    const { queue_id } = await registerQueue(user, { event_types: ['alert_words'] });
    await user.post('/users/me/alert_words', { alert_words: ['one'] });
    await user.post('/users/me/alert_words', { alert_words: ['two'] });
    const both = await getEvents(user, { queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(both.body.events.map((e: { id: number }) => e.id), [0, 1]);
    const again = await getEvents(user, { queue_id, last_event_id: -1, dont_block: true });
    assert.equal(again.body.events.length, 2, 'nothing is dropped before it is acknowledged');
    const afterFirst = await getEvents(user, { queue_id, last_event_id: 0, dont_block: true });
    assert.deepEqual(afterFirst.body.events.map((e: { id: number }) => e.id), [1]);

    const pruned = await getEvents(user, { queue_id, last_event_id: -1, dont_block: true });
    assert.equal(pruned.status, 400);
    assert.equal(pruned.body.msg, 'An event newer than -1 has already been pruned!');
    const unknown = await getEvents(user, { queue_id, last_event_id: 7, dont_block: true });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.msg, 'Event 7 was not in this queue');
  });

  test('delivers only the event types a queue registered for', async () => {
    const user = await server.createUser();
    const { queue_id } = await registerQueue(user, { event_types: ['realm_user'] });
    await user.post('/users/me/alert_words', { alert_words: ['ignored'] });
    const response = await getEvents(user, { queue_id, last_event_id: -1, dont_block: true });
    assert.deepEqual(response.body.events, []);
  });

  test('answers BAD_EVENT_QUEUE_ID for unknown queues and for other users’ queues', async () => {
    const other = await server.createUser();
    const { queue_id } = await registerQueue(other);
    for (const id of [queue_id, 'no-such-queue']) {
      const response = await getEvents(server.owner, { queue_id: id, last_event_id: -1, dont_block: true });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, {
        result: 'error',
        msg: `Bad event queue ID: ${id}`,
        code: 'BAD_EVENT_QUEUE_ID',
        queue_id: id,
      });
    }
  });

  test('without a queue_id registers a queue when called with dont_block', async () => {
    const response = await getEvents(server.owner, { dont_block: true, event_types: ['alert_words'] });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.events, []);
    const queue_id = response.body.queue_id;
    await server.owner.post('/users/me/alert_words', { alert_words: ['registered'] });
    const events = await getEvents(server.owner, { queue_id, last_event_id: -1, dont_block: true });
    assert.equal(events.body.events[0].type, 'alert_words');
    const blocking = await getEvents(server.owner, {});
    assert.equal(blocking.status, 400);
    assert.equal(blocking.body.code, 'REQUEST_VARIABLE_MISSING');
  });

  test('a client that disconnects mid-poll releases its poll at once', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const abort = new AbortController();
    const poll = getEvents(server.owner, { queue_id, last_event_id: -1 }, abort.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const queue = server.stoa.queues.get(server.ownerId, queue_id);
    assert.ok(queue.parked, 'the poll is parked');
    abort.abort();
    await assert.rejects(poll);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(queue.parked, null, 'the server let go of it');
  });
});

describe('GET /events outside Express', () => {
  // Plain polls take a lean path that skips Express (lib/http/long-poll.ts); whatever that
  // path does not take must still get the answers of the general one.

  test('reports parameters it does not know and logs a failed poll without its query string', async () => {
    const { queue_id } = await registerQueue(server.owner);
    server.logs.length = 0;
    const response = await getEvents(server.owner, { queue_id, last_event_id: -1, dont_block: true, colour: 'blue' });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.ignored_parameters_unsupported, ['colour']);
    // An answered poll has no line of its own (the log sums them up: test/http.test.ts).
    const failed = await getEvents(server.owner, { queue_id: `${queue_id}x`, last_event_id: -1, dont_block: true, colour: 'blue' });
    assert.equal(failed.status, 400);
    assert.deepEqual(server.logs.filter((line) => line.includes('/events') && !line.includes('long poll')).map((line) => line.replace(/[\d.]+ms$/, 'ms')), [
      'GET /api/v1/events 400 ms',
    ]);
    assert.ok(!server.logs.some((line) => line.includes(queue_id) || line.includes('colour')));
  });

  test('answers a missing, malformed or wrong login as every endpoint does', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const params = { queue_id, last_event_id: -1, dont_block: true };
    const anonymous = await server.owner.as(undefined).get('/events', params);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'UNAUTHORIZED');
    assert.equal(anonymous.headers.get('www-authenticate'), 'Basic realm="zulip"');
    const wrongKey = await server.owner.as({ email: 'desdemona@example.com', apiKey: 'a'.repeat(32) }).get('/events', params);
    assert.equal(wrongKey.status, 401);
    assert.equal(wrongKey.body.code, 'INVALID_API_KEY');
    const malformed = await server.owner.request('GET', '/events', params, { headers: { authorization: 'Basic %%%' } });
    assert.equal(malformed.status, 401);
    assert.equal(malformed.headers.get('www-authenticate'), 'Basic realm="zulip"');
  });

  test('a poll with its parameters in a form body is served too', async () => {
    const user = await server.createUser();
    const { queue_id } = await registerQueue(user, { event_types: ['alert_words'] });
    await user.post('/users/me/alert_words', { alert_words: ['bodily'] });
    // fetch() refuses a GET with a body; some HTTP clients send one.
    const body = new URLSearchParams({ queue_id, last_event_id: '-1', dont_block: 'true' }).toString();
    const { email, apiKey } = user.credentials;
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/events`, {
        method: 'GET',
        headers: {
          authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.events, [{ type: 'alert_words', alert_words: ['bodily'], id: 0 }]);
  });
});

describe('GET /events, a plain poll', () => {
  /** One poll as raw bytes: status, the headers that describe the body, and the body's text. */
  function rawPoll(client: Client, query: Record<string, string>) {
    const { email, apiKey } = client.credentials!;
    return new Promise<{ status: number; type: string | undefined; length: string | undefined; text: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/events?${new URLSearchParams(query)}`, {
        headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], length: res.headers['content-length'], text }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  test('answers byte for byte as the endpoint does, woken or at once, and refuses alike', async () => {
    const user = await server.createUser();
    const { queue_id } = await registerQueue(user, { event_types: ['alert_words'] });
    // Parked, then woken: a plain poll (queue and last event id only).
    const woken = rawPoll(user, { queue_id, last_event_id: '-1' });
    assert.equal(await within(woken, 100), 'pending');
    await user.post('/users/me/alert_words', { alert_words: ['bodily'] });
    const plain = await woken;
    // The same events again through the endpoint's general path (one more parameter).
    const general = await rawPoll(user, { queue_id, last_event_id: '-1', dont_block: 'false' });
    assert.equal(plain.status, 200);
    assert.deepEqual(plain, general);
    const body = JSON.parse(plain.text);
    assert.deepEqual(body, { result: 'success', msg: '', events: [{ type: 'alert_words', alert_words: ['bodily'], id: 0 }], queue_id });
    // Answered at once when events wait.
    assert.deepEqual(await rawPoll(user, { queue_id, last_event_id: '-1' }), general);
    // An event id the queue never had, and another person's queue, are refused as by the endpoint.
    const unknown = await rawPoll(user, { queue_id, last_event_id: '7' });
    assert.equal(unknown.status, 400);
    assert.deepEqual(JSON.parse(unknown.text), { result: 'error', msg: 'Event 7 was not in this queue', code: 'BAD_REQUEST' });
    const other = await rawPoll(server.owner, { queue_id, last_event_id: '0' });
    assert.equal(other.status, 400);
    assert.equal(JSON.parse(other.text).code, 'BAD_EVENT_QUEUE_ID');
  });

  test('a remembered key still counts after someone else changes, and no longer once the key or the account does', async () => {
    const user = await server.createUser();
    const bystander = await server.createUser();
    const { queue_id } = await registerQueue(user, { event_types: ['realm_user'] });
    // The first plain poll proves the key; it is answered by the bystander's new name.
    const first = rawPoll(user, { queue_id, last_event_id: '-1' });
    assert.equal(await within(first, 100), 'pending');
    const kept = server.stoa.users.byId(user.userId);
    assert.equal((await bystander.patch('/settings', { full_name: 'Bystander Renamed' })).status, 200);
    const woken = await first;
    assert.equal(woken.status, 200);
    assert.equal(JSON.parse(woken.text).events[0].person.full_name, 'Bystander Renamed');
    // Someone else's row written leaves this person's kept row (and the remembered key) alone.
    assert.equal(server.stoa.users.byId(user.userId), kept);
    assert.deepEqual(JSON.parse((await rawPoll(user, { queue_id, last_event_id: '0', dont_block: 'true' })).text).events, []);

    // A new key: the old one is refused on the very next poll, the new one taken.
    const regenerated = await user.post('/users/me/api_key/regenerate', {});
    assert.equal(regenerated.status, 200);
    const stale = await rawPoll(user, { queue_id, last_event_id: '0' });
    assert.equal(stale.status, 401);
    assert.equal(JSON.parse(stale.text).msg, 'Invalid API key');
    const renewed = user.as({ email: user.credentials!.email, apiKey: regenerated.body.api_key });
    const answered = rawPoll(renewed, { queue_id, last_event_id: '0' });
    assert.equal(await within(answered, 100), 'pending');
    await bystander.patch('/settings', { full_name: 'Bystander Again' });
    assert.equal((await answered).status, 200);

    // A deactivated account is refused at once, though its key was proven a moment ago.
    assert.equal((await server.owner.delete(`/users/${user.userId}`)).status, 200);
    const deactivated = await rawPoll(renewed, { queue_id, last_event_id: '1' });
    assert.equal(deactivated.status, 401);
    assert.equal(JSON.parse(deactivated.text).code, 'USER_DEACTIVATED');
  });
});

describe('GET /events, the plain poll read off its URL', () => {
  test('gives the fields the general parser gives, or leaves the query to it', () => {
    const queue = '0b7e1f52-3c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const plain = [`/api/v1/events?queue_id=${queue}&last_event_id=-1`, `/json/events?queue_id=${queue}&last_event_id=41`];
    for (const url of plain) {
      assert.deepEqual([...pollFields(url)], [...queryFields(url)], url);
      assert.equal(pollFields(url).size, 2);
    }
    // Escapes, other parameters, another order, repeated names, odd values: the parser's.
    const others = [
      `/api/v1/events?queue_id=${queue}&last_event_id=007`,
      `/api/v1/events?queue_id=${queue}&last_event_id=1&dont_block=true`,
      `/api/v1/events?last_event_id=1&queue_id=${queue}`,
      `/api/v1/events?queue_id=${queue}&queue_id=${queue}&last_event_id=1`,
      `/api/v1/events?queue_id=%30${queue}&last_event_id=1`,
      `/api/v1/events?queue_id=${queue.toUpperCase()}&last_event_id=1`,
      `/api/v1/events?x=?queue_id=${queue}&last_event_id=1`,
      '/api/v1/events',
      '/api/v1/events?',
    ];
    for (const url of others) assert.deepEqual([...pollFields(url)], [...queryFields(url)], url);
  });
});

describe('DELETE /events', () => {
  test('deletes the queue', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const deleted = await server.owner.delete('/events', { queue_id });
    assert.equal(deleted.status, 200);
    const response = await getEvents(server.owner, { queue_id, last_event_id: -1, dont_block: true });
    assert.equal(response.body.code, 'BAD_EVENT_QUEUE_ID');
    const twice = await server.owner.delete('/events', { queue_id });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.code, 'BAD_EVENT_QUEUE_ID');
  });
});

describe('events', () => {
  test('sent inside a transaction are delivered after the commit and dropped on rollback', async () => {
    const { queue_id } = await registerQueue(server.owner);
    const ownerId = server.ownerId;
    const queue = server.stoa.queues.get(ownerId, queue_id);
    assert.throws(() =>
      write(server.stoa, () => {
        sendEvent(server.stoa, { type: 'alert_words', alert_words: ['never'] }, [ownerId]);
        throw new Error('rolled back');
      }),
    );
    assert.equal(queue.size, 0);
    write(server.stoa, () => {
      sendEvent(server.stoa, { type: 'alert_words', alert_words: ['kept'] }, [ownerId]);
      assert.equal(queue.size, 0, 'not before the commit');
    });
    assert.equal(queue.size, 1);
  });
});

describe('serializing events', () => {
  test('turns each distinct event into JSON once, however many queues receive it', async () => {
    const users = [await server.createUser(), await server.createUser(), await server.createUser()];
    const queues: Array<{ client: Client; queue_id: string }> = [];
    for (const user of users) {
      for (let i = 0; i < 2; i++) {
        const { queue_id } = await registerQueue(user, { event_types: ['realm_user', 'alert_words'] });
        queues.push({ client: user, queue_id });
      }
    }
    const before = server.stoa.queues.serializedEvents;
    // One user's queues hold an event of their own first, so the shared event gets different ids.
    await users[0].post('/users/me/alert_words', { alert_words: ['first'] });
    await users[1].patch('/settings', { full_name: 'Renamed Once' });

    const received = [];
    for (const { client, queue_id } of queues) {
      received.push((await getEvents(client, { queue_id, last_event_id: -1, dont_block: true })).body.events);
    }
    const renamed = { type: 'realm_user', op: 'update', person: { user_id: users[1].userId, full_name: 'Renamed Once' } };
    assert.deepEqual(received[0], [{ type: 'alert_words', alert_words: ['first'], id: 0 }, { ...renamed, id: 1 }]);
    assert.deepEqual(received[1], received[0]);
    for (const events of received.slice(2)) assert.deepEqual(events, [{ ...renamed, id: 0 }]);
    assert.equal(server.stoa.queues.serializedEvents - before, 2, 'one text for the alert words, one for the rename');
  });

  test('builds an event shaped per client once for all the queues that get the same shape', async () => {
    // A server of its own: events are turned into JSON as they are queued, and the queues of
    // the other tests would receive the newcomer in shapes of their own.
    const quiet = await TestServer.start();
    try {
      const watcher = await quiet.createUser();
      const queueIds = [];
      for (let i = 0; i < 3; i++) queueIds.push((await registerQueue(watcher, { event_types: ['realm_user'] })).queue_id);
      const before = quiet.stoa.queues.serializedEvents;
      const newcomer = await quiet.createUser();
      const added = [];
      for (const queue_id of queueIds) {
        added.push((await getEvents(watcher, { queue_id, last_event_id: -1, dont_block: true })).body.events);
      }
      assert.equal(added[0][0].person.user_id, newcomer.userId);
      assert.deepEqual(added[1], added[0]);
      assert.deepEqual(added[2], added[0]);
      // The newcomer's arrival, and the date_joined of their first login (level 475): each
      // event built once for the three queues.
      assert.deepEqual(added[0].map((e: { op: string }) => e.op), ['add', 'update']);
      assert.equal(quiet.stoa.queues.serializedEvents - before, 2);
    } finally {
      await quiet.close();
    }
  });
});

describe('idle queues', () => {
  test('are garbage-collected after their lifespan, unless the client asked for a longer one', async () => {
    const clock = new ManualClock();
    const gcServer = await TestServer.start({ clock });
    try {
      const short = await registerQueue(gcServer.owner);
      const long = await registerQueue(gcServer.owner, { queue_lifespan_secs: 3600 });
      // Both clients poll at once, as clients do; a queue never polled has only a minute (below).
      for (const { queue_id } of [short, long]) {
        assert.equal((await getEvents(gcServer.owner, { queue_id, last_event_id: -1, dont_block: true })).status, 200);
      }
      clock.advance(9 * 60 * 1000);
      const alive = await getEvents(gcServer.owner, { queue_id: short.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(alive.status, 200, 'polling keeps a queue alive');
      clock.advance(11 * 60 * 1000);
      await registerQueue(gcServer.owner); // registration collects idle queues
      const gone = await getEvents(gcServer.owner, { queue_id: short.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(gone.body.code, 'BAD_EVENT_QUEUE_ID');
      const kept = await getEvents(gcServer.owner, { queue_id: long.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(kept.status, 200);
    } finally {
      await gcServer.close();
    }
  });

  test('a queue nobody ever polls is collected after a minute; its client gets BAD_EVENT_QUEUE_ID and registers again', async () => {
    const clock = new ManualClock();
    const gcServer = await TestServer.start({ clock });
    try {
      const abandoned = await registerQueue(gcServer.owner, { queue_lifespan_secs: 7 * 24 * 3600 });
      const used = await registerQueue(gcServer.owner);
      clock.advance(5_000);
      // A real client polls within seconds of registering; from then on its queue lives its lifespan.
      assert.equal((await getEvents(gcServer.owner, { queue_id: used.queue_id, last_event_id: -1, dont_block: true })).status, 200);
      clock.advance(56_000);
      assert.equal(gcServer.stoa.queues.collectGarbage(), 1, 'only the queue never polled');
      const gone = await getEvents(gcServer.owner, { queue_id: abandoned.queue_id, last_event_id: -1, dont_block: true });
      assert.equal(gone.status, 400);
      assert.equal(gone.body.code, 'BAD_EVENT_QUEUE_ID');
      assert.equal(gone.body.queue_id, abandoned.queue_id);
      // The documented recovery: register again, and the new queue works.
      const again = await registerQueue(gcServer.owner);
      assert.equal((await getEvents(gcServer.owner, { queue_id: again.queue_id, last_event_id: -1, dont_block: true })).status, 200);
      clock.advance(8 * 60 * 1000);
      assert.equal((await getEvents(gcServer.owner, { queue_id: used.queue_id, last_event_id: -1, dont_block: true })).status, 200);
    } finally {
      await gcServer.close();
    }
  });

  test('a queue with a parked poll is not collected, and its idle time starts when the poll ends', async () => {
    const clock = new ManualClock();
    const gcServer = await TestServer.start({ clock, heartbeatMs: 60_000 });
    try {
      const { queue_id } = await registerQueue(gcServer.owner);
      const abort = new AbortController();
      const poll = getEvents(gcServer.owner, { queue_id, last_event_id: -1 }, abort.signal);
      await new Promise((resolve) => setTimeout(resolve, 50));
      clock.advance(60 * 60 * 1000);
      assert.equal(gcServer.stoa.queues.collectGarbage(), 0, 'parked: still in use');
      abort.abort();
      await assert.rejects(poll);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(gcServer.stoa.queues.collectGarbage(), 0, 'idle only from now');
      clock.advance(10 * 60 * 1000);
      assert.equal(gcServer.stoa.queues.collectGarbage(), 1);
    } finally {
      await gcServer.close();
    }
  });
});

describe('shutting down', () => {
  test('answers parked polls at once', async () => {
    const shortLived = await TestServer.start({ heartbeatMs: 60_000 });
    const { queue_id } = await registerQueue(shortLived.owner);
    const poll = getEvents(shortLived.owner, { queue_id, last_event_id: -1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await shortLived.close();
    const response = await poll;
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.events, []);
    assert.ok(Date.now() - started < 1000);
  });
});
