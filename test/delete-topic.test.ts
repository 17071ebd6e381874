import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Clock } from '../lib/clock';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { TestServer } from './support/server';

/**
 * A clock that can be told to jump forward once, right after it is next read: a request that
 * starts by reading the time then finds its time limit passed at its next reading.
 */
class JumpingClock implements Clock {
  private ms = Date.UTC(2026, 0, 1);
  private jump = 0;
  now(): number {
    const read = this.ms;
    this.ms += this.jump;
    this.jump = 0;
    return read;
  }
  jumpAfterNextRead(ms: number): void {
    this.jump = ms;
  }
  /**
   * Nothing this file does waits for a time (no scheduled messages, no message retention); the
   * server's daily retention look is armed at start and simply never runs here.
   */
  at(): () => void {
    return () => {};
  }
}

const clock = new JumpingClock();
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

async function sendMany(client: Client, channelId: number, topic: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 25) {
    const chunk = Array.from({ length: Math.min(25, count - i) }, (_, j) =>
      sendMessage(client, { type: 'stream', to: channelId, topic, content: `message ${i + j}` }),
    );
    ids.push(...(await Promise.all(chunk)));
  }
  return ids.sort((a, b) => a - b);
}

async function idsInTopic(client: Client, channelId: number, topic: string): Promise<number[]> {
  const narrow = [{ operator: 'channel', operand: channelId }, { operator: 'topic', operand: topic }];
  const response = await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return (response.body.messages as Array<{ id: number }>).map((m) => m.id);
}

describe('POST /streams/{stream_id}/delete_topic', () => {
  test('an administrator deletes a topic: its messages, their uploads and people’s settings for it go, other topics stay', async () => {
    const member = await server.createUser();
    const { id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const upload = await member.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'notes', type: 'text/plain' }]);
    const ids = [
      await sendMessage(member, { type: 'stream', to: channelId, topic: 'Lunch', content: `[notes](${upload.body.url})` }),
      await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'lunch', content: 'same topic, other case' }),
      await sendMessage(member, { type: 'stream', to: channelId, topic: 'Lunch', content: 'the newest' }),
    ];
    const kept = await sendMessage(member, { type: 'stream', to: channelId, topic: 'dinner', content: 'stays' });
    assert.equal((await member.post('/user_topics', { stream_id: channelId, topic: 'Lunch', visibility_policy: 3 })).status, 200);

    const bulk = await listen(server.owner, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const legacy = await listen(member, { event_types: ['delete_message', 'attachment', 'user_topic'] });

    const response = await server.owner.post(`/streams/${channelId}/delete_topic`, { topic_name: 'LUNCH' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body, { result: 'success', msg: '', complete: true });

    const place = { message_type: 'stream', stream_id: channelId, topic: 'Lunch' };
    assert.deepEqual(await bulk(), [{ type: 'delete_message', message_ids: ids, ...place }]);
    const memberEvents = await legacy();
    assert.deepEqual(
      memberEvents.filter((e) => e.type === 'delete_message'),
      ids.map((id) => ({ type: 'delete_message', message_id: id, ...place })),
    );
    assert.deepEqual(memberEvents.filter((e) => e.type === 'attachment').map((e) => e.op), ['remove']);
    assert.deepEqual(
      memberEvents.filter((e) => e.type === 'user_topic').map((e) => [e.topic_name, e.visibility_policy]),
      [['Lunch', 0]],
    );
    assert.deepEqual(await idsInTopic(server.owner, channelId, 'lunch'), []);
    assert.deepEqual(await idsInTopic(member, channelId, 'dinner'), [kept]);
    assert.deepEqual((await member.get('/attachments')).body.attachments, []);
    const registered = await member.post('/register', { fetch_event_types: ['user_topic'] });
    assert.deepEqual(registered.body.user_topics, []);
  });

  test('a large topic goes in batches of 100; a request that runs out of time answers complete: false and the next one finishes', async () => {
    const { id: channelId } = await createChannel(server.owner);
    const ids = await sendMany(server.owner, channelId, 'flood', 230);
    const bulk = await listen(server.owner, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });

    clock.jumpAfterNextRead(60_000);
    const first = await server.owner.post(`/streams/${channelId}/delete_topic`, { topic_name: 'flood' });
    assert.deepEqual(first.body, { result: 'success', msg: '', complete: false });
    // The newest messages go first, so what is left is still the topic's beginning.
    assert.deepEqual(await idsInTopic(server.owner, channelId, 'flood'), ids.slice(0, 130));

    const second = await server.owner.post(`/streams/${channelId}/delete_topic`, { topic_name: 'flood' });
    assert.deepEqual(second.body, { result: 'success', msg: '', complete: true });
    assert.deepEqual(await idsInTopic(server.owner, channelId, 'flood'), []);
    const batches = (await bulk()).map((event) => event.message_ids as number[]);
    assert.deepEqual(batches, [ids.slice(130), ids.slice(30, 130), ids.slice(0, 30)]);
  });

  test('"general chat" names the empty topic', async () => {
    const { id: channelId } = await createChannel(server.owner);
    await sendMessage(server.owner, { type: 'stream', to: channelId, topic: '', content: 'no topic' });
    const response = await server.owner.post(`/streams/${channelId}/delete_topic`, { topic_name: 'general chat' });
    assert.equal(response.body.complete, true);
    assert.deepEqual(await idsInTopic(server.owner, channelId, ''), []);
  });

  test('in a channel with protected history an administrator deletes only what they can read', async () => {
    const member = await server.createUser();
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const { name, id: channelId } = await createChannel(member, { invite_only: true, history_public_to_subscribers: false });
    const before = await sendMessage(member, { type: 'stream', to: channelId, topic: 'secrets', content: 'before the admin joined' });
    assert.equal((await member.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [admin.userId] })).status, 200);
    const after = await sendMessage(member, { type: 'stream', to: channelId, topic: 'secrets', content: 'after' });
    assert.equal((await member.post('/user_topics', { stream_id: channelId, topic: 'secrets', visibility_policy: 1 })).status, 200);

    const response = await admin.post(`/streams/${channelId}/delete_topic`, { topic_name: 'secrets' });
    assert.equal(response.body.complete, true);
    assert.deepEqual(await idsInTopic(member, channelId, 'secrets'), [before]);
    assert.notEqual(before, after);
    // The member can still read a message of the topic, so keeps their setting for it.
    const registered = await member.post('/register', { fetch_event_types: ['user_topic'] });
    assert.deepEqual((registered.body.user_topics as Array<{ topic_name: string }>).map((t) => t.topic_name), ['secrets']);
  });

  test('only administrators may, and only in channels whose content they can read', async () => {
    const member = await server.createUser();
    const { id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const id = await sendMessage(member, { type: 'stream', to: channelId, topic: 'mine', content: 'x' });
    const refused = await member.post(`/streams/${channelId}/delete_topic`, { topic_name: 'mine' });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    assert.deepEqual(await idsInTopic(member, channelId, 'mine'), [id]);

    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const { id: privateId } = await createChannel(member, { invite_only: true });
    for (const streamId of [privateId, 999999]) {
      const response = await admin.post(`/streams/${streamId}/delete_topic`, { topic_name: 'mine' });
      assert.deepEqual(response.body, { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    }
    const missing = await server.owner.post(`/streams/${channelId}/delete_topic`, {});
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  });
});
