import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { TestServer } from './support/server';

let server: TestServer;
let channelId: number;
const CHANNEL = 'topics channel';
before(async () => {
  server = await TestServer.start();
  await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }] });
  channelId = (await server.owner.get('/get_stream_id', { stream: CHANNEL })).body.stream_id;
});
after(() => server.close());

describe('POST /user_topics', () => {
  test('sets a policy, telling clients with both the old list and the new event', async () => {
    const user = await server.createUser();
    const old = await listen(user, { event_types: ['muted_topics'] });
    const modern = await listen(user, { event_types: ['muted_topics', 'user_topic'] });
    assert.equal((await user.post('/user_topics', { stream_id: channelId, topic: 'Lunch', visibility_policy: 1 })).status, 200);
    const [mutedList] = await old();
    assert.equal(mutedList.type, 'muted_topics');
    assert.deepEqual(mutedList.muted_topics.map((m: unknown[]) => m.slice(0, 2)), [[CHANNEL, 'Lunch']]);
    const seen = await modern();
    assert.deepEqual(seen.map((e) => e.type), ['user_topic'], 'a user_topic client gets no muted_topics list');
    assert.equal(seen[0].visibility_policy, 1);
    assert.equal(seen[0].topic_name, 'Lunch');

    const state = (await user.post('/register', { fetch_event_types: ['user_topic', 'muted_topics'] })).body;
    assert.deepEqual(state.user_topics.map((t: { topic_name: string; visibility_policy: number }) => [t.topic_name, t.visibility_policy]), [['Lunch', 1]]);
    assert.deepEqual(state.muted_topics.map((m: unknown[]) => m.slice(0, 2)), [[CHANNEL, 'Lunch']]);
  });

  test('matches topics without regard to case, sends nothing when nothing changes, and clears with 0', async () => {
    const user = await server.createUser();
    await user.post('/user_topics', { stream_id: channelId, topic: 'deploys', visibility_policy: 3 });
    const events = await listen(user, { event_types: ['user_topic'] });
    await user.post('/user_topics', { stream_id: channelId, topic: 'DEPLOYS', visibility_policy: 3 });
    assert.deepEqual(await events(), []);
    await user.post('/user_topics', { stream_id: channelId, topic: 'Deploys', visibility_policy: 0 });
    const [cleared] = await events();
    assert.equal(cleared.visibility_policy, 0);
    assert.equal(cleared.topic_name, 'deploys', 'the topic keeps the spelling it was stored with');
    const state = (await user.post('/register', { fetch_event_types: ['user_topic'] })).body;
    assert.deepEqual(state.user_topics, []);
  });

  test('refuses bad policies, long topics and channels the user cannot read', async () => {
    const user = await server.createUser();
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true });
    const hidden = (await server.owner.get('/get_stream_id', { stream: 'hidden' })).body.stream_id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ stream_id: channelId, topic: 't', visibility_policy: 7 }, 'Invalid visibility_policy'],
      [{ stream_id: channelId, topic: 'x'.repeat(61), visibility_policy: 1 }, 'topic is too long (limit: 60 characters)'],
      [{ stream_id: hidden, topic: 't', visibility_policy: 1 }, 'Invalid channel ID'],
      [{ stream_id: 999999, topic: 't', visibility_policy: 0 }, 'Invalid channel ID'],
    ];
    for (const [params, msg] of cases) {
      const response = await user.post('/user_topics', params);
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
    }
  });
});

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  test('mutes a topic of a channel the user is in, by ID or name, even twice', async () => {
    const user = await server.createUser();
    await user.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }] });
    assert.equal((await user.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, topic: 'noise', op: 'add' })).status, 200);
    assert.equal((await user.patch('/users/me/subscriptions/muted_topics', { stream: CHANNEL, topic: 'noise', op: 'add' })).status, 200);
    const state = (await user.post('/register', { fetch_event_types: ['user_topic'] })).body;
    assert.deepEqual(state.user_topics.map((t: { topic_name: string }) => t.topic_name), ['noise']);
  });

  test('unmutes even a topic that is not muted', async () => {
    const user = await server.createUser();
    const response = await user.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, topic: 'never muted', op: 'remove' });
    assert.equal(response.status, 200);
  });

  test('needs exactly one of stream_id and stream', async () => {
    const user = await server.createUser();
    const both = await user.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, stream: CHANNEL, topic: 't', op: 'add' });
    assert.equal(both.body.msg, 'Unsupported parameter combination: stream_id, stream');
    const neither = await user.patch('/users/me/subscriptions/muted_topics', { topic: 't', op: 'add' });
    assert.equal(neither.body.code, 'REQUEST_VARIABLE_MISSING');
    const badOp = await user.patch('/users/me/subscriptions/muted_topics', { stream_id: channelId, topic: 't', op: 'toggle' });
    assert.equal(badOp.body.msg, 'Invalid op');
  });
});

describe('moving a whole topic', () => {
  async function send(topic: string, channel = CHANNEL): Promise<number> {
    const response = await server.owner.post('/messages', { type: 'stream', to: channel, topic, content: `in ${topic}` });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.id;
  }
  async function policies(user: { post: TestServer['owner']['post'] }) {
    const state = (await user.post('/register', { fetch_event_types: ['user_topic'] })).body;
    return Object.fromEntries(
      state.user_topics.map((t: { stream_id: number; topic_name: string; visibility_policy: number }) => [
        `${t.stream_id}/${t.topic_name}`,
        t.visibility_policy,
      ]),
    );
  }

  test('takes people’s policies to the new topic, telling them', async () => {
    const user = await server.createUser();
    await user.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }] });
    const id = await send('old plans');
    await user.post('/user_topics', { stream_id: channelId, topic: 'old plans', visibility_policy: 1 });
    const events = await listen(user, { event_types: ['user_topic'] });
    const legacy = await listen(user, { event_types: ['muted_topics'] });
    const moved = await server.owner.patch(`/messages/${id}`, { topic: 'new plans', propagate_mode: 'change_all' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(await policies(user), { [`${channelId}/new plans`]: 1 });
    const seen = (await events()).map((e) => [e.topic_name, e.visibility_policy]);
    assert.deepEqual(seen, [['old plans', 0], ['new plans', 1]]);
    const lists = await legacy();
    assert.equal(lists.length, 1, 'older clients get the muted list once');
    assert.deepEqual(lists[0].muted_topics.map((m: unknown[]) => m.slice(0, 2)), [[CHANNEL, 'new plans']]);
  });

  test('into a topic with messages keeps the more visible of each person’s two policies', async () => {
    const [a, b, c] = [await server.createUser(), await server.createUser(), await server.createUser()];
    const id = await send('merge from');
    await send('merge into');
    await a.post('/user_topics', { stream_id: channelId, topic: 'merge from', visibility_policy: 1 });
    await a.post('/user_topics', { stream_id: channelId, topic: 'merge into', visibility_policy: 3 });
    await b.post('/user_topics', { stream_id: channelId, topic: 'merge from', visibility_policy: 1 });
    await c.post('/user_topics', { stream_id: channelId, topic: 'merge from', visibility_policy: 2 });
    await server.owner.patch(`/messages/${id}`, { topic: 'merge into', propagate_mode: 'change_all' });
    assert.deepEqual(await policies(a), { [`${channelId}/merge into`]: 3 });
    assert.deepEqual(await policies(b), {}, 'muted and no policy make no policy');
    assert.deepEqual(await policies(c), { [`${channelId}/merge into`]: 2 });
  });

  test('moves nothing when part of the topic stays behind, and drops it for people who cannot follow', async () => {
    const user = await server.createUser();
    const [first, second] = [await send('split'), await send('split')];
    await user.post('/user_topics', { stream_id: channelId, topic: 'split', visibility_policy: 3 });
    await server.owner.patch(`/messages/${first}`, { topic: 'split off', propagate_mode: 'change_one' });
    assert.deepEqual(await policies(user), { [`${channelId}/split`]: 3 });

    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'private move' }], invite_only: true });
    const hidden = (await server.owner.get('/get_stream_id', { stream: 'private move' })).body.stream_id;
    const moved = await server.owner.patch(`/messages/${second}`, { stream_id: hidden, propagate_mode: 'change_all' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.deepEqual(await policies(user), {}, 'no policy for a topic in a channel they cannot read');
  });
});

describe('the in: narrow (Zulip\'s combined feed)', () => {
  test('in:home leaves out muted topics and muted channels except their unmuted topics; in:all leaves out nothing', async () => {
    const user = await server.createUser();
    await user.post('/users/me/subscriptions', { subscriptions: [{ name: CHANNEL }, { name: 'quiet channel' }] });
    const quietId = (await user.get('/get_stream_id', { stream: 'quiet channel' })).body.stream_id;
    const sent: Record<string, number> = {};
    for (const [channel, topic] of [
      [CHANNEL, 'home plain'],
      [CHANNEL, 'home muted'],
      ['quiet channel', 'home inherits'],
      ['quiet channel', 'home unmuted'],
    ]) {
      const response = await user.post('/messages', { type: 'stream', to: channel, topic, content: topic });
      sent[topic] = response.body.id;
    }
    const dm = (await user.post('/messages', { type: 'private', to: JSON.stringify([server.ownerId]), content: 'a direct message' })).body.id;
    await user.post('/user_topics', { stream_id: channelId, topic: 'home muted', visibility_policy: 1 });
    await user.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: quietId, property: 'is_muted', value: true }] });
    await user.post('/user_topics', { stream_id: quietId, topic: 'home unmuted', visibility_policy: 2 });

    const ids = async (narrow: unknown[]) => {
      const response = await user.get('/messages', { anchor: sent['home plain'], num_before: 0, num_after: 100, narrow: JSON.stringify(narrow) });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body.messages.map((m: { id: number }) => m.id);
    };
    assert.deepEqual(await ids([{ operator: 'in', operand: 'home' }]), [sent['home plain'], sent['home unmuted'], dm]);
    assert.deepEqual(await ids([{ operator: 'in', operand: 'all' }]), [sent['home plain'], sent['home muted'], sent['home inherits'], sent['home unmuted'], dm]);
    assert.deepEqual(await ids([{ operator: 'in', operand: 'home', negated: true }]), [sent['home muted'], sent['home inherits']]);

    const bad = await user.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'in', operand: 'nowhere' }]) });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'BAD_NARROW');
    assert.match(bad.body.msg, /unknown 'in' operand nowhere/);
  });
});
