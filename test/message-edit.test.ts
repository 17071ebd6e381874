import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage as send } from './support/messages';
import { ManualClock, TestServer } from './support/server';

const clock = new ManualClock();
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

async function message(client: Client, id: number, params: Record<string, unknown> = {}) {
  const response = await client.get(`/messages/${id}`, params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.message as Record<string, any>;
}

async function topicMessages(client: Client, channel: string, topic: string) {
  const response = await client.get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 100,
    narrow: JSON.stringify([['channel', channel], ['topic', topic]]),
    apply_markdown: false,
  });
  return response.body.messages as Array<Record<string, any>>;
}

describe('editing content', () => {
  test('the sender edits; readers get update_message and the history keeps the old text', async () => {
    const reader = await server.createUser();
    const { name, id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'drafts', content: 'frist' });
    const read = await listen(reader, { event_types: ['update_message'] });
    const response = await server.owner.patch(`/messages/${id}`, { content: 'first' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.detached_uploads, []);
    const [event] = await read();
    assert.equal(event.message_id, id);
    assert.deepEqual(event.message_ids, [id]);
    assert.equal(event.user_id, server.ownerId);
    assert.equal(event.stream_id, channelId);
    assert.equal(event.orig_content, 'frist');
    assert.equal(event.content, 'first');
    assert.equal(event.rendered_content, '<p>first</p>');
    assert.deepEqual(event.flags, []);
    const edited = await message(reader, id);
    assert.equal(edited.content, '<p>first</p>');
    assert.equal(edited.last_edit_timestamp, event.edit_timestamp);
    assert.equal('last_moved_timestamp' in edited, false);
    assert.equal(edited.edit_history[0].prev_content, 'frist');
    const history = (await reader.get(`/messages/${id}/history`)).body.message_history;
    assert.deepEqual(
      history.map((v: Record<string, unknown>) => v.content),
      ['frist', 'first'],
    );
  });

  test('only the sender may edit content, and only in time', async () => {
    const author = await server.createUser();
    const { name } = await createChannel(server.owner);
    const id = await send(author, { type: 'stream', to: name, topic: 't', content: 'mine' });
    const others = await server.owner.patch(`/messages/${id}`, { content: 'not yours' });
    assert.equal(others.body.msg, "You don't have permission to edit this message");
    clock.advance(621_000);
    const late = await author.patch(`/messages/${id}`, { content: 'too late' });
    assert.equal(late.body.msg, 'The time limit for editing this message has passed');
  });

  test('editing in a mention flags the mentioned reader', async () => {
    const reader = await server.createUser('Edited In');
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'hello' });
    await server.owner.patch(`/messages/${id}`, { content: 'hello @**Edited In**' });
    assert.deepEqual((await message(reader, id)).flags, ['mentioned']);
  });

  test('refuses meaningless and contradictory edits in Zulip’s words', async () => {
    const { name, id: channelId } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'x' });
    const dm = await send(server.owner, { type: 'direct', to: JSON.stringify([server.ownerId]), content: 'note' });
    const other = await createChannel(server.owner);
    const cases: Array<[number, Record<string, unknown>, string]> = [
      [id, {}, 'Nothing to change'],
      [id, { topic: 't' }, 'Nothing to change'],
      [id, { content: 'y', propagate_mode: 'change_all' }, 'Invalid propagate_mode without topic edit'],
      [id, { content: 'y', stream_id: other.id }, 'Cannot change message content while changing channel'],
      [id, { topic: '✔' }, 'General chat cannot be marked as resolved'],
      [dm, { topic: 'x' }, 'Direct messages cannot have topics.'],
      [dm, { stream_id: channelId }, 'Direct messages cannot be moved to channels.'],
    ];
    for (const [target, params, msg] of cases) {
      assert.equal((await server.owner.patch(`/messages/${target}`, params)).body.msg, msg, JSON.stringify(params));
    }
  });
});

describe('moving messages', () => {
  test('propagate_mode picks one message, the later ones, or the whole topic', async () => {
    const { name } = await createChannel(server.owner);
    const ids: number[] = [];
    for (const content of ['a', 'b', 'c']) ids.push(await send(server.owner, { type: 'stream', to: name, topic: 'old', content }));
    await server.owner.patch(`/messages/${ids[2]}`, { topic: 'one', send_notification_to_new_thread: false });
    await server.owner.patch(`/messages/${ids[1]}`, { topic: 'later', propagate_mode: 'change_later', send_notification_to_new_thread: false });
    assert.deepEqual((await topicMessages(server.owner, name, 'old')).map((m) => m.id), [ids[0]]);
    assert.deepEqual((await topicMessages(server.owner, name, 'later')).map((m) => m.id), [ids[1]]);
    assert.deepEqual((await topicMessages(server.owner, name, 'one')).map((m) => m.id), [ids[2]]);
    const moved = await message(server.owner, ids[2]);
    assert.equal(typeof moved.last_moved_timestamp, 'number');
    assert.equal('last_edit_timestamp' in moved, false);
    assert.deepEqual(
      Object.keys(moved.edit_history[0]).sort(),
      ['prev_topic', 'timestamp', 'topic', 'user_id'],
    );
  });

  test('the notification bot tells the new topic where messages came from', async () => {
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'before', content: 'moving' });
    await server.owner.patch(`/messages/${id}`, { topic: 'after', propagate_mode: 'change_all', send_notification_to_old_thread: true });
    const after = await topicMessages(server.owner, name, 'after');
    assert.equal(after.length, 2);
    assert.equal(after[1].sender_email.startsWith('notification-bot@'), true);
    assert.equal(after[1].content, `This topic was moved here from #**${name}>before** by @_**Owner|${server.ownerId}**.`);
    const before = await topicMessages(server.owner, name, 'before');
    assert.equal(before[0].content, `This topic was moved to #**${name}>after** by @_**Owner|${server.ownerId}**.`);
  });

  test('resolving a topic adds the prefix and a notice, and is not a move', async () => {
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'bug', content: 'broken' });
    await server.owner.patch(`/messages/${id}`, { topic: '✔ bug', propagate_mode: 'change_all' });
    const resolved = await topicMessages(server.owner, name, '✔ bug');
    assert.equal(resolved.length, 2);
    assert.equal(resolved[1].content, `@_**Owner|${server.ownerId}** has marked this topic as resolved.`);
    assert.equal('last_moved_timestamp' in resolved[0], false);
    const found = await server.owner.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([['channel', name], ['is', 'resolved']]),
    });
    assert.equal(found.body.messages.length, 2);
  });

  test('the resolve notice arrives read or unread by each reader\'s resolved_topic_notice_auto_read_policy (level 385)', async () => {
    const [always, exceptFollowed, follower, never] = await Promise.all([1, 2, 3, 4].map(() => server.createUser()));
    const readers = [always, exceptFollowed, follower, never];
    const { name, id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, ...readers.map((r) => r.userId)] });
    await always.patch('/settings', { resolved_topic_notice_auto_read_policy: 'always' });
    await never.patch('/settings', { resolved_topic_notice_auto_read_policy: 'never' });
    // The default is except_followed: unread only in a topic one follows.
    const id = await send(always, { type: 'stream', to: name, topic: 'leak', content: 'the roof leaks' });
    await follower.post('/user_topics', { stream_id: channelId, topic: 'leak', visibility_policy: 3 });
    await server.owner.patch(`/messages/${id}`, { topic: '✔ leak', propagate_mode: 'change_all' });
    const unread = async (reader: Client) => {
      const [notice] = (await topicMessages(reader, name, '✔ leak')).slice(-1);
      assert.match(notice.content, /has marked this topic as resolved/);
      return !notice.flags.includes('read');
    };
    assert.deepEqual(await Promise.all(readers.map(unread)), [false, false, true, true]);
  });

  test('moving to another channel takes the topic along and tells readers', async () => {
    const reader = await server.createUser();
    const from = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const to = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const id = await send(server.owner, { type: 'stream', to: from.name, topic: 'trip', content: 'go' });
    const read = await listen(reader, { event_types: ['update_message'] });
    const response = await server.owner.patch(`/messages/${id}`, {
      stream_id: to.id,
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const [event] = await read();
    assert.equal(event.new_stream_id, to.id);
    assert.equal(event.orig_subject, 'trip');
    assert.equal((await message(reader, id)).stream_id, to.id);
    assert.deepEqual(Object.keys((await message(reader, id)).edit_history[0]).sort(), ['prev_stream', 'stream', 'timestamp', 'user_id']);
  });

  test('a channel’s first message follows messages moved out of it and into it', async () => {
    const from = await createChannel(server.owner);
    const to = await createChannel(server.owner);
    const channel = async (id: number) => (await server.owner.get(`/streams/${id}`)).body.stream;
    // Both channels open with the notification bot's creation notice; move the origin's away.
    const notice = (await channel(from.id)).first_message_id as number;
    const later = await send(server.owner, { type: 'stream', to: from.name, topic: 'later', content: 'stays' });
    const watcher = await listen(server.owner, { event_types: ['stream'] });
    const moved = await server.owner.patch(`/messages/${notice}`, { stream_id: to.id, send_notification_to_new_thread: false });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await channel(from.id)).first_message_id, later);
    assert.equal((await channel(to.id)).first_message_id, notice, 'the older message now opens the other channel');
    const updates = (await watcher()).filter((e) => e.property === 'first_message_id');
    assert.deepEqual(updates.map((e) => [e.stream_id, e.value]), [
      [from.id, later],
      [to.id, notice],
    ]);
  });

  test('guests may rename topics but not move messages to another channel', async () => {
    const guest = await server.createUser();
    assert.equal((await server.owner.patch(`/users/${guest.userId}`, { role: 600 })).status, 200);
    const from = await createChannel(server.owner, { principals: [server.ownerId, guest.userId] });
    const to = await createChannel(server.owner, { principals: [server.ownerId, guest.userId] });
    const id = await send(guest, { type: 'stream', to: from.name, topic: 't', content: 'x' });
    const renamed = await guest.patch(`/messages/${id}`, { topic: 'renamed', send_notification_to_new_thread: false });
    assert.equal(renamed.status, 200, 'the organization lets everyone move topics by default');
    const moved = await guest.patch(`/messages/${id}`, { stream_id: to.id });
    assert.equal(moved.body.msg, "You don't have permission to move this message");
    assert.equal((await message(guest, id)).stream_id, from.id);
  });
});
