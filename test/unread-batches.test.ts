// A new message's rows wait in a small table (user_messages_new) and move into user_messages,
// and its unread index, in batches (schema.sql, lib/messages/queries.ts). Clients must see no
// difference: what a reader's unread state looks like is the same wherever its rows are.
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, test } from 'node:test';
import { DATABASE_FILE } from '../lib/first-start';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { sendMessage as send } from './support/messages';
import { UNDO_RECENT_UNREAD, UNDO_STAGED_ROWS, UNDO_STAGED_WITHOUT_KEYS } from './support/schema-undo';
import { TestServer, tempDir } from './support/server';

/** Everything a client can learn about the reader's unread, starred and mentioned messages. */
async function unreadState(reader: Client) {
  const registered = await reader.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  const { unread_msgs: unread } = registered.body;
  const fetch = async (narrow: unknown[], anchor: string) => {
    const response = await reader.get('/messages', { anchor, num_before: 100, num_after: 100, narrow: JSON.stringify(narrow) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };
  const all = await fetch([], 'newest');
  const firstUnread = await fetch([], 'first_unread');
  const inChannel = await fetch([{ operator: 'channel', operand: 'batches' }], 'first_unread');
  return {
    count: unread.count,
    channels: unread.streams.map((s: { topic: string; unread_message_ids: number[] }) => [s.topic, s.unread_message_ids]),
    direct: unread.pms.map((p: { unread_message_ids: number[] }) => p.unread_message_ids),
    mentions: unread.mentions,
    flags: all.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]),
    firstUnread: firstUnread.anchor,
    firstUnreadInChannel: inChannel.anchor,
    isUnread: (await fetch([{ operator: 'is', operand: 'unread' }], 'newest')).messages.map((m: { id: number }) => m.id),
    isStarred: (await fetch([{ operator: 'is', operand: 'starred' }], 'newest')).messages.map((m: { id: number }) => m.id),
    isMentioned: (await fetch([{ operator: 'is', operand: 'mentioned' }], 'newest')).messages.map((m: { id: number }) => m.id),
  };
}

const waiting = (server: TestServer) =>
  (server.stoa.db.prepare('SELECT count(*) AS n FROM user_messages_new').get() as { n: number }).n;

/** A reader in a channel with the owner, some messages read, starred, mentioned and direct. */
async function setting(server: TestServer) {
  const reader = await server.createUser('Reader');
  const channel = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] }, 'batches');
  await reader.post('/mark_all_as_read'); // the channel's creation notice
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) {
    const content = i === 4 ? '@**Reader** look' : `message ${i}`;
    ids.push(await send(server.owner, { type: 'stream', to: channel.id, topic: i % 2 ? 'odd' : 'even', content }));
  }
  ids.push(await send(server.owner, { type: 'direct', to: JSON.stringify([reader.userId]), content: 'just you' }));
  const flag = (op: string, flag: string, messages: number[]) =>
    reader.post('/messages/flags', { messages: JSON.stringify(messages), op, flag });
  await flag('add', 'read', [ids[0], ids[1]]);
  await flag('add', 'starred', [ids[2]]);
  return { reader, channel, ids, flag };
}

describe('rows that wait before joining user_messages', () => {
  test('a reader sees the same unread state before and after their rows move, and after changes to either', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel, ids, flag } = await setting(server);
      const before = await unreadState(reader);
      assert.deepEqual(before.isUnread, ids.slice(2));
      assert.equal(before.count, 5);
      assert.equal(before.firstUnread, ids[2]);
      assert.deepEqual(before.isMentioned, [ids[4]]);
      assert.deepEqual(before.mentions, [ids[4]]);
      assert.ok(waiting(server) > 0, 'new rows wait outside user_messages');

      server.stoa.messages.moveStagedRows();
      assert.equal(waiting(server), 0);
      assert.deepEqual(await unreadState(reader), before);

      // Changes to settled rows, and new rows beside them.
      await flag('remove', 'read', [ids[0]]);
      await flag('add', 'read', [ids[3]]);
      const newer = await send(server.owner, { type: 'stream', to: channel.id, topic: 'even', content: 'newer' });
      const mixed = await unreadState(reader);
      assert.deepEqual(mixed.isUnread, [ids[0], ids[2], ids[4], ids[5], ids[6], newer]);
      assert.equal(mixed.count, 6);
      assert.equal(mixed.firstUnread, ids[0]);
      assert.equal(mixed.firstUnreadInChannel, ids[0]);
      assert.deepEqual(mixed.channels, [
        ['even', [ids[0], ids[2], ids[4], newer]],
        ['odd', [ids[5]]],
      ]);
      assert.deepEqual(mixed.direct, [[ids[6]]]);

      // A waiting row read before its batch moves as read.
      await flag('add', 'read', [newer]);
      const readNewer = await unreadState(reader);
      assert.deepEqual(readNewer.isUnread, [ids[0], ids[2], ids[4], ids[5], ids[6]]);
      server.stoa.messages.moveStagedRows();
      assert.deepEqual(await unreadState(reader), readNewer);

      // The oldest unread may be waiting while newer ones are settled: first_unread finds it.
      await reader.post('/mark_all_as_read');
      const late = await send(server.owner, { type: 'stream', to: channel.id, topic: 'odd', content: 'late' });
      server.stoa.messages.moveStagedRows();
      await flag('remove', 'read', [ids[5]]);
      const last = await send(server.owner, { type: 'stream', to: channel.id, topic: 'odd', content: 'last' });
      const split = await unreadState(reader);
      assert.deepEqual(split.isUnread, [ids[5], late, last]);
      assert.equal(split.firstUnread, ids[5]);
      assert.equal(split.count, 3);

      // After a restart the waiting rows are still found, and a later batch takes them.
      await server.restart();
      const again = server.anonymous.as(reader.credentials);
      assert.deepEqual(await unreadState(again), split);
      server.stoa.messages.moveStagedRows();
      assert.deepEqual(await unreadState(again), split);
      await again.post('/mark_all_as_read');
      const none = await unreadState(again);
      assert.deepEqual([none.count, none.isUnread, none.channels], [0, [], []]);
    } finally {
      await server.close();
    }
  });

  test('rows move by themselves once enough have waited', async () => {
    const server = await TestServer.start();
    try {
      const { reader, channel, ids } = await setting(server);
      server.stoa.messages.moveStagedRows();
      const people = [server.ownerId, reader.userId];
      // 32,000 waiting rows make a batch: inserted here as a send would, two people a message.
      const messages = server.stoa.messages;
      const newest = await send(server.owner, { type: 'stream', to: channel.id, topic: 'even', content: 'counted' });
      server.stoa.db.transaction(() => {
        for (let i = 0; i < 16_000; i++) {
          const id = messages.insert({
            sender_id: server.ownerId, recipient_id: server.stoa.channels.byId(channel.id)!.recipient_id, stream_id: channel.id, topic: 'bulk', content: 'x',
            rendered_content: '<p>x</p>', date_sent: 1, sending_client: 'test', is_me_message: 0, has_link: 0, has_image: 0, has_attachment: 0,
          });
          for (const person of people) messages.insertUserMessage(person, id, 0);
        }
      })();
      assert.ok(waiting(server) < 100, `${waiting(server)} rows still wait after a batch's worth`);
      const state = await unreadState(reader);
      assert.equal(state.count, 5 + 1 + 16_000);
      assert.equal(state.firstUnread, ids[2]);
      const { messages: fromNewest } = (await reader.get('/messages', { anchor: newest, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]) })).body;
      assert.deepEqual(fromNewest.map((m: { id: number }) => m.id), [newest]);
    } finally {
      await server.close();
    }
  });

  for (const [version, undo] of [
    // No `recent` column, every unread row in the one unread index.
    [36, `${UNDO_STAGED_ROWS}; ${UNDO_RECENT_UNREAD}`],
    // New unread rows waiting in user_messages_recent.
    [37, UNDO_STAGED_ROWS],
    // New rows waiting in user_messages_new with its foreign keys.
    [38, UNDO_STAGED_WITHOUT_KEYS],
  ] as const) {
    test(`a database of schema version ${version} keeps its unread state`, async () => {
      const data = tempDir();
      let server = await TestServer.start({ data });
      const { reader, ids } = await setting(server);
      const before = await unreadState(reader);
      await server.running.close();
      const db = new Database(path.join(data, DATABASE_FILE));
      db.exec(`${undo}; PRAGMA user_version = ${version};`);
      const stillWaiting = version === 38 ? (db.prepare('SELECT count(*) AS n FROM user_messages_new').get() as { n: number }).n : 0;
      if (version === 37) {
        const recent = db.prepare('SELECT count(*) AS n FROM user_messages WHERE recent IS NOT NULL').get() as { n: number };
        assert.ok(recent.n > 0, 'unread rows wait in user_messages_recent as version 37 left them');
      }
      db.close();
      server = await TestServer.start({ data });
      try {
        // Versions before 38 had no waiting rows; 38's stay waiting.
        assert.equal(waiting(server), version === 38 ? stillWaiting : 0);
        if (version === 38) assert.ok(stillWaiting > 0, 'rows wait as version 38 left them');
        const unrecent = server.stoa.db.prepare('SELECT count(*) AS n FROM user_messages WHERE recent IS NOT NULL').get() as { n: number };
        assert.equal(unrecent.n, 0);
        const again = server.anonymous.as(reader.credentials);
        assert.deepEqual(await unreadState(again), before);
        // And the rows stay the reader's: marking one read is seen.
        await again.post('/messages/flags', { messages: JSON.stringify([ids[2]]), op: 'add', flag: 'read' });
        assert.deepEqual((await unreadState(again)).isUnread, ids.slice(3));
      } finally {
        await server.close();
      }
    });
  }
});
