import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

const clock = new ManualClock(Date.UTC(2026, 2, 1, 12, 0, 0));
const NOW = Date.UTC(2026, 2, 1, 12, 0, 0) / 1000;
let server: TestServer;
let channelId: number;
before(async () => {
  server = await TestServer.start({ clock });
  channelId = (await createChannel(server.owner)).id;
});
after(() => server.close());

const streamDraft = (content = 'Shall we ship it?') => ({ type: 'stream', to: [channelId], topic: 'release', content });

describe('drafts', () => {
  test('are created, listed, edited and deleted, and every client of the user hears of it', async () => {
    const user = await server.createUser();
    const events = await listen(user, { event_types: ['drafts'] });

    const created = await user.post('/drafts', { drafts: [streamDraft(), { type: '', to: [], topic: '', content: 'an idea' }] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [first, second] = created.body.ids as number[];
    assert.ok(second > first);

    const listed = await user.get('/drafts');
    assert.equal(listed.body.count, 2);
    assert.deepEqual(listed.body.drafts[0], {
      id: first,
      type: 'stream',
      to: [channelId],
      topic: 'release',
      content: 'Shall we ship it?',
      timestamp: NOW,
    });
    const [added] = await events();
    assert.equal(added.op, 'add');
    assert.deepEqual(added.drafts, listed.body.drafts);

    const edited = await user.patch(`/drafts/${first}`, { draft: { ...streamDraft('Ship it now.'), timestamp: NOW + 60.5 } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const [updated] = await events();
    assert.deepEqual(updated, {
      type: 'drafts',
      op: 'update',
      draft: { id: first, type: 'stream', to: [channelId], topic: 'release', content: 'Ship it now.', timestamp: NOW + 60 },
    });
    assert.deepEqual((await user.get('/drafts')).body.drafts.map((d: { id: number }) => d.id), [second, first], 'least recently edited first');

    assert.equal((await user.delete(`/drafts/${second}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'drafts', op: 'remove', draft_id: second }]);
    const state = (await user.post('/register', { fetch_event_types: ['drafts'] })).body;
    assert.deepEqual(state.drafts, [updated.draft]);
  });

  test('keep the people of a direct draft as clients see them', async () => {
    const user = await server.createUser();
    const [a, b] = [await server.createUser(), await server.createUser()];
    const drafts = [
      { type: 'private', to: [user.userId, a.userId], topic: 'ignored', content: 'one on one' },
      { type: 'private', to: [user.userId], topic: '', content: 'note to self' },
      { type: 'private', to: [b.userId, a.userId, user.userId, a.userId], topic: '', content: 'group' },
      { type: 'private', to: [], topic: '', content: 'nobody yet' },
      { type: '', to: [a.userId], topic: 'x', content: 'unaddressed' },
    ];
    const ids = (await user.post('/drafts', { drafts })).body.ids as number[];
    assert.equal(ids.length, drafts.length);
    const seen = (await user.get('/drafts')).body.drafts.map((d: Record<string, unknown>) => [d.type, d.to, d.topic]);
    assert.deepEqual(seen, [
      ['private', [a.userId], ''],
      ['private', [user.userId], ''],
      ['private', [a.userId, b.userId].sort((x, y) => x - y), ''],
      ['', [], ''],
      ['', [], ''],
    ]);
  });

  test('are cleaned as Zulip cleans messages: trimmed, long topics and contents cut', async () => {
    const user = await server.createUser();
    const draft = { type: 'stream', to: [channelId], topic: 't'.repeat(70), content: `  ${'x'.repeat(10_010)}  ` };
    const [id] = (await user.post('/drafts', { drafts: [draft] })).body.ids;
    const [stored] = (await user.get('/drafts')).body.drafts;
    assert.equal(stored.id, id);
    assert.equal(stored.topic, `${'t'.repeat(57)}...`);
    assert.equal(stored.content.length, 10_000);
    assert.ok(stored.content.endsWith('\n[message truncated]'));
  });

  test('refuse what Zulip refuses, in its words', async () => {
    const user = await server.createUser();
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    const hidden = (await createChannel(server.owner, { invite_only: true })).id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...streamDraft(), id: 5 }, 'Argument "id" at drafts[0] is unexpected'],
      [{ ...streamDraft(), type: 'channel' }, 'Invalid drafts[0]["type"]'],
      [{ ...streamDraft(), to: [channelId, hidden] }, 'Must specify exactly 1 channel ID for channel messages'],
      [{ ...streamDraft(), to: [hidden] }, 'Invalid channel ID'],
      [{ ...streamDraft(), to: [999_999] }, 'Invalid channel ID'],
      [{ ...streamDraft(), topic: 'a\0b' }, 'Topic must not contain null bytes'],
      [streamDraft('a\0b'), 'Message must not contain null bytes'],
      [streamDraft('  \n '), 'drafts[0]["content"] cannot be blank'],
      [{ ...streamDraft(), timestamp: -1 }, 'Timestamp must not be negative.'],
      [{ type: 'private', to: [999_999], topic: '', content: 'hi' }, 'Invalid user ID 999999'],
      [{ type: 'private', to: [gone.userId], topic: '', content: 'hi' }, `'${gone.credentials.email}' is no longer using Zulip.`],
    ];
    for (const [draft, msg] of cases) {
      const response = await user.post('/drafts', { drafts: [draft] });
      assert.equal(response.status, 400, msg);
      assert.deepEqual([response.body.code, response.body.msg], ['BAD_REQUEST', msg]);
    }
    assert.equal((await user.post('/drafts', {})).body.msg, "Missing 'drafts' argument");
    assert.equal((await user.get('/drafts')).body.count, 0, 'nothing of a refused batch is stored');
  });

  test('of someone else, or that never were, do not exist', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const [id] = (await other.post('/drafts', { drafts: [streamDraft()] })).body.ids;
    for (const response of [
      await user.patch(`/drafts/${id}`, { draft: streamDraft() }),
      await user.delete(`/drafts/${id}`),
      await user.delete('/drafts/999999'),
    ]) {
      assert.equal(response.status, 404);
      assert.deepEqual([response.body.code, response.body.msg], ['BAD_REQUEST', 'Draft does not exist']);
    }
    assert.equal((await user.patch(`/drafts/${id}`, { draft: { ...streamDraft(), id } })).body.msg, 'Argument "id" at draft is unexpected');
    assert.equal((await other.get('/drafts')).body.count, 1);
  });

  test('are forgotten, without remove events, when the user stops synchronizing them', async () => {
    const user = await server.createUser();
    await user.post('/drafts', { drafts: [streamDraft()] });
    const events = await listen(user, { event_types: ['drafts'] });
    assert.equal((await user.patch('/settings', { enable_drafts_synchronization: false })).status, 200);
    assert.deepEqual(await events(), []);
    for (const response of [await user.get('/drafts'), await user.post('/drafts', { drafts: [streamDraft()] }), await user.delete('/drafts/1')]) {
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, 'User has disabled synchronizing drafts.');
    }
    assert.deepEqual((await user.post('/register', { fetch_event_types: ['drafts'] })).body.drafts, []);
    await user.patch('/settings', { enable_drafts_synchronization: true });
    assert.equal((await user.get('/drafts')).body.count, 0);
  });

  test('survive a restart', async () => {
    const user = await server.createUser();
    const [id] = (await user.post('/drafts', { drafts: [streamDraft('kept')] })).body.ids;
    await server.restart();
    const [draft] = (await server.anonymous.as(user.credentials).get('/drafts')).body.drafts;
    assert.deepEqual([draft.id, draft.content], [id, 'kept']);
  });
});
