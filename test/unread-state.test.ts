// `unread_msgs` of POST /register is built from the reader's unread rows grouped by
// conversation in one statement (lib/messages/state.ts). This file checks it against what the
// reader can see otherwise (their messages with flags, their subscriptions and topic
// settings), after each kind of change that moves it: flags, muting, new messages, deletions,
// moves, leaving a channel.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const INHERIT = 0;

interface Seen {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  display_recipient: string | Array<{ id: number }>;
  flags: string[];
}

/**
 * `unread_msgs` as Zulip's rules make it from what the reader sees through other endpoints:
 * unread messages of channels they are in and of direct conversations; a topic muted by its
 * own setting or by its channel's (unless unmuted or followed) keeps its IDs but does not
 * count, and its wildcard mentions are not mentions; personal mentions always are.
 */
async function expectedUnread(reader: Client, readerId: number, emptyTopicName: boolean) {
  const messages = (
    await reader.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 5000, narrow: '[]', allow_empty_topic_name: emptyTopicName })
  ).body.messages as Seen[];
  const registered = (await reader.post('/register', { fetch_event_types: JSON.stringify(['subscription', 'user_topic']) })).body;
  const subscriptions = new Map<number, boolean>(
    registered.subscriptions.map((s: { stream_id: number; is_muted: boolean }) => [s.stream_id, s.is_muted]),
  );
  const policies = new Map<string, number>(
    registered.user_topics.map((t: { stream_id: number; topic_name: string; visibility_policy: number }) => [
      `${t.stream_id}:${t.topic_name.toLowerCase()}`,
      t.visibility_policy,
    ]),
  );
  let count = 0;
  const mentions: number[] = [];
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  for (const m of messages) {
    if (m.flags.includes('read')) continue;
    const personal = m.flags.includes('mentioned');
    const wildcard = m.flags.includes('stream_wildcard_mentioned') || m.flags.includes('topic_wildcard_mentioned');
    if (m.type === 'private') {
      count++;
      if (personal || wildcard) mentions.push(m.id);
      const ids = (m.display_recipient as Array<{ id: number }>).map((u) => u.id).sort((a, b) => a - b);
      if (ids.length <= 2) {
        const other = ids.find((id) => id !== readerId) ?? readerId;
        pms.set(other, [...(pms.get(other) ?? []), m.id]);
      } else {
        huddles.set(ids.join(','), [...(huddles.get(ids.join(',')) ?? []), m.id]);
      }
      continue;
    }
    const channelMuted = subscriptions.get(m.stream_id!);
    if (channelMuted === undefined) continue; // a channel the reader is not in
    const key = `${m.stream_id}:${m.subject.toLowerCase()}`;
    const policy = policies.get(key);
    const muted = policy === MUTED || (channelMuted && policy !== UNMUTED && policy !== FOLLOWED);
    if (!muted) count++;
    if (personal || (wildcard && !muted)) mentions.push(m.id);
    const entry = streams.get(key) ?? { stream_id: m.stream_id!, topic: m.subject, unread_message_ids: [] };
    entry.unread_message_ids.push(m.id);
    streams.set(key, entry);
  }
  return {
    count,
    pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()],
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: false,
  };
}

/** Lists in a fixed order, so that sets of conversations compare whatever order they come in. */
function normalized(unread: Record<string, unknown>) {
  const sorted = (list: unknown) => [...(list as unknown[])].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { ...unread, pms: sorted(unread.pms), streams: sorted(unread.streams), huddles: sorted(unread.huddles) };
}

async function assertUnreadState(reader: Client, readerId: number, step: string): Promise<void> {
  for (const emptyTopicName of [false, true]) {
    const registered = await reader.post('/register', {
      fetch_event_types: JSON.stringify(['message', 'update_message_flags']),
      client_capabilities: JSON.stringify({ empty_topic_name: emptyTopicName }),
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const actual = registered.body.unread_msgs;
    // The order the server writes: direct conversations by the other person, channel topics
    // by channel and topic, groups by their members.
    assert.deepEqual(
      actual.pms.map((p: { other_user_id: number }) => p.other_user_id),
      [...actual.pms.map((p: { other_user_id: number }) => p.other_user_id)].sort((a: number, b: number) => a - b),
      `${step}: direct conversations in order`,
    );
    assert.deepEqual(actual.mentions, [...actual.mentions].sort((a: number, b: number) => a - b), `${step}: mentions in order`);
    const expected = await expectedUnread(reader, readerId, emptyTopicName);
    assert.deepEqual(normalized(actual), normalized(expected), `${step} (empty_topic_name ${emptyTopicName})`);
  }
}

test('unread_msgs follows flags, muting, new messages, deletions, moves and leaving a channel', async () => {
  const reader = await server.createUser('Unread Reader');
  const friend = await server.createUser('Unread Friend');
  const other = await server.createUser('Unread Other');
  const owner = server.owner;
  const everyone = [server.ownerId, reader.userId, friend.userId, other.userId];
  const loud = await createChannel(owner, { principals: everyone });
  const quiet = await createChannel(owner, { principals: everyone });
  const left = await createChannel(owner, { principals: everyone });
  await reader.post('/mark_all_as_read'); // the channels' creation notices
  const check = (step: string) => assertUnreadState(reader, reader.userId, step);
  const inChannel = (channel: { id: number }, topic: string, content: string, from: Client = owner) =>
    send(from, { type: 'stream', to: channel.id, topic, content });
  const flags = (op: 'add' | 'remove', flag: string, ids: number[]) =>
    reader.post('/messages/flags', { messages: JSON.stringify(ids), op, flag });
  const topicPolicy = (channel: { id: number }, topic: string, policy: number) =>
    reader.post('/user_topics', { stream_id: channel.id, topic, visibility_policy: policy });

  // Topics that differ only in case are one conversation, named as its oldest unread message.
  const first = await inChannel(loud, 'Lunch', 'where?');
  await inChannel(loud, 'LUNCH', `@**${reader.credentials.email}** you?`);
  await inChannel(loud, 'lunch', '@**all** now', friend);
  await inChannel(loud, 'plans', '@**topic** plans');
  await inChannel(loud, '', 'no topic at all');
  await inChannel(quiet, 'still', '@**all** hello');
  await inChannel(quiet, 'still', `@**${reader.credentials.email}** hi`);
  await inChannel(quiet, 'wanted', '@**all** wanted');
  await inChannel(left, 'gone', `@**${reader.credentials.email}** soon gone`);
  await send(owner, { type: 'direct', to: JSON.stringify([reader.userId]), content: 'one to one' });
  await send(friend, { type: 'direct', to: JSON.stringify([reader.userId]), content: '@**all** friend' });
  await send(owner, { type: 'direct', to: JSON.stringify([reader.userId, friend.userId]), content: 'three of us' });
  await send(reader, { type: 'direct', to: JSON.stringify([reader.userId]), content: 'a note' });
  await flags('remove', 'read', [(await reader.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[]' })).body.messages[0].id]);
  await check('messages of every kind');

  await flags('add', 'read', [first]);
  await check('the oldest of a topic read: the topic is named by the next');
  await flags('remove', 'read', [first]);
  await check('marked unread again');

  await topicPolicy(loud, 'LUNCH', MUTED);
  await check('a topic muted');
  await reader.post('/users/me/subscriptions/properties', {
    subscription_data: JSON.stringify([{ stream_id: quiet.id, property: 'is_muted', value: true }]),
  });
  await check('a channel muted');
  await topicPolicy(quiet, 'wanted', UNMUTED);
  await topicPolicy(loud, 'plans', FOLLOWED);
  await check('a topic unmuted in the muted channel, another followed');
  await topicPolicy(loud, 'lunch', INHERIT);
  await topicPolicy(quiet, 'still', FOLLOWED);
  await check('settings changed back and forth');

  const later = await inChannel(quiet, 'Wanted', '@**all** later', friend);
  await send(other, { type: 'direct', to: JSON.stringify([reader.userId, friend.userId]), content: 'another three' });
  await send(other, { type: 'direct', to: JSON.stringify([reader.userId, friend.userId, server.ownerId]), content: 'all four' });
  await check('new messages');

  assert.equal((await owner.delete(`/messages/${later}`)).status, 200);
  await check('a message deleted');

  const moved = await owner.patch(`/messages/${first}`, { topic: 'Moved lunch', propagate_mode: 'change_all' });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  await check('a topic moved');
  const across = await owner.patch(`/messages/${first}`, { stream_id: quiet.id, propagate_mode: 'change_one' });
  assert.equal(across.status, 200, JSON.stringify(across.body));
  await check('a message moved to another channel');

  await reader.post('/users/me/subscriptions/properties', {
    subscription_data: JSON.stringify([{ stream_id: quiet.id, property: 'is_muted', value: false }]),
  });
  assert.equal((await reader.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([left.name]) })).status, 200);
  await check('a channel unmuted, another left');

  await reader.post('/mark_all_as_read');
  await check('everything read');
});
