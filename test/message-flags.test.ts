import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function flagsOf(client: Client, id: number): Promise<string[]> {
  const response = await client.get(`/messages/${id}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.message.flags;
}

/** A channel with the owner and a reader in it, and one message from the owner. */
async function setting() {
  const reader = await server.createUser();
  const channel = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
  const id = await send(server.owner, { type: 'stream', to: channel.name, topic: 'flags', content: 'read me' });
  return { reader, channel, id };
}

describe('POST /messages/flags', () => {
  test('adds and removes user-changeable flags, telling the user’s clients', async () => {
    const { reader, id } = await setting();
    const read = await listen(reader, { event_types: ['update_message_flags'] });
    const starred = await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
    assert.deepEqual(starred.body.messages, [id]);
    assert.equal('ignored_because_not_subscribed_channels' in starred.body, false);
    assert.deepEqual(await flagsOf(reader, id), ['starred']);
    await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'starred' });
    assert.deepEqual(await flagsOf(reader, id), ['read']);
    const events = await read();
    assert.deepEqual(
      events.map((e) => [e.op, e.flag, e.messages, e.all]),
      [
        ['add', 'starred', [id], false],
        ['add', 'read', [id], false],
        ['remove', 'starred', [id], false],
      ],
    );
  });

  test('marking unread describes the message so clients can count it again', async () => {
    const { reader, channel, id } = await setting();
    await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    const read = await listen(reader, { event_types: ['update_message_flags'] });
    const response = await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'read' });
    assert.deepEqual(response.body.ignored_because_not_subscribed_channels, []);
    const [event] = await read();
    assert.deepEqual(event.message_details, {
      [String(id)]: { type: 'stream', stream_id: channel.id, topic: 'flags', unmuted_stream_msg: true },
    });
  });

  test('marking unread skips channels the user left and names them', async () => {
    const { reader, channel, id } = await setting();
    await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    await reader.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([channel.name]) });
    const response = await reader.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'read' });
    assert.deepEqual(response.body.ignored_because_not_subscribed_channels, [channel.id]);
    assert.deepEqual(response.body.messages, [], 'a skipped message was not modified, so it is not listed');
  });

  test('starring a message from a channel’s history gives the user a historical copy', async () => {
    const { channel, id } = await setting();
    const newcomer = await server.createUser();
    assert.deepEqual(await flagsOf(newcomer, id), ['read', 'historical']);
    await newcomer.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
    assert.deepEqual(await flagsOf(newcomer, id), ['read', 'starred', 'historical']);
    const starred = await newcomer.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([['is', 'starred']]),
    });
    assert.deepEqual(starred.body.messages.map((m: { id: number }) => m.id), [id]);
    void channel;
  });

  test('refuses flags users cannot change, unknown flags and messages out of reach', async () => {
    const { reader, id } = await setting();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ op: 'add', flag: 'mentioned' }, "Flag not editable: 'mentioned'"],
      [{ op: 'add', flag: 'historical' }, "Flag not editable: 'historical'"],
      [{ op: 'add', flag: 'wildcard_mentioned' }, "Invalid flag: 'wildcard_mentioned'"],
      [{ op: 'add', flag: 'is_private' }, "Invalid flag: 'is_private'"],
      [{ op: 'toggle', flag: 'starred' }, "Invalid message flag operation: 'toggle'"],
    ];
    for (const [params, msg] of cases) {
      const response = await reader.post('/messages/flags', { messages: JSON.stringify([id]), ...params });
      assert.equal(response.body.msg, msg);
    }
    const secret = await createChannel(server.owner, { invite_only: true });
    const hidden = await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: 'x' });
    const response = await reader.post('/messages/flags', { messages: JSON.stringify([id, hidden]), op: 'add', flag: 'starred' });
    assert.equal(response.body.msg, 'Invalid message(s)');
    assert.deepEqual(await flagsOf(reader, id), [], 'nothing changed');
  });
});

describe('marking many messages read', () => {
  test('POST /messages/flags/narrow reports what it processed', async () => {
    const { reader, channel, id } = await setting();
    const second = await send(server.owner, { type: 'stream', to: channel.name, topic: 'flags', content: 'two' });
    const response = await reader.post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 100,
      narrow: JSON.stringify([['channel', channel.name], ['topic', 'flags']]),
      op: 'add',
      flag: 'read',
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.processed_count, 2);
    assert.equal(response.body.updated_count, 2);
    assert.equal(response.body.first_processed_id, id);
    assert.equal(response.body.last_processed_id, second);
    assert.equal(response.body.found_newest, true);
    assert.deepEqual(await flagsOf(reader, second), ['read']);
  });

  test('mark_topic_as_read, mark_stream_as_read and mark_all_as_read', async () => {
    const { reader, channel, id } = await setting();
    const other = await send(server.owner, { type: 'stream', to: channel.name, topic: 'elsewhere', content: 'x' });
    const missing = await reader.post('/mark_topic_as_read', { stream_id: channel.id, topic_name: 'nope' });
    assert.equal(missing.body.msg, "No such topic 'nope'");
    await reader.post('/mark_topic_as_read', { stream_id: channel.id, topic_name: 'FLAGS' });
    assert.deepEqual(await flagsOf(reader, id), ['read']);
    assert.deepEqual(await flagsOf(reader, other), []);
    await reader.post('/mark_stream_as_read', { stream_id: channel.id });
    assert.deepEqual(await flagsOf(reader, other), ['read']);
    const dm = await send(server.owner, { type: 'direct', to: JSON.stringify([reader.userId]), content: 'psst' });
    const read = await listen(reader, { event_types: ['update_message_flags'] });
    const all = await reader.post('/mark_all_as_read');
    assert.equal(all.body.complete, true);
    assert.deepEqual(await flagsOf(reader, dm), ['read']);
    const [event] = await read();
    assert.equal(event.all, true);
  });
});

describe('register state for messages', () => {
  test('unread_msgs, starred_messages, recent_private_conversations and max_message_id', async () => {
    const reader = await server.createUser();
    const friend = await server.createUser();
    const channel = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    await reader.post('/mark_all_as_read'); // the channel's creation notice
    const inChannel = await send(server.owner, {
      type: 'stream',
      to: channel.name,
      topic: 'Unread',
      content: `hi @**${reader.credentials.email}**`,
    });
    const direct = await send(server.owner, { type: 'direct', to: JSON.stringify([reader.userId]), content: 'one' });
    const group = await send(server.owner, { type: 'direct', to: JSON.stringify([reader.userId, friend.userId]), content: 'all' });
    await reader.post('/messages/flags', { messages: JSON.stringify([direct]), op: 'add', flag: 'starred' });
    const state = (await reader.post('/register', {})).body;
    assert.equal(state.max_message_id, group);
    assert.deepEqual(state.starred_messages, [direct]);
    const unread = state.unread_msgs;
    assert.equal(unread.count, 3);
    assert.deepEqual(unread.streams, [{ stream_id: channel.id, topic: 'Unread', unread_message_ids: [inChannel] }]);
    assert.deepEqual(unread.pms, [{ other_user_id: server.ownerId, sender_id: server.ownerId, unread_message_ids: [direct] }]);
    assert.deepEqual(unread.huddles, [
      {
        user_ids_string: [server.ownerId, reader.userId, friend.userId].sort((a, b) => a - b).join(','),
        unread_message_ids: [group],
      },
    ]);
    assert.equal(unread.old_unreads_missing, false);
    // The oldest is Welcome Bot's greeting, which every new person gets.
    const welcomeBot = server.stoa.users.byAnyEmail('welcome-bot@stoa.local')!.id;
    const welcome = state.recent_private_conversations.at(-1);
    assert.deepEqual(welcome.user_ids, [welcomeBot]);
    assert.deepEqual(state.recent_private_conversations, [
      { max_message_id: group, user_ids: [server.ownerId, friend.userId].sort((a, b) => a - b) },
      { max_message_id: direct, user_ids: [server.ownerId] },
      { max_message_id: welcome.max_message_id, user_ids: [welcomeBot] },
    ]);
  });
});
