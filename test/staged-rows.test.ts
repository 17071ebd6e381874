// A new message's rows wait in user_messages_new until a batch moves them into user_messages
// (schema.sql, lib/messages/queries.ts). Whatever a client does with a message whose rows still
// wait must look exactly as it would once they have moved.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

const staged = (server: TestServer, messageId: number) =>
  (server.stoa.db.prepare('SELECT count(*) AS n FROM user_messages_new WHERE message_id = ?').get(messageId) as { n: number }).n;

/** The flags the reader's clients see on a message: in a fetch of their own history, of the channel, and by ID. */
async function flagsSeen(reader: Client, id: number, channel: string) {
  const own = await reader.get('/messages', { anchor: id, num_before: 0, num_after: 0 });
  const inChannel = await reader.get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: channel }]) });
  const single = await reader.get(`/messages/${id}`);
  assert.equal(single.status, 200, JSON.stringify(single.body));
  return {
    own: own.body.messages.map((m: { id: number; flags: string[] }) => [m.id, [...m.flags].sort()]),
    inChannel: inChannel.body.messages.map((m: { id: number; flags: string[] }) => [m.id, [...m.flags].sort()]),
    single: [...single.body.message.flags].sort(),
  };
}

/** A reader with the owner in channel "staged", everything before it read: each test's starting point. */
async function readerOfStagedChannel(server: TestServer) {
  const reader = await server.createUser('Reader');
  const channel = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] }, 'staged');
  await reader.post('/mark_all_as_read');
  return { reader, channel };
}

describe('rows waiting for their batch', () => {
  test('flags set on a just-sent message are seen before and after its rows move, and across a restart', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel } = await readerOfStagedChannel(server);
      const id = await send(server.owner, { type: 'stream', to: channel.id, topic: 't', content: 'fresh' });
      assert.equal(staged(server, id), 2, "the message's rows wait");
      const fresh = await flagsSeen(reader, id, 'staged');
      assert.deepEqual(fresh.own, [[id, []]]);
      assert.deepEqual(fresh.inChannel, [[id, []]]);
      assert.deepEqual(fresh.single, []);

      const flag = (op: string, name: string) => reader.post('/messages/flags', { messages: JSON.stringify([id]), op, flag: name });
      assert.equal((await flag('add', 'starred')).status, 200);
      assert.equal((await flag('add', 'read')).status, 200);
      const flagged = await flagsSeen(reader, id, 'staged');
      assert.deepEqual(flagged.own, [[id, ['read', 'starred']]]);
      assert.deepEqual(flagged.inChannel, flagged.own);
      assert.deepEqual(flagged.single, ['read', 'starred']);
      const starred = await reader.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'starred' }]) });
      assert.deepEqual(starred.body.messages.map((m: { id: number }) => m.id), [id]);
      const registered = await reader.post('/register', { fetch_event_types: JSON.stringify(['message', 'starred_messages', 'update_message_flags']) });
      assert.deepEqual(registered.body.starred_messages, [id]);
      assert.equal(registered.body.unread_msgs.count, 0);
      assert.equal(registered.body.max_message_id, id);
      // The owner's row is a different row: untouched.
      const ownerFlags = await server.owner.get(`/messages/${id}`);
      assert.ok(!ownerFlags.body.message.flags.includes('starred'));

      // Still waiting after a restart, then moved: the same flags.
      await server.restart();
      assert.equal(staged(server, id), 2);
      const again = server.anonymous.as(reader.credentials);
      assert.deepEqual(await flagsSeen(again, id, 'staged'), flagged);
      server.stoa.messages.moveStagedRows();
      assert.equal(staged(server, id), 0);
      assert.deepEqual(await flagsSeen(again, id, 'staged'), flagged);
      await again.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'starred' });
      assert.deepEqual((await flagsSeen(again, id, 'staged')).own, [[id, ['read']]]);
    } finally {
      await server.close();
    }
  });

  test('a message deleted while its rows wait is gone for everyone', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel } = await readerOfStagedChannel(server);
      const kept = await send(server.owner, { type: 'stream', to: channel.id, topic: 't', content: 'kept' });
      const gone = await send(server.owner, { type: 'stream', to: channel.id, topic: 't', content: 'gone' });
      assert.equal(staged(server, gone), 2);
      const deleted = await server.owner.delete(`/messages/${gone}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal(staged(server, gone), 0);
      const newest = await reader.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0 });
      assert.deepEqual(newest.body.messages.map((m: { id: number }) => m.id).filter((i: number) => i >= kept), [kept]);
      assert.equal((await reader.get(`/messages/${gone}`)).status, 400);
      const registered = await reader.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) });
      assert.equal(registered.body.unread_msgs.count, 1);
      server.stoa.messages.moveStagedRows();
      const moved = await reader.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) });
      assert.deepEqual(moved.body.unread_msgs.streams, registered.body.unread_msgs.streams);
    } finally {
      await server.close();
    }
  });

  test('a batch moves a range of people at a time; nothing is lost, doubled or seen differently', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel } = await readerOfStagedChannel(server);
      const db = server.stoa.db;
      // Two people far apart in ID order, so that a batch takes three ranges (128 IDs each) to
      // move everyone. They never use the API: rows of their own are all they need.
      for (const id of [300, 700]) {
        db.prepare(`INSERT INTO users (id, email, delivery_email, full_name, api_key, role, date_joined_ms)
          VALUES (?, ?, ?, ?, ?, 400, 0)`).run(id, `far${id}@example.com`, `far${id}@example.com`, `Far ${id}`, `key${id}`);
      }
      const people = [reader.userId, 300, 700];
      const messages = server.stoa.messages;
      const recipient = server.stoa.channels.byId(channel.id)!.recipient_id;
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      const before = count('SELECT count(*) AS n FROM user_messages_all');
      let written = 0;
      const sendSome = (n: number) =>
        db.transaction(() => {
          for (let i = 0; i < n; i++) {
            const id = messages.insert({
              sender_id: server.ownerId, recipient_id: recipient, stream_id: channel.id, topic: 'bulk', content: 'x',
              rendered_content: '<p>x</p>', date_sent: 1, sending_client: 'test', is_me_message: 0, has_link: 0, has_image: 0, has_attachment: 0,
            });
            for (const person of people) messages.insertUserMessage(person, id, 0);
            written += people.length;
          }
        })();
      const stagedOf = (person: number) => count(`SELECT count(*) AS n FROM user_messages_new WHERE user_id = ${person}`);
      // Up to the batch's 32,000 rows (a few were there before): the first range (the reader's)
      // moves at once; only rows of the last few messages wait again.
      sendSome(10_667);
      assert.ok(stagedOf(reader.userId) < 10, `${stagedOf(reader.userId)} of the reader's rows wait`);
      assert.ok(stagedOf(300) > 10_000 && stagedOf(700) > 10_000, 'the later ranges wait');
      // 500 rows later the next range, 500 more the last; the reader's new rows wait.
      sendSome(167);
      assert.ok(stagedOf(300) < 10);
      assert.ok(stagedOf(700) > 10_000);
      sendSome(167);
      assert.ok(stagedOf(700) < 10);
      assert.ok(stagedOf(reader.userId) >= 334 && stagedOf(reader.userId) < 346);
      assert.equal(count('SELECT count(*) AS n FROM user_messages u JOIN user_messages_new s USING (user_id, message_id)'), 0);
      assert.equal(count('SELECT count(*) AS n FROM user_messages_all'), before + written);
      const registered = await reader.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) });
      assert.equal(registered.body.unread_msgs.count, 10_667 + 167 + 167);
      const newest = await reader.get('/messages', { anchor: 'newest', num_before: 1_000, num_after: 0 });
      const ids = newest.body.messages.map((m: { id: number }) => m.id);
      assert.equal(ids.length, 1_000);
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
      assert.equal(new Set(ids).size, 1_000);
      assert.equal(ids.at(-1), messages.maxId());
    } finally {
      await server.close();
    }
  });

  test('the newest messages and the first unread are found across both tables, in order and within limits', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel } = await readerOfStagedChannel(server);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) ids.push(await send(server.owner, { type: 'stream', to: channel.id, topic: 't', content: `m${i}` }));
      await reader.post('/messages/flags', { messages: JSON.stringify(ids.slice(0, 2)), op: 'add', flag: 'read' });
      server.stoa.messages.moveStagedRows();
      for (let i = 6; i < 10; i++) ids.push(await send(server.owner, { type: 'stream', to: channel.id, topic: 't', content: `m${i}` }));
      // ids[0..5] have moved, ids[6..9] wait.
      const fetch = async (anchor: string | number, before: number, after: number, narrow: unknown[] = []) =>
        (await reader.get('/messages', { anchor, num_before: before, num_after: after, narrow: JSON.stringify(narrow) })).body;
      const newest = await fetch('newest', 5, 0);
      assert.deepEqual(newest.messages.map((m: { id: number }) => m.id), ids.slice(5));
      const around = await fetch('first_unread', 1, 5);
      assert.equal(around.anchor, ids[2]);
      assert.deepEqual(around.messages.map((m: { id: number }) => m.id), ids.slice(1, 8));
      const across = await fetch(ids[5], 2, 2, [{ operator: 'channel', operand: 'staged' }]);
      assert.deepEqual(across.messages.map((m: { id: number }) => m.id), ids.slice(3, 8));
      const unread = await fetch('newest', 100, 0, [{ operator: 'is', operand: 'unread' }]);
      assert.deepEqual(unread.messages.map((m: { id: number }) => m.id), ids.slice(2));
      // The first unread among waiting rows only.
      await reader.post('/messages/flags', { messages: JSON.stringify(ids.slice(0, 6)), op: 'add', flag: 'read' });
      assert.equal((await fetch('first_unread', 0, 0)).anchor, ids[6]);
      assert.equal((await fetch('first_unread', 0, 0, [{ operator: 'channel', operand: 'staged' }])).anchor, ids[6]);
      const search = await fetch('newest', 100, 0, [{ operator: 'search', operand: 'm8' }]);
      assert.deepEqual(search.messages.map((m: { id: number }) => m.id), [ids[8]]);
    } finally {
      await server.close();
    }
  });
});
