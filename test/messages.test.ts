import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage as send } from './support/messages';
import { ManualClock, TestServer } from './support/server';

/** The anchor Zulip reports for `newest`. */
const LARGER_THAN_MAX = 10_000_000_000_000_000;

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

async function fetchOne(client: Client, id: number, params: Record<string, unknown> = {}) {
  const response = await client.get(`/messages/${id}`, params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.message as Record<string, any>;
}

describe('POST /messages to a channel', () => {
  test('stores the message and shows it to subscribers with the fields Zulip sends', async () => {
    const member = await server.createUser('Cordelia');
    const { name, id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'greetings', content: 'hello *world*' });
    const message = await fetchOne(member, id);
    assert.equal(message.type, 'stream');
    assert.equal(message.stream_id, channelId);
    assert.equal(message.display_recipient, name);
    assert.equal(message.subject, 'greetings');
    assert.equal(message.sender_id, server.ownerId);
    assert.equal(message.content_type, 'text/html');
    assert.deepEqual(message.flags, []);
    assert.deepEqual(message.reactions, []);
    assert.equal(message.is_me_message, false);
    assert.equal(typeof message.timestamp, 'number');
    const raw = await member.get(`/messages/${id}`, { apply_markdown: false });
    assert.equal(raw.body.message.content, 'hello *world*');
    assert.equal(raw.body.message.content_type, 'text/x-markdown');
    assert.equal(raw.body.raw_content, 'hello *world*');
  });

  test('accepts the channel by ID, by name in a list, and the legacy subject and type names', async () => {
    const { name, id: channelId } = await createChannel(server.owner);
    const byId = await send(server.owner, { type: 'channel', to: channelId, subject: 'old name', content: 'by id' });
    const byList = await send(server.owner, { type: 'stream', to: JSON.stringify([name]), topic: 't', content: 'by list' });
    assert.equal((await fetchOne(server.owner, byId)).subject, 'old name');
    assert.equal((await fetchOne(server.owner, byList)).stream_id, channelId);
  });

  test('normalizes content and topic as Zulip does', async () => {
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, {
      type: 'stream',
      to: name,
      topic: `  ${'t'.repeat(70)}  `,
      content: `\n\n    code\n${'x'.repeat(10_100)}   \n`,
    });
    const message = await server.owner.get(`/messages/${id}`, { apply_markdown: false });
    assert.equal(message.body.message.subject, `${'t'.repeat(57)}...`);
    const content: string = message.body.message.content;
    assert.equal([...content].length, 10_000);
    assert.ok(content.startsWith('    code\n'), 'leading blank lines go, indentation stays');
    assert.ok(content.endsWith('\n[message truncated]'));
  });

  test('refuses bad content, topics and channels in Zulip’s words', async () => {
    const { name, id: channelId } = await createChannel(server.owner);
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ to: name, topic: 't', content: '  \n ' }, 'Message must not be empty'],
      [{ to: name, topic: 't', content: 'a\u0000b' }, 'Message must not contain null bytes'],
      [{ to: name, content: 'x' }, 'Missing topic'],
      [{ to: name, topic: 'bad\u0000topic', content: 'x' }, 'Invalid character in topic, at position 4!'],
      [{ to: 'no such channel', topic: 't', content: 'x' }, "Channel 'no such channel' does not exist", 'STREAM_DOES_NOT_EXIST'],
      [{ to: 999999, topic: 't', content: 'x' }, "Channel with ID '999999' does not exist", 'STREAM_DOES_NOT_EXIST'],
      [{ to: JSON.stringify([name, name]), topic: 't', content: 'x' }, 'Expected exactly one channel'],
      [{ to: 'true', topic: 't', content: 'x' }, 'Invalid data type for channel'],
      [{ topic: 't', content: 'x' }, 'Missing channel'],
    ];
    for (const [params, msg, code = 'BAD_REQUEST'] of cases) {
      const response = await server.owner.post('/messages', { type: 'stream', ...params });
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
      assert.equal(response.body.code, code);
    }
    const missing = await server.owner.post('/messages', { type: 'stream', to: channelId, topic: 't' });
    assert.equal(missing.body.msg, "Missing 'content' argument");
  });

  test('refuses private channels the sender is not in, without saying more', async () => {
    const { name } = await createChannel(server.owner, { invite_only: true });
    const outsider = await server.createUser();
    const response = await outsider.post('/messages', { type: 'stream', to: name, topic: 't', content: 'x' });
    assert.equal(response.status, 400);
    assert.equal(response.body.msg, `Not authorized to send to channel '${name}'`);
  });

  test('lets anyone post to a public channel without subscribing, reading it back through the channel', async () => {
    const { name } = await createChannel(server.owner);
    const outsider = await server.createUser();
    const read = await listen(outsider, { event_types: ['message'] });
    const id = await send(outsider, { type: 'stream', to: name, topic: 't', content: 'drive-by' });
    const message = await fetchOne(outsider, id);
    assert.equal(message.sender_id, outsider.userId);
    assert.deepEqual(message.flags, ['read', 'historical']);
    const mine = await outsider.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 });
    assert.equal(mine.body.messages.some((m: { id: number }) => m.id === id), false, 'not in their own feed');
    const [event] = await read();
    assert.equal(event.message.id, id, 'the sender still hears of it, for local echo');
    assert.deepEqual(event.flags, ['read', 'historical']);
  });
});

describe('POST /messages as a direct message', () => {
  test('one recipient ID shared by both directions of a conversation', async () => {
    const a = await server.createUser('Alice');
    const b = await server.createUser('Bob');
    const there = await send(a, { type: 'direct', to: JSON.stringify([b.userId]), content: 'hi' });
    const back = await send(b, { type: 'private', to: a.credentials.email, content: 'hello' });
    const first = await fetchOne(a, there);
    const second = await fetchOne(a, back);
    assert.equal(first.recipient_id, second.recipient_id);
    assert.equal(first.type, 'private');
    assert.equal(first.subject, '');
    assert.deepEqual(
      first.display_recipient.map((r: { id: number }) => r.id),
      [a.userId, b.userId].sort((x, y) => x - y),
    );
    assert.equal('stream_id' in first, false);
  });

  test('refuses unknown and mixed recipients', async () => {
    const a = await server.createUser();
    const cases: Array<[unknown, string]> = [
      [JSON.stringify([999999]), 'Invalid user ID 999999'],
      ['nobody@example.invalid', "Invalid email 'nobody@example.invalid'"],
      [JSON.stringify([a.userId, 'x@example.com']), 'Recipient lists may contain emails or user IDs, but not both.'],
      [JSON.stringify([]), 'Message must have recipients'],
    ];
    for (const [to, msg] of cases) {
      const response = await a.post('/messages', { type: 'direct', to, content: 'x' });
      assert.equal(response.body.msg, msg);
    }
  });

  test('refuses deactivated recipients', async () => {
    const a = await server.createUser();
    const gone = await server.createUser();
    assert.equal((await server.owner.delete(`/users/${gone.userId}`)).status, 200);
    const response = await a.post('/messages', { type: 'direct', to: JSON.stringify([gone.userId]), content: 'x' });
    assert.equal(response.body.msg, `'${gone.credentials.email}' is no longer using Zulip.`);
  });
});

describe('read_by_sender', () => {
  test('defaults to read for interactive apps and unread for other API clients', async () => {
    const { name } = await createChannel(server.owner);
    const fromApi = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'api' });
    const fromTerminal = await server.owner.request(
      'POST',
      '/messages',
      { type: 'stream', to: name, topic: 't', content: 'terminal' },
      { headers: { 'user-agent': 'ZulipTerminal/0.7.0 (Linux)' } },
    );
    const explicit = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'x', read_by_sender: true });
    assert.deepEqual((await fetchOne(server.owner, fromApi)).flags, []);
    const terminal = await fetchOne(server.owner, fromTerminal.body.id);
    assert.deepEqual(terminal.flags, ['read']);
    assert.equal(terminal.client, 'ZulipTerminal');
    assert.deepEqual((await fetchOne(server.owner, explicit)).flags, ['read']);
  });
});

describe('message events', () => {
  test('reach subscribers with their flags, and the sender’s queue gets its local ID', async () => {
    const member = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const mine = await server.owner.post('/register', { event_types: ['message'] });
    const theirs = await listen(member, { event_types: ['message'], apply_markdown: true });
    const id = await send(server.owner, {
      type: 'stream',
      to: name,
      topic: 'events',
      content: 'ping',
      queue_id: mine.body.queue_id,
      local_id: '17.01',
    });
    const [event] = await theirs();
    assert.equal(event.type, 'message');
    assert.equal(event.message.id, id);
    assert.equal(event.message.content, '<p>ping</p>');
    assert.deepEqual(event.flags, []);
    assert.equal('local_message_id' in event, false);
    const own = await server.owner.get('/events', { queue_id: mine.body.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(own.body.events[0].local_message_id, '17.01');
    assert.equal(own.body.events[0].message.content, 'ping', 'apply_markdown defaults to false for queues');
  });

  test('queues registered with all_public_streams hear public channels they are not in', async () => {
    const bot = await server.createUser();
    const read = await listen(bot, { event_types: ['message'], all_public_streams: true });
    const open = await createChannel(server.owner);
    const secret = await createChannel(server.owner, { invite_only: true });
    const id = await send(server.owner, { type: 'stream', to: open.name, topic: 't', content: 'public' });
    await send(server.owner, { type: 'stream', to: secret.name, topic: 't', content: 'private' });
    const events = await read();
    const ours = events.filter((e) => e.message.id >= id);
    assert.deepEqual(ours.map((e) => [e.message.id, e.flags]), [[id, []]]);
  });

  test('a narrowed queue gets only matching messages', async () => {
    const { name } = await createChannel(server.owner);
    const other = await createChannel(server.owner);
    const read = await listen(server.owner, { event_types: ['message'], narrow: [['channel', name]] });
    await send(server.owner, { type: 'stream', to: other.name, topic: 't', content: 'elsewhere' });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'here' });
    const events = await read();
    assert.deepEqual(
      events.map((e) => e.message.id),
      [id],
    );
  });
});

describe('GET /messages', () => {
  async function channelWithMessages(count: number) {
    const { name, id } = await createChannel(server.owner);
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(await send(server.owner, { type: 'stream', to: name, topic: i % 2 ? 'odd' : 'even', content: `message ${i}` }));
    }
    return { name, id, ids };
  }

  test('pages around an anchor with found_* as Zulip reports them', async () => {
    const { name, ids } = await channelWithMessages(6);
    // Without the notification bot's notice that opens every new channel.
    const narrow = JSON.stringify([
      { operator: 'channel', operand: name },
      { operator: 'sender', operand: server.ownerId },
    ]);
    const newest = await server.owner.get('/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow });
    assert.deepEqual(newest.body.messages.map((m: { id: number }) => m.id), ids.slice(3));
    assert.equal(newest.body.found_newest, true);
    assert.equal(newest.body.found_oldest, false);
    assert.equal(newest.body.found_anchor, false);
    const oldest = await server.owner.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 10, narrow });
    assert.deepEqual(oldest.body.messages.map((m: { id: number }) => m.id), ids);
    assert.equal(oldest.body.found_oldest, true);
    assert.equal(oldest.body.found_newest, true);
    const around = await server.owner.get('/messages', { anchor: ids[2], num_before: 1, num_after: 1, narrow });
    assert.deepEqual(around.body.messages.map((m: { id: number }) => m.id), ids.slice(1, 4));
    assert.equal(around.body.found_anchor, true);
    assert.equal(around.body.anchor, ids[2]);
    const excluded = await server.owner.get('/messages', {
      anchor: ids[2],
      include_anchor: false,
      num_before: 0,
      num_after: 2,
      narrow,
    });
    assert.deepEqual(excluded.body.messages.map((m: { id: number }) => m.id), [ids[3], ids[4]]);
    assert.equal(excluded.body.found_anchor, false);
    const middle = await server.owner.get('/messages', { anchor: ids[2], include_anchor: false, num_before: 1, num_after: 1, narrow });
    assert.equal(middle.body.msg, 'The anchor can only be excluded at an end of the range');
  });

  test('narrows by topic without regard to case, and by sender', async () => {
    const { name, ids } = await channelWithMessages(4);
    const odd = await server.owner.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([['channel', name], ['topic', 'ODD']]),
    });
    assert.deepEqual(odd.body.messages.map((m: { id: number }) => m.id), [ids[1], ids[3]]);
    const notOdd = await server.owner.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([
        { operator: 'channel', operand: name },
        { operator: 'topic', operand: 'odd', negated: true },
        { operator: 'topic', operand: 'channel events', negated: true },
      ]),
    });
    assert.deepEqual(notOdd.body.messages.map((m: { id: number }) => m.id), [ids[0], ids[2]]);
  });

  test('first_unread anchors at the oldest unread message', async () => {
    const reader = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const ids = [
      await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'a' }),
      await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'b' }),
    ];
    const narrow = JSON.stringify([['channel', name], ['topic', 't']]);
    const response = await reader.get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 1, narrow });
    assert.equal(response.body.anchor, ids[0]);
    assert.equal(response.body.found_anchor, true);
  });

  test('first_unread in a conversation that never happened finds nothing, for a user with unread messages', async () => {
    const reader = await server.createUser();
    const stranger = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'unread for the reader' });
    for (const negated of [false, true]) {
      const narrow = JSON.stringify([{ operator: 'dm', operand: [stranger.userId], negated }]);
      const response = await reader.get('/messages', { anchor: 'first_unread', num_before: 1, num_after: 1, narrow });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      if (!negated) assert.deepEqual(response.body.messages, []);
    }
  });

  test('searches text and marks the matches', async () => {
    const { name } = await createChannel(server.owner);
    const word = `zebra${Date.now()}`;
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'animals', content: `a ${word} appears` });
    await send(server.owner, { type: 'stream', to: name, topic: 'animals', content: 'nothing here' });
    const response = await server.owner.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([['search', word]]),
    });
    assert.deepEqual(response.body.messages.map((m: { id: number }) => m.id), [id]);
    assert.equal(response.body.messages[0].match_content, `<p>a <span class="highlight">${word}</span> appears</p>`);
    assert.equal(response.body.messages[0].match_subject, 'animals');
  });

  test('search pages through its matches newest first, in one’s own history and a channel’s shared history', async () => {
    const { name } = await createChannel(server.owner);
    const word = `quokka${Date.now()}`;
    const matching: number[] = [];
    for (let i = 0; i < 5; i++) {
      matching.push(await send(server.owner, { type: 'stream', to: name, topic: 't', content: `${word} number ${i}` }));
      await send(server.owner, { type: 'stream', to: name, topic: 't', content: `unrelated ${i}` });
    }
    const excluded = await send(server.owner, { type: 'stream', to: name, topic: 't', content: `${word} with a penguin` });
    const ids = (response: { body: { messages: Array<{ id: number }> } }) => response.body.messages.map((m) => m.id);
    const search = [{ operator: 'search', operand: word }];
    const newest = await server.owner.get('/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow: JSON.stringify(search) });
    assert.deepEqual(ids(newest), [matching[3], matching[4], excluded]);
    assert.equal(newest.body.found_oldest, false);
    const older = await server.owner.get('/messages', {
      anchor: matching[3],
      include_anchor: false,
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify(search),
    });
    assert.deepEqual(ids(older), matching.slice(0, 3));
    assert.equal(older.body.found_oldest, true);
    const withoutPenguins = [...search, { operator: 'search', operand: 'penguin', negated: true }];
    const filtered = await server.owner.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify(withoutPenguins) });
    assert.deepEqual(ids(filtered), matching);
    // A newcomer reaches the same matches through the channel's shared history.
    const newcomer = await server.createUser();
    const inChannel = [{ operator: 'channel', operand: name }, ...search];
    const shared = await newcomer.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify(inChannel) });
    assert.deepEqual(ids(shared), [...matching, excluded]);
    const byIds = await newcomer.get('/messages', { message_ids: JSON.stringify([matching[0], matching[0] + 1]), narrow: JSON.stringify(inChannel) });
    assert.deepEqual(ids(byIds), [matching[0]]);
  });

  test('first_unread in a search narrow is the oldest unread match', async () => {
    const reader = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const word = `wombat${Date.now()}`;
    const first = await send(server.owner, { type: 'stream', to: name, topic: 't', content: `${word} one` });
    await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'not this one' });
    const second = await send(server.owner, { type: 'stream', to: name, topic: 't', content: `${word} two` });
    await reader.post('/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'read' });
    const response = await reader.get('/messages', {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([{ operator: 'search', operand: word }]),
    });
    assert.equal(response.body.anchor, second);
    assert.deepEqual(response.body.messages.map((m: { id: number }) => m.id), [second]);
  });

  test('message events leave the avatar to clients that may see the sender’s email, and send it to the others', async () => {
    const sender = await server.createUser();
    const reader = await server.createUser();
    await sender.patch('/settings', { email_address_visibility: 3 }); // administrators only
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, sender.userId, reader.userId] });
    const ownerPoll = await listen(server.owner, { event_types: ['message'], client_gravatar: true });
    const readerPoll = await listen(reader, { event_types: ['message'], client_gravatar: true });
    await send(sender, { type: 'stream', to: name, topic: 't', content: 'who sees my face' });
    const [ownerEvent] = await ownerPoll();
    const [readerEvent] = await readerPoll();
    assert.equal(ownerEvent.message.avatar_url, null);
    assert.match(readerEvent.message.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  test('a queue narrowed by search gets only the messages that match', async () => {
    const { name } = await createChannel(server.owner);
    const word = `narwhal${Date.now()}`;
    const poll = await listen(server.owner, { event_types: ['message'], narrow: [['search', word]] });
    const matching = await send(server.owner, { type: 'stream', to: name, topic: 't', content: `a ${word} surfaces` });
    await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'only water' });
    assert.deepEqual((await poll()).map((event) => event.message.id), [matching]);
  });

  test('a channel’s shared history reaches later subscribers, flagged historical', async () => {
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'before you came' });
    const newcomer = await server.createUser();
    const personal = await newcomer.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
    assert.equal(personal.body.messages.some((m: { id: number }) => m.id === id), false, 'not in their own history');
    const shared = await newcomer.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([['channel', name], ['topic', 't']]),
    });
    assert.deepEqual(shared.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]), [
      [id, ['read', 'historical']],
    ]);
  });

  test('private history stays private', async () => {
    const { name } = await createChannel(server.owner, { invite_only: true, history_public_to_subscribers: false });
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'secret' });
    const outsider = await server.createUser();
    const byId = await outsider.get(`/messages/${id}`);
    assert.equal(byId.status, 400);
    assert.equal(byId.body.msg, 'Invalid message(s)');
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [outsider.userId] });
    const after = await outsider.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([['channel', name]]),
    });
    assert.deepEqual(after.body.messages, [], 'messages sent before they joined stay out of reach');
  });

  test('refuses oversized and contradictory requests', async () => {
    const tooMany = await server.owner.get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
    assert.equal(tooMany.body.msg, 'Too many messages requested (maximum 5000).');
    const mixed = await server.owner.get('/messages', { message_ids: JSON.stringify([1]), anchor: 'newest' });
    assert.equal(mixed.status, 400);
    const badNarrow = await server.owner.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([['frobnicate', 'x']]),
    });
    assert.equal(badNarrow.body.code, 'BAD_NARROW');
  });

  test('message_ids returns the readable subset', async () => {
    const { name } = await createChannel(server.owner, { invite_only: true });
    const hidden = await send(server.owner, { type: 'stream', to: name, topic: 't', content: 'hidden' });
    const open = await createChannel(server.owner);
    const visible = await send(server.owner, { type: 'stream', to: open.name, topic: 't', content: 'open' });
    const user = await server.createUser();
    const response = await user.get('/messages', { message_ids: JSON.stringify([hidden, visible]) });
    assert.deepEqual(response.body.messages.map((m: { id: number }) => m.id), [visible]);
  });

  test('a new channel opens with the notification bot’s notice of its creation, read by its creator', async () => {
    const member = await server.createUser();
    const name = uniqueName();
    await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name, description: 'For testing' }],
      principals: [server.ownerId, member.userId],
      invite_only: true,
    });
    const params = { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([['channel', name]]), apply_markdown: false };
    const [notice] = (await member.get('/messages', params)).body.messages;
    assert.equal(notice.subject, 'channel events');
    assert.equal(
      notice.content,
      `**Private, protected history** channel created by @_**Owner|${server.ownerId}**. **Description:**\n\`\`\` quote\nFor testing\n\`\`\``,
    );
    assert.deepEqual(notice.flags, []);
    assert.deepEqual((await server.owner.get('/messages', params)).body.messages[0].flags, ['read']);
  });

  test('people someone else adds to existing channels get a direct message, unless asked not to', async () => {
    const { name } = await createChannel(server.owner);
    const quiet = await createChannel(server.owner);
    const added = await server.createUser();
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [added.userId] });
    await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: quiet.name }],
      principals: [added.userId],
      send_new_subscription_messages: false,
    });
    const dms = await added.get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: JSON.stringify([['is', 'dm'], ['sender', 'notification-bot@stoa.local']]),
      apply_markdown: false,
    });
    assert.deepEqual(
      dms.body.messages.map((m: { content: string }) => m.content),
      [`@_**Owner|${server.ownerId}** subscribed you to #**${name}**.`],
    );
  });

  test('survives a restart', async () => {
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: uniqueName('topic'), content: 'durable' });
    await server.restart();
    assert.equal((await server.owner.get(`/messages/${id}`, { apply_markdown: false })).body.message.content, 'durable');
  });
});

describe('DELETE /messages/{message_id}', () => {
  test('the sender deletes their message; everyone who had it hears, once per message or in bulk', async () => {
    const reader = await server.createUser();
    const { name, id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    const id = await send(reader, { type: 'stream', to: name, topic: 'oops', content: 'wrong window' });
    const modern = await listen(server.owner, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const legacy = await listen(reader, { event_types: ['delete_message'] });
    assert.equal((await reader.delete(`/messages/${id}`)).status, 200);
    assert.deepEqual(await modern(), [
      { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: channelId, topic: 'oops' },
    ]);
    assert.deepEqual(await legacy(), [
      { type: 'delete_message', message_id: id, message_type: 'stream', stream_id: channelId, topic: 'oops' },
    ]);
    assert.equal((await reader.get(`/messages/${id}`)).body.msg, 'Invalid message(s)');
  });

  test('others may not delete it; administrators may', async () => {
    const author = await server.createUser();
    const other = await server.createUser();
    const { name } = await createChannel(server.owner);
    const id = await send(author, { type: 'stream', to: name, topic: 't', content: 'mine' });
    const refused = await other.delete(`/messages/${id}`);
    assert.equal(refused.body.msg, "You don't have permission to delete this message");
    assert.equal((await server.owner.delete(`/messages/${id}`)).status, 200);
  });

  test('the sender’s time to delete runs out', async () => {
    const clock = new ManualClock();
    const clocked = await TestServer.start({ clock });
    try {
      const { name } = await createChannel(clocked.owner);
      const author = await clocked.createUser();
      const id = await send(author, { type: 'stream', to: name, topic: 't', content: 'late' });
      clock.advance(601_000);
      const response = await author.delete(`/messages/${id}`);
      assert.equal(response.body.msg, 'The time limit for deleting this message has passed');
    } finally {
      await clocked.close();
    }
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  test('lists topics newest first, spellings merged under the newest', async () => {
    const { name, id: channelId } = await createChannel(server.owner);
    await send(server.owner, { type: 'stream', to: name, topic: 'lunch', content: 'a' });
    await send(server.owner, { type: 'stream', to: name, topic: 'deploys', content: 'b' });
    const last = await send(server.owner, { type: 'stream', to: name, topic: 'Lunch', content: 'c' });
    const empty = await send(server.owner, { type: 'stream', to: name, topic: '', content: 'd' });
    const response = await server.owner.get(`/users/me/${channelId}/topics`);
    assert.deepEqual(response.body.topics.map((t: { name: string; max_id: number }) => [t.name, t.max_id]).slice(0, 2), [
      ['general chat', empty],
      ['Lunch', last],
    ]);
    assert.deepEqual(
      response.body.topics.map((t: { name: string }) => t.name).slice(2),
      ['deploys', 'channel events'],
      'the notification bot opened the channel in "channel events"',
    );
    const named = await server.owner.get(`/users/me/${channelId}/topics`, { allow_empty_topic_name: true });
    assert.equal(named.body.topics[0].name, '');
  });

  test('hides a private channel from outsiders', async () => {
    const { id } = await createChannel(server.owner, { invite_only: true });
    const outsider = await server.createUser();
    assert.equal((await outsider.get(`/users/me/${id}/topics`)).body.msg, 'Invalid channel ID');
  });
});

describe('POST /typing', () => {
  test('direct typing reaches the other people, channel typing only clients that asked for it', async () => {
    const other = await server.createUser();
    const theirs = await listen(other, { event_types: ['typing'], client_capabilities: { stream_typing_notifications: true } });
    assert.equal((await server.owner.post('/typing', { op: 'start', to: JSON.stringify([other.userId]) })).status, 200);
    const [direct] = await theirs();
    assert.equal(direct.message_type, 'direct');
    assert.deepEqual(direct.sender, { user_id: server.ownerId, email: server.owner.credentials!.email });
    assert.deepEqual(
      direct.recipients.map((r: { user_id: number }) => r.user_id),
      [other.userId, server.ownerId],
    );
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, other.userId] });
    const legacy = await listen(other, { event_types: ['typing'] });
    await server.owner.post('/typing', { op: 'stop', type: 'stream', stream_id: id, topic: 'greetings' });
    assert.deepEqual(await theirs(), [
      {
        type: 'typing',
        op: 'stop',
        message_type: 'stream',
        sender: { user_id: server.ownerId, email: server.owner.credentials!.email },
        stream_id: id,
        topic: 'greetings',
      },
    ]);
    assert.deepEqual(await legacy(), [], 'clients without stream_typing_notifications hear nothing');
  });

  test('refuses incomplete requests in Zulip’s words', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ op: 'start' }, "Missing 'to' argument"],
      [{ op: 'start', to: '[]' }, "Empty 'to' list"],
      [{ op: 'start', to: '[999999]' }, 'Invalid user ID 999999'],
      [{ op: 'start', type: 'stream', topic: 't' }, 'Missing channel ID'],
    ];
    for (const [params, msg] of cases) assert.equal((await server.owner.post('/typing', params)).body.msg, msg);
  });
});

describe('flags from content', () => {
  test('mentions, wildcard mentions and alert words set each receiver’s flags', async () => {
    const named = await server.createUser('Mentioned Person');
    const watcher = await server.createUser();
    const bystander = await server.createUser();
    await watcher.post('/users/me/alert_words', { alert_words: JSON.stringify(['Kraken']) });
    const { name } = await createChannel(server.owner, {
      principals: [server.ownerId, named.userId, watcher.userId, bystander.userId],
    });
    const id = await send(server.owner, {
      type: 'stream',
      to: name,
      topic: 'flags',
      content: '@**Mentioned Person** the kraken has landed',
    });
    assert.deepEqual((await fetchOne(named, id)).flags, ['mentioned']);
    assert.deepEqual((await fetchOne(watcher, id)).flags, ['has_alert_word']);
    assert.deepEqual((await fetchOne(bystander, id)).flags, []);
    const rendered = (await fetchOne(named, id)).content;
    assert.match(rendered, new RegExp(`<span class="user-mention" data-user-id="${named.userId}">@Mentioned Person</span>`));
    const everyone = await send(server.owner, { type: 'stream', to: name, topic: 'flags', content: 'hello @**all**' });
    assert.deepEqual((await fetchOne(bystander, everyone)).flags, ['stream_wildcard_mentioned', 'wildcard_mentioned']);
    const silent = await send(server.owner, { type: 'stream', to: name, topic: 'flags', content: '@_**Mentioned Person** quietly' });
    assert.deepEqual((await fetchOne(named, silent)).flags, []);
  });

  test('/me messages and topic links from linkifiers', async () => {
    await server.owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
    const { name } = await createChannel(server.owner);
    const id = await send(server.owner, { type: 'stream', to: name, topic: 'fix #42', content: '/me waves' });
    const message = await fetchOne(server.owner, id);
    assert.equal(message.is_me_message, true);
    assert.deepEqual(message.topic_links, [{ text: '#42', url: 'https://tracker.example/42' }]);
  });
});

describe('mention permissions', () => {
  test('wildcards in a channel of more than 15 need the organization’s permission', async () => {
    const member = await server.createUser();
    const crowd = [member.userId];
    for (let i = 0; i < 15; i++) crowd.push((await server.createUser()).userId);
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, ...crowd] });
    const refused = await member.post('/messages', { type: 'stream', to: name, topic: 't', content: 'hey @**all**' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    assert.equal(refused.body.msg, 'You do not have permission to use channel wildcard mentions in this channel.');
    assert.equal((await server.owner.post('/messages', { type: 'stream', to: name, topic: 't', content: 'hey @**all**' })).status, 200);
    const silent = await member.post('/messages', { type: 'stream', to: name, topic: 't', content: 'hey @_**all**' });
    assert.equal(silent.status, 200, 'a silent wildcard mentions nobody');
  });

  test('a group may be mentioned only by those its can_mention_group names', async () => {
    const member = await server.createUser();
    const groupName = uniqueName('mentionable');
    const created = await server.owner.post('/user_groups/create', {
      name: groupName,
      description: '',
      members: JSON.stringify([server.ownerId]),
      can_mention_group: server.groupId('role:administrators'),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { name } = await createChannel(server.owner);
    const refused = await member.post('/messages', { type: 'stream', to: name, topic: 't', content: `@*${groupName}* look` });
    assert.equal(
      refused.body.msg,
      `You are not allowed to mention user group '${groupName}'. You must be a member of 'role:administrators' to mention this group.`,
    );
    const id = await send(server.owner, { type: 'stream', to: name, topic: 't', content: `@*${groupName}* look` });
    assert.match((await fetchOne(server.owner, id)).content, /user-group-mention/);
  });

  test('announce posts to the organization’s new-channel announcements channel', async () => {
    const announcements = await createChannel(server.owner);
    const set = await server.owner.patch('/realm', { new_stream_announcements_stream_id: announcements.id });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const fresh = uniqueName('announced');
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: fresh }], announce: true });
    const posted = await server.owner.get('/messages', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: JSON.stringify([['channel', announcements.name], ['topic', 'new channels']]),
      apply_markdown: false,
    });
    assert.equal(posted.body.messages[0].content, `@_**Owner|${server.ownerId}** created a new channel #**${fresh}**.`);
  });
});

describe('first_unread and muting', () => {
  test('skips muted topics, and muted channels unless the narrow names the channel', async () => {
    const reader = await server.createUser();
    const { name, id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, reader.userId] });
    await reader.post('/mark_all_as_read');
    const muted = await send(server.owner, { type: 'stream', to: name, topic: 'noise', content: 'a' });
    const wanted = await send(server.owner, { type: 'stream', to: name, topic: 'signal', content: 'b' });
    await reader.post('/user_topics', { stream_id: channelId, topic: 'noise', visibility_policy: 1 });
    const anchorOf = async (narrow: unknown[]) =>
      (await reader.get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 0, narrow: JSON.stringify(narrow) })).body.anchor;
    assert.equal(await anchorOf([['channel', name]]), wanted);
    assert.equal(await anchorOf([['channel', name], ['topic', 'noise']]), LARGER_THAN_MAX, 'only muted unreads: as if newest');
    void muted;
  });
});
