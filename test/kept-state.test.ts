import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { sendMessage as send } from './support/messages';
import { TestServer } from './support/server';

// The server keeps recent message rows, alert words and linkifiers between requests; none of
// it may outlive a change: what a client fetches next shows the change.

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function view(client: Client, params: Record<string, unknown> = {}) {
  const response = await client.get('/messages', {
    anchor: 'first_unread',
    num_before: 50,
    num_after: 50,
    narrow: JSON.stringify([]),
    apply_markdown: true,
    client_gravatar: false,
    ...params,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as { messages: Array<Record<string, any>>; anchor: number; found_anchor: boolean; found_oldest: boolean; found_newest: boolean };
}

describe('messages kept between fetches', () => {
  test('an edit, a move, a reaction and a deletion show in the next fetch', async () => {
    const reader = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const first = await send(server.owner, { type: 'stream', to: name, topic: 'kept', content: 'one' });
    const second = await send(server.owner, { type: 'stream', to: name, topic: 'kept', content: 'two' });
    const third = await send(server.owner, { type: 'stream', to: name, topic: 'kept', content: 'three' });
    // The channel and its first topic: a message moved out of the topic stays in the channel.
    const narrow = JSON.stringify([['channel', name]]);
    const seen = await view(reader, { narrow, anchor: first, num_before: 0 });
    assert.equal(seen.found_anchor, true);
    assert.deepEqual(seen.messages.map((m) => m.content), ['<p>one</p>', '<p>two</p>', '<p>three</p>']);

    assert.equal((await server.owner.patch(`/messages/${first}`, { content: 'uno' })).status, 200);
    assert.equal((await server.owner.patch(`/messages/${second}`, { topic: 'moved' })).status, 200);
    assert.equal((await reader.post(`/messages/${third}/reactions`, { emoji_name: 'octopus' })).status, 200);
    const changed = await view(reader, { narrow, anchor: first, num_before: 0 });
    assert.equal(changed.messages[0].content, '<p>uno</p>');
    assert.equal(typeof changed.messages[0].last_edit_timestamp, 'number');
    assert.equal(changed.messages[1].subject, 'moved');
    assert.deepEqual(changed.messages[2].reactions.map((r: Record<string, unknown>) => [r.emoji_name, r.user_id]), [['octopus', reader.userId]]);

    assert.equal((await server.owner.delete(`/messages/${second}`)).status, 200);
    // (The move left notices in the channel too.)
    const remaining = (await view(reader, { narrow, anchor: first, num_before: 0 })).messages.map((m) => m.id);
    assert.equal(remaining.includes(second), false);
    assert.deepEqual(remaining.slice(0, 2), [first, third]);
  });

  test('flags are each reader\'s own, though the rows are shared', async () => {
    const one = await server.createUser();
    const two = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, one.userId, two.userId] });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'flags', content: 'shared' });
    const starred = await one.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' });
    assert.equal(starred.status, 200, JSON.stringify(starred.body));
    const narrow = JSON.stringify([['channel', name], ['topic', 'flags']]);
    const [mine] = (await view(one, { narrow })).messages;
    const [theirs] = (await view(two, { narrow })).messages;
    assert.deepEqual(mine.flags, ['starred']);
    assert.deepEqual(theirs.flags, []);
    assert.equal(mine.content, theirs.content);
  });

  test('both sides of the anchor come right at every edge', async () => {
    const reader = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(server.owner, { type: 'stream', to: name, topic: 'edges', content: `m${i}` }));
    const narrow = JSON.stringify([['channel', name], ['topic', 'edges']]);
    const idsOf = (body: { messages: Array<Record<string, any>> }) => body.messages.map((m) => m.id);
    const around = await view(reader, { narrow, anchor: ids[2], num_before: 1, num_after: 1 });
    assert.deepEqual(idsOf(around), [ids[1], ids[2], ids[3]]);
    assert.equal(around.found_anchor, true);
    assert.equal(around.found_oldest, false);
    assert.equal(around.found_newest, false);
    const beforeOnly = await view(reader, { narrow, anchor: ids[2], num_before: 5, num_after: 0, include_anchor: false });
    assert.deepEqual(idsOf(beforeOnly), [ids[0], ids[1]]);
    assert.equal(beforeOnly.found_oldest, true);
    const afterOnly = await view(reader, { narrow, anchor: ids[2], num_before: 0, num_after: 5, include_anchor: false });
    assert.deepEqual(idsOf(afterOnly), [ids[3], ids[4]]);
    assert.equal(afterOnly.found_newest, true);
    // An anchor between messages: the one after it is not the anchor, and the extra row is dropped.
    const between = await view(reader, { narrow, anchor: ids[4] + 1000, num_before: 2, num_after: 2 });
    assert.deepEqual(idsOf(between), [ids[3], ids[4]]);
    assert.equal(between.found_anchor, false);
    const anchorOnly = await view(reader, { narrow, anchor: ids[1], num_before: 0, num_after: 0 });
    assert.deepEqual(idsOf(anchorOnly), [ids[1]]);
    const newest = await view(reader, { narrow, anchor: 'newest', num_before: 3, num_after: 0 });
    assert.deepEqual(idsOf(newest), ids.slice(2));
    assert.equal(newest.found_newest, true);
  });
});

describe('alert words and linkifiers kept between requests', () => {
  test('alert words added or removed apply to the next message', async () => {
    const watcher = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, watcher.userId] });
    const flagsOf = async (id: number) => (await watcher.get(`/messages/${id}`)).body.message.flags as string[];
    const before = await send(server.owner, { type: 'stream', to: name, topic: 'words', content: 'a kraken' });
    assert.deepEqual(await flagsOf(before), []);
    assert.equal((await watcher.post('/users/me/alert_words', { alert_words: JSON.stringify(['Kraken']) })).status, 200);
    const during = await send(server.owner, { type: 'stream', to: name, topic: 'words', content: 'the kraken again' });
    assert.deepEqual(await flagsOf(during), ['has_alert_word']);
    assert.equal((await watcher.delete('/users/me/alert_words', { alert_words: JSON.stringify(['kraken']) })).status, 200);
    const afterwards = await send(server.owner, { type: 'stream', to: name, topic: 'words', content: 'kraken once more' });
    assert.deepEqual(await flagsOf(afterwards), []);
  });

  test('a linkifier added or removed changes the topic links of the next fetch', async () => {
    const { name } = await createChannel(server.owner, { principals: [server.ownerId] });
    await send(server.owner, { type: 'stream', to: name, topic: 'ticket KEPT-7', content: 'about it' });
    const links = async () => (await view(server.owner, { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([['channel', name]]) })).messages[0].topic_links;
    assert.deepEqual(await links(), []);
    const added = await server.owner.post('/realm/filters', { pattern: 'KEPT-(?P<id>[0-9]+)', url_template: 'https://tickets.example/{id}' });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(await links(), [{ text: 'KEPT-7', url: 'https://tickets.example/7' }]);
    assert.equal((await server.owner.delete(`/realm/filters/${added.body.id}`)).status, 200);
    assert.deepEqual(await links(), []);
  });
});
