import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import v8 from 'node:v8';
import { systemClock } from '../lib/clock';
import { EventQueues, type Event } from '../lib/events/queues';
import { queueSettings } from '../lib/events/register';
import { renderedTexCacheSize, renderMarkdown, type MarkdownContext } from '../lib/markdown/render';
import { DEFAULT_EVENT_QUEUE_OPTIONS } from '../lib/stoa';
import { USER_ROWS_KEPT, type UserRow } from '../lib/users/queries';
import { compactHeap, releaseMemory } from '../lib/memory/idle-release';
import { runsOnGlibc } from '../lib/memory/native-trim';
import { ManualClock, TestServer } from './support/server';
import { plainMemberRow } from './support/user-rows';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const LIMIT = DEFAULT_EVENT_QUEUE_OPTIONS.maxQueuesPerUser;

describe('event queues per user', () => {
  test(`a user registering more than ${LIMIT} queues keeps the newest ${LIMIT}; the oldest answers BAD_EVENT_QUEUE_ID`, async () => {
    const user = await server.createUser();
    const queueIds: string[] = [];
    for (let i = 0; i < LIMIT + 3; i++) {
      const response = await user.post('/register', { event_types: ['alert_words'], fetch_event_types: [], queue_lifespan_secs: 7 * 24 * 3600 });
      assert.equal(response.status, 200);
      queueIds.push(response.body.queue_id);
    }
    for (const [index, queue_id] of queueIds.entries()) {
      const response = await user.get('/events', { queue_id, last_event_id: -1, dont_block: true });
      if (index < 3) {
        assert.equal(response.status, 400, `queue ${index} should be gone`);
        assert.equal(response.body.code, 'BAD_EVENT_QUEUE_ID');
        assert.equal(response.body.queue_id, queue_id);
      } else {
        assert.equal(response.status, 200, `queue ${index} should be kept`);
      }
    }
    // Another user's queues are not touched by this one's.
    const other = await server.createUser();
    const theirs = (await other.post('/register', { event_types: ['alert_words'], fetch_event_types: [] })).body.queue_id;
    await user.post('/register', { event_types: ['alert_words'], fetch_event_types: [] });
    assert.equal((await other.get('/events', { queue_id: theirs, last_event_id: -1, dont_block: true })).status, 200);
  });

  test('a queue a client is polling is kept over idle ones', async () => {
    const user = await server.createUser();
    const polled = (await user.post('/register', { event_types: ['alert_words'], fetch_event_types: [] })).body.queue_id;
    const controller = new AbortController();
    const poll = user.request('GET', '/events', { queue_id: polled, last_event_id: -1 }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < LIMIT + 2; i++) await user.post('/register', { event_types: ['alert_words'], fetch_event_types: [] });
    // The parked poll is still waiting: it is answered by the next event, not dropped.
    await user.post('/users/me/alert_words', { alert_words: ['kept'] });
    const answer = await poll;
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.events.map((e: { type: string }) => e.type), ['alert_words']);
    controller.abort();
  });
});

describe('what event queues hold', () => {
  const settings = (userId: number) =>
    queueSettings({ id: userId } as UserRow, {
      event_types: null,
      narrow: [],
      client_capabilities: {},
      queue_lifespan_secs: 0,
    } as never);

  test('stays within its budget: the unpolled queues holding the most are dropped first', () => {
    const queues = new EventQueues(systemClock, { ...DEFAULT_EVENT_QUEUE_OPTIONS, maxQueuedBytes: 10_000 });
    const heavy = queues.create(settings(1));
    const light = queues.create(settings(2));
    const event = (n: number, size: number): Event => ({ type: 'custom', n, text: 'x'.repeat(size) });
    // Both get small events; only the heavy one's user gets the big ones.
    for (let n = 0; n < 5; n++) queues.deliver([{ event: event(n, 100), userIds: [1, 2] }]);
    for (let n = 5; n < 20; n++) {
      queues.deliver([{ event: event(n, 1000), userIds: [1] }]);
      assert.ok(queues.queuedBytes <= 10_000, `holding ${queues.queuedBytes} bytes`);
    }
    assert.throws(() => queues.get(1, heavy.id), /Bad event queue ID/);
    assert.equal(queues.get(2, light.id).size, 5);
    // A shared event counts once, however many queues hold it.
    const shared = event(99, 2000);
    for (let userId = 3; userId < 10; userId++) queues.create(settings(userId));
    const before = queues.queuedBytes;
    queues.deliver([{ event: shared, userIds: [2, 3, 4, 5, 6, 7, 8, 9] }]);
    // Its text once, and a reference (16 bytes) per queue.
    assert.equal(queues.queuedBytes - before, JSON.stringify(shared).length + 8 * 16);
  });

  test('queues never polled have a smaller budget; a polled queue is not dropped for it', () => {
    const queues = new EventQueues(systemClock, { ...DEFAULT_EVENT_QUEUE_OPTIONS, maxUnpolledQueuedBytes: 10_000 });
    const reader = queues.create(settings(1));
    reader.touch(systemClock.now());
    const abandoned = queues.create(settings(2));
    const event = (n: number, size: number): Event => ({ type: 'custom', n, text: 'x'.repeat(size) });
    for (let n = 0; n < 20; n++) queues.deliver([{ event: event(n, 1000), userIds: [2] }]);
    assert.ok(queues.queuedBytes <= 10_000, `holding ${queues.queuedBytes} bytes`);
    assert.throws(() => queues.get(2, abandoned.id), /Bad event queue ID/);
    // Past the smaller budget with nothing unpolled left to drop, the polled queue keeps all (the full budget is 32 MB).
    for (let n = 20; n < 40; n++) queues.deliver([{ event: event(n, 1000), userIds: [1] }]);
    assert.equal(queues.get(1, reader.id).size, 20);
    // Only what queues never polled hold counts against it: a queue just registered, holding
    // little, stays though the polled queue alone holds more than the smaller budget.
    const newcomer = queues.create(settings(3));
    queues.deliver([{ event: event(40, 100), userIds: [1, 3] }]);
    assert.equal(queues.get(3, newcomer.id).size, 1);
  });

  test('acknowledged and deleted events leave the budget', () => {
    const queues = new EventQueues(systemClock, DEFAULT_EVENT_QUEUE_OPTIONS);
    const first = queues.create(settings(1));
    const second = queues.create(settings(1));
    queues.deliver([{ event: { type: 'custom', n: 1 }, userIds: [1] }]);
    queues.deliver([{ event: { type: 'custom', n: 2 }, userIds: [1] }]);
    assert.ok(queues.queuedBytes > 0);
    first.acknowledge(1);
    assert.ok(queues.queuedBytes > 0, 'the other queue still holds both');
    queues.delete(second);
    assert.equal(queues.queuedBytes, 0);
  });
});

describe('caches', () => {
  test(`user rows kept between requests never exceed ${USER_ROWS_KEPT}`, () => {
    const { users } = server.stoa;
    const ids: number[] = [];
    for (let i = 0; i < USER_ROWS_KEPT + 50; i++) {
      ids.push(users.insert(plainMemberRow(`row${i}`, `Row ${i}`)));
    }
    for (const id of ids) assert.equal(users.byId(id)!.id, id);
    for (const id of ids) users.byAnyEmail(`row${id % 1000}@example.com`);
    assert.ok(users.keptRows() <= USER_ROWS_KEPT, `${users.keptRows()} rows kept`);
    // Rows still read right after being pushed out.
    assert.equal(users.byId(ids[0])!.full_name, 'Row 0');
  });

  test('rendered formulas are kept up to a count and a size', () => {
    const context: MarkdownContext = {
      usersByName: () => [],
      userById: () => null,
      groupByName: () => null,
      channelByName: () => null,
      realmEmoji: () => null,
      linkifiers: [],
      alertWords: [],
      realmUrl: 'http://127.0.0.1:9991',
    };
    for (let i = 0; i < 600; i++) renderMarkdown(`$$x^{${i}}$$`, context);
    assert.ok(renderedTexCacheSize().entries <= 500, `${renderedTexCacheSize().entries} formulas kept`);
    // Long formulas render to a lot of HTML each.
    for (let i = 0; i < 12; i++) renderMarkdown(`$$${`\\sqrt{x_${i}}+`.repeat(600)}y$$`, context);
    assert.ok(renderedTexCacheSize().chars <= 2_000_000, `${renderedTexCacheSize().chars} characters kept`);
  });
});

describe('after a flood', () => {
  test('the queues it registered and never polled are collected after a minute, and what they held leaves the budget', async () => {
    const clock = new ManualClock();
    const flooded = await TestServer.start({ clock });
    try {
      const { queues } = flooded.stoa;
      const flooders = [await flooded.createUser(), await flooded.createUser()];
      for (const flooder of flooders) {
        for (let i = 0; i < LIMIT + 2; i++) {
          const response = await flooder.post('/register', { fetch_event_types: [], queue_lifespan_secs: 7 * 24 * 3600 });
          assert.equal(response.status, 200);
        }
      }
      // A real client among them: it registers and polls.
      const reader = await flooded.createUser();
      const { queue_id } = (await reader.post('/register', { event_types: ['message'], fetch_event_types: [] })).body;
      assert.equal((await reader.get('/events', { queue_id, last_event_id: -1, dont_block: true })).status, 200);
      for (let i = 0; i < 5; i++) {
        for (const flooder of flooders) {
          const sent = await flooder.post('/messages', { type: 'direct', to: JSON.stringify([reader.userId]), content: `flood ${i} ${'x'.repeat(500)}` });
          assert.equal(sent.status, 200);
        }
      }
      assert.equal(queues.count, 2 * LIMIT + 1, 'each flooder holds at most its limit');
      // Each message's text once (shared by every queue holding it), and a reference per queue.
      assert.ok(queues.queuedBytes > 10 * 500 + 2 * LIMIT * 5 * 16, `${queues.queuedBytes} bytes queued`);
      const releasedBefore = queues.releasedBytes;

      clock.advance(61_000);
      assert.equal(queues.collectGarbage(), 2 * LIMIT);
      assert.equal(queues.count, 1, 'the polled queue is kept');
      const polled = await reader.get('/events', { queue_id, last_event_id: -1, dont_block: true });
      assert.equal(polled.body.events.length, 10);
      await reader.get('/events', { queue_id, last_event_id: polled.body.events.at(-1).id, dont_block: true });
      assert.equal(queues.queuedBytes, 0);
      assert.ok(queues.releasedBytes - releasedBefore > 10 * 500, 'what the queues let go of is counted, for the release when quiet');
    } finally {
      await flooded.close();
    }
  });

  test('releasing memory empties the formula and narrow caches and collects the whole JavaScript heap', async () => {
    const reader = await server.createUser();
    await reader.post('/messages/render', { content: '$$\\frac{1}{x}$$' });
    await reader.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'starred' }]) });
    // Held only weakly: a full collection frees it (not within the turn that made it, so one turn later).
    const garbage = new WeakRef({ payload: 'x'.repeat(1000) });
    await new Promise((resolve) => setImmediate(resolve));
    const release = releaseMemory(server.stoa);
    assert.ok(release.formulas >= 1, `${release.formulas} formulas dropped`);
    assert.ok(release.narrowStatements >= 1, `${release.narrowStatements} narrow statements forgotten`);
    assert.equal(release.heapCollected, true);
    assert.equal(garbage.deref(), undefined);
    assert.equal(renderedTexCacheSize().entries, 0);
    // Everything still answers as before.
    const again = await reader.post('/messages/render', { content: '$$\\frac{1}{x}$$' });
    assert.match(again.body.rendered, /katex/);
    const fetched = await reader.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'starred' }]) });
    assert.equal(fetched.status, 200);
  });

  test('compacting the JavaScript heap after a release gives back the pages a burst left mostly empty', async () => {
    const oldSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!;
    // A burst: many small objects that live long enough to reach the old generation, of which
    // one in eight stays. A collection that does not move objects leaves every page 1/8 full.
    let burst: Array<{ n: number; text: string }> = [];
    for (let i = 0; i < 300_000; i++) burst.push({ n: i, text: `object ${i}` });
    releaseMemory(server.stoa);
    const kept = burst.filter((_, i) => i % 8 === 0);
    burst = [];
    await new Promise((resolve) => setImmediate(resolve));
    releaseMemory(server.stoa);
    assert.equal(compactHeap(), true);
    const { space_size: committed, space_used_size: used } = oldSpace();
    const slackMb = (committed - used) / 2 ** 20;
    assert.ok(slackMb < 4, `old generation: ${(committed / 2 ** 20).toFixed(1)} MB committed for ${(used / 2 ** 20).toFixed(1)} MB in use`);
    assert.equal(kept.length, 37_500);
  });

  test('releasing memory hands what the C library holds free back to the system', { skip: runsOnGlibc() ? false : 'only glibc (Linux) has malloc_trim' }, async () => {
    const mib = () => process.memoryUsage.rss() / 2 ** 20;
    // 150 MB of 64 KB buffers (below glibc's mmap threshold, so inside its heap), each followed
    // by a small one that stays: freeing the large ones leaves holes glibc keeps for itself.
    let large: Buffer[] = [];
    const kept: Buffer[] = [];
    for (let i = 0; i < 2400; i++) {
      large.push(Buffer.alloc(64 * 1024, 1));
      kept.push(Buffer.alloc(1024, 1));
    }
    const allocated = mib();
    large = [];
    // The first release collects the buffers; V8 frees their memory on a thread of its own,
    // so the second, a moment later, is the one that finds it free.
    releaseMemory(server.stoa);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const release = releaseMemory(server.stoa);
    assert.equal(release.nativeHeapTrimmed, true);
    const after = mib();
    assert.ok(allocated - after > 100, `RSS ${allocated.toFixed(0)} MB with the buffers, ${after.toFixed(0)} MB after the release`);
    assert.equal(kept.length, 2400);
  });
});
