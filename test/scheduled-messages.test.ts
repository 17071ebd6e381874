import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { applyEvent } from './support/apply-events';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { ManualClock, TestServer } from './support/server';

const START = Date.UTC(2026, 2, 1, 12, 0, 0);
const MINUTE = 60_000;
const NOTIFICATION_BOT = 'notification-bot@stoa.local';


/** The message a user sees with this ID, with its flags. */
async function fetchMessage(client: Client, id: number): Promise<Record<string, any>> {
  const response = await client.get('/messages', { anchor: id, num_before: 0, num_after: 0, apply_markdown: false });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const [message] = response.body.messages;
  assert.equal(message?.id, id, `message ${id} is not visible`);
  return message;
}

/** The newest message the user has, or undefined. */
async function newestMessage(client: Client): Promise<Record<string, any> | undefined> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
  return response.body.messages.at(-1);
}

/** Waits (a few turns of the event loop at most) until check passes. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the condition never held');
}

async function schedule(client: Client, params: Record<string, unknown>): Promise<number> {
  const response = await client.post('/scheduled_messages', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.scheduled_message_id as number;
}

async function refusal(response: Promise<{ status: number; body: any }>, status = 400): Promise<string> {
  const { status: got, body } = await response;
  assert.equal(got, status, JSON.stringify(body));
  assert.equal(body.result, 'error');
  return body.msg as string;
}

describe('scheduled messages, kept and edited', () => {
  // Time stands still here: nothing scheduled in these tests comes due.
  const clock = new ManualClock(START);
  const now = START / 1000;
  const later = now + 3600;
  let server: TestServer;
  let channelId: number;
  let channelName: string;
  before(async () => {
    server = await TestServer.start({ clock });
    ({ id: channelId, name: channelName } = await createChannel(server.owner));
  });
  after(() => server.close());

  test('are created, listed, edited and deleted, and the sender’s clients hear of each change', async () => {
    const user = await server.createUser();
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channelName }], principals: [user.userId] });
    const events = await listen(user, { event_types: ['scheduled_messages'] });

    const id = await schedule(user, {
      type: 'stream',
      to: channelId,
      topic: 'release',
      content: 'Ship **it**.  ',
      scheduled_delivery_timestamp: later,
    });
    const expected = {
      scheduled_message_id: id,
      to: channelId,
      type: 'stream',
      content: 'Ship **it**.',
      rendered_content: '<p>Ship <strong>it</strong>.</p>',
      topic: 'release',
      scheduled_delivery_timestamp: later,
      failed: false,
    };
    assert.deepEqual((await user.get('/scheduled_messages')).body.scheduled_messages, [expected]);
    assert.deepEqual(await events(), [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [expected] }]);

    assert.equal((await user.patch(`/scheduled_messages/${id}`, { content: 'Ship *it*' })).status, 200);
    const edited = { ...expected, content: 'Ship *it*', rendered_content: '<p>Ship <em>it</em></p>' };
    assert.deepEqual(await events(), [{ type: 'scheduled_messages', op: 'update', scheduled_message: edited }]);

    assert.equal((await user.patch(`/scheduled_messages/${id}`, { topic: 'deploys', scheduled_delivery_timestamp: later + 60 })).status, 200);
    const moved = { ...edited, topic: 'deploys', scheduled_delivery_timestamp: later + 60 };
    assert.deepEqual(await events(), [{ type: 'scheduled_messages', op: 'update', scheduled_message: moved }]);
    assert.deepEqual((await user.get('/scheduled_messages')).body.scheduled_messages, [moved]);

    assert.equal((await user.delete(`/scheduled_messages/${id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
    assert.deepEqual((await user.get('/scheduled_messages')).body.scheduled_messages, []);
    assert.equal(await refusal(user.delete(`/scheduled_messages/${id}`), 404), 'Scheduled message does not exist');
  });

  test('name the others in a direct conversation, or the sender alone, and accept every name of each type', async () => {
    const user = await server.createUser();
    const a = await server.createUser();
    const b = await server.createUser();
    const toPair = await schedule(user, { type: 'direct', to: [b.userId, a.userId, user.userId], content: 'hi', scheduled_delivery_timestamp: later });
    const toSelf = await schedule(user, { type: 'private', to: [user.userId], content: 'note', topic: 'ignored', scheduled_delivery_timestamp: later + 1 });
    const legacy = await schedule(user, { type: 'channel', to: channelId, subject: 'legacy', content: 'x', scheduled_delivery_timestamp: later + 2 });
    const listed = (await user.get('/scheduled_messages')).body.scheduled_messages;
    assert.deepEqual(
      listed.map((m: Record<string, unknown>) => [m.scheduled_message_id, m.type, m.to, m.topic]),
      [
        [toPair, 'private', [a.userId, b.userId].sort((x, y) => x - y), undefined],
        [toSelf, 'private', [user.userId], undefined],
        [legacy, 'stream', channelId, 'legacy'],
      ],
    );
    assert.deepEqual((await a.get('/scheduled_messages')).body.scheduled_messages, [], 'only the sender sees them');
  });

  test('are listed soonest first, failed ones included', async () => {
    const user = await server.createUser();
    const third = await schedule(user, { type: 'direct', to: [user.userId], content: 'c', scheduled_delivery_timestamp: later + 300 });
    const first = await schedule(user, { type: 'direct', to: [user.userId], content: 'a', scheduled_delivery_timestamp: later + 100 });
    const second = await schedule(user, { type: 'direct', to: [user.userId], content: 'b', scheduled_delivery_timestamp: later + 200 });
    const listed = (await user.get('/scheduled_messages')).body.scheduled_messages;
    assert.deepEqual(listed.map((m: { scheduled_message_id: number }) => m.scheduled_message_id), [first, second, third]);
  });

  test('refuse what Zulip refuses, in its words', async () => {
    const user = await server.createUser();
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    const secret = await createChannel(server.owner, { invite_only: true });
    const toChannel = { type: 'stream', to: channelId, topic: 't', content: 'x', scheduled_delivery_timestamp: later };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...toChannel, scheduled_delivery_timestamp: now }, 'Scheduled delivery time must be in the future.'],
      [{ ...toChannel, scheduled_delivery_timestamp: now - 60 }, 'Scheduled delivery time must be in the future.'],
      [{ ...toChannel, scheduled_delivery_timestamp: now + 60.5 }, 'scheduled_delivery_timestamp is not an integer'],
      [{ ...toChannel, to: [channelId] }, 'Invalid data type for channel ID'],
      [{ ...toChannel, to: channelName }, 'Invalid data type for channel ID'],
      [{ ...toChannel, to: 99999 }, "Channel with ID '99999' does not exist"],
      [{ ...toChannel, to: secret.id }, `Not authorized to send to channel '${secret.name}'`],
      [{ type: 'stream', to: channelId, content: 'x', scheduled_delivery_timestamp: later }, 'Missing topic'],
      [{ ...toChannel, content: '  \n ' }, 'Message must not be empty'],
      [{ ...toChannel, topic: 'a\u0000b' }, 'Invalid character in topic, at position 2!'],
      [{ type: 'direct', to: user.userId, content: 'x', scheduled_delivery_timestamp: later }, 'Invalid data type for recipients'],
      [{ type: 'direct', to: ['someone@example.com'], content: 'x', scheduled_delivery_timestamp: later }, 'Recipient list may only contain user IDs'],
      [{ type: 'direct', to: [], content: 'x', scheduled_delivery_timestamp: later }, 'Message must have recipients'],
      [{ type: 'direct', to: [99999], content: 'x', scheduled_delivery_timestamp: later }, 'Invalid user ID 99999'],
      [{ type: 'direct', to: [gone.userId], content: 'x', scheduled_delivery_timestamp: later }, `'${gone.credentials.email}' is no longer using Zulip.`],
      [{ type: 'dm', to: [user.userId], content: 'x', scheduled_delivery_timestamp: later }, 'Invalid type'],
    ];
    for (const [params, msg] of cases) {
      assert.equal(await refusal(user.post('/scheduled_messages', params)), msg, JSON.stringify(params));
    }
    const missing = await user.post('/scheduled_messages', { type: 'stream', to: channelId, topic: 't', content: 'x' });
    assert.deepEqual([missing.status, missing.body.code, missing.body.var_name], [400, 'REQUEST_VARIABLE_MISSING', 'scheduled_delivery_timestamp']);
    const unknown = await user.post('/scheduled_messages', { ...toChannel, to: 99999 });
    assert.deepEqual([unknown.body.code, unknown.body.stream_id], ['STREAM_DOES_NOT_EXIST', 99999]);
    assert.deepEqual((await user.get('/scheduled_messages')).body.scheduled_messages, [], 'nothing was kept');
  });

  test('edits are checked as Zulip checks them', async () => {
    const user = await server.createUser();
    const stranger = await server.createUser();
    const id = await schedule(user, { type: 'direct', to: [stranger.userId], content: 'x', scheduled_delivery_timestamp: later });
    const path = `/scheduled_messages/${id}`;
    assert.equal(await refusal(user.patch(path, {})), 'Nothing to change');
    assert.equal(await refusal(user.patch(path, { type: 'stream' })), 'Recipient required when updating type of scheduled message.');
    assert.equal(await refusal(user.patch(path, { type: 'channel', to: channelId })), 'Topic required when updating scheduled message type to channel.');
    assert.equal(await refusal(user.patch(path, { scheduled_delivery_timestamp: now })), 'Scheduled delivery time must be in the future.');
    assert.equal(await refusal(user.patch(path, { to: channelId })), 'Invalid data type for recipients');
    assert.equal(await refusal(user.patch(path, { content: '' })), 'Message must not be empty');
    assert.equal(await refusal(stranger.patch(path, { content: 'mine now' }), 404), 'Scheduled message does not exist');
    assert.equal(await refusal(stranger.delete(path), 404), 'Scheduled message does not exist');
    assert.equal(await refusal(user.patch('/scheduled_messages/99999', { content: 'y' }), 404), 'Scheduled message does not exist');
    const [kept] = (await user.get('/scheduled_messages')).body.scheduled_messages;
    assert.deepEqual([kept.content, kept.to], ['x', [stranger.userId]], 'a refused edit changes nothing');
  });

  test('an edit may change the type, the recipients, the topic, the content and the time', async () => {
    const user = await server.createUser();
    const friend = await server.createUser();
    const events = await listen(user, { event_types: ['scheduled_messages'] });
    const id = await schedule(user, { type: 'direct', to: [friend.userId], content: 'psst', scheduled_delivery_timestamp: later });
    await events();
    const path = `/scheduled_messages/${id}`;

    assert.equal((await user.patch(path, { type: 'channel', to: channelId, topic: 'announcements' })).status, 200);
    const [toChannel] = await events();
    assert.deepEqual(toChannel.scheduled_message, {
      scheduled_message_id: id,
      to: channelId,
      type: 'stream',
      content: 'psst',
      rendered_content: '<p>psst</p>',
      topic: 'announcements',
      scheduled_delivery_timestamp: later,
      failed: false,
    });

    // A topic given with a direct message is ignored, as Zulip ignores it.
    assert.equal((await user.patch(path, { type: 'direct', to: [friend.userId, user.userId], topic: 'dropped', scheduled_delivery_timestamp: later + 5 })).status, 200);
    const [toFriend] = await events();
    assert.deepEqual(toFriend.scheduled_message, {
      scheduled_message_id: id,
      to: [friend.userId],
      type: 'private',
      content: 'psst',
      rendered_content: '<p>psst</p>',
      scheduled_delivery_timestamp: later + 5,
      failed: false,
    });
    assert.equal((await user.patch(path, { topic: 'still ignored' })).status, 200);
    assert.equal((await events())[0].scheduled_message.topic, undefined);
  });

  test('are in the register state, for their sender only, and events keep that state current', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    const kept = await schedule(user, { type: 'direct', to: [other.userId], content: 'kept', scheduled_delivery_timestamp: later + 10 });
    const registered = await user.post('/register', { fetch_event_types: ['scheduled_messages'] });
    const state = registered.body;
    assert.deepEqual(state.scheduled_messages.map((m: { scheduled_message_id: number }) => m.scheduled_message_id), [kept]);
    assert.deepEqual((await other.post('/register', { fetch_event_types: ['scheduled_messages'] })).body.scheduled_messages, []);
    assert.equal((await user.post('/register', { fetch_event_types: ['drafts'] })).body.scheduled_messages, undefined);
    assert.ok(Array.isArray((await user.post('/register', { event_types: ['scheduled_messages'] })).body.scheduled_messages));

    const added = await schedule(user, { type: 'stream', to: channelId, topic: 'a', content: 'added', scheduled_delivery_timestamp: later + 5 });
    await user.patch(`/scheduled_messages/${kept}`, { content: 'changed' });
    await schedule(user, { type: 'direct', to: [user.userId], content: 'gone soon', scheduled_delivery_timestamp: later });
    const gone = (await user.get('/scheduled_messages')).body.scheduled_messages.find((m: { content: string }) => m.content === 'gone soon');
    await user.delete(`/scheduled_messages/${gone.scheduled_message_id}`);
    assert.ok(added > kept);

    const polled = await user.get('/events', { queue_id: state.queue_id, last_event_id: state.last_event_id, dont_block: true });
    for (const event of polled.body.events) applyEvent(state, event);
    const fresh = (await user.post('/register', { fetch_event_types: ['scheduled_messages'] })).body;
    assert.deepEqual(state.scheduled_messages, fresh.scheduled_messages);
  });

  test('survive a restart', async () => {
    const restartable = await TestServer.start({ clock });
    try {
      const channel = await createChannel(restartable.owner);
      const id = await schedule(restartable.owner, { type: 'stream', to: channel.id, topic: 'kept', content: 'still here', scheduled_delivery_timestamp: later });
      const before = (await restartable.owner.get('/scheduled_messages')).body.scheduled_messages;
      await restartable.restart();
      const after = (await restartable.owner.get('/scheduled_messages')).body.scheduled_messages;
      assert.deepEqual(after, before);
      assert.equal(after[0].scheduled_message_id, id);
    } finally {
      await restartable.close();
    }
  });
});

describe('sending scheduled messages', () => {
  /** A server of its own with a clock of its own, so that moving time here touches no other test. */
  async function freshServer() {
    const clock = new ManualClock(START);
    const server = await TestServer.start({ clock });
    const channel = await createChannel(server.owner);
    const sender = await server.createUser('Sender');
    const reader = await server.createUser('Reader');
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [sender.userId, reader.userId] });
    return { clock, server, channel, sender, reader, now: () => Math.floor(clock.now() / 1000) };
  }

  test('happens at the scheduled time, through the normal send, and the sender’s list forgets it', async () => {
    const { clock, server, channel, sender, reader, now } = await freshServer();
    try {
      const id = await schedule(sender, {
        type: 'stream',
        to: channel.id,
        topic: 'greetings',
        content: 'Hello @**Reader**',
        scheduled_delivery_timestamp: now() + 120,
        read_by_sender: true,
      });
      const senderEvents = await listen(sender, { event_types: ['message', 'scheduled_messages'], apply_markdown: true });
      const readerEvents = await listen(reader, { event_types: ['message'] });

      clock.advance(MINUTE);
      assert.deepEqual(await senderEvents(), [], 'not yet');
      assert.equal((await sender.get('/scheduled_messages')).body.scheduled_messages.length, 1);

      clock.advance(MINUTE);
      const [message, removed] = await senderEvents();
      assert.equal(message.type, 'message');
      assert.deepEqual(removed, { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
      assert.deepEqual(message.flags, ['read'], 'read by its sender, as asked');
      assert.equal(message.message.timestamp, now(), 'sent when it was due');
      assert.equal(message.message.subject, 'greetings');
      assert.match(message.message.content, /user-mention/);
      const [received] = await readerEvents();
      assert.equal(received.message.id, message.message.id);
      assert.deepEqual(received.flags, ['mentioned'], 'the mention reaches the reader, unread');

      assert.deepEqual((await sender.get('/scheduled_messages')).body.scheduled_messages, []);
      assert.equal((await fetchMessage(reader, message.message.id)).content, 'Hello @**Reader**');
      const row = server.stoa.db.prepare('SELECT delivered, delivered_message_id FROM scheduled_messages WHERE id = ?').get(id);
      assert.deepEqual(row, { delivered: 1, delivered_message_id: message.message.id });
      assert.equal(await refusal(sender.patch(`/scheduled_messages/${id}`, { content: 'too late' })), 'Scheduled message was already sent');
    } finally {
      await server.close();
    }
  });

  test('with the system clock, a message is sent when its second comes', async () => {
    const server = await TestServer.start();
    try {
      const due = Math.floor(Date.now() / 1000) + 2;
      await schedule(server.owner, { type: 'direct', to: [server.ownerId], content: 'on time', scheduled_delivery_timestamp: due });
      assert.equal((await server.owner.get('/scheduled_messages')).body.scheduled_messages.length, 1);
      const events = await listen(server.owner, { event_types: ['message'] });
      await new Promise((resolve) => setTimeout(resolve, due * 1000 - Date.now() + 200));
      const [sent] = await events();
      assert.equal(sent?.message.content, 'on time');
      assert.ok(sent.message.timestamp >= due);
      assert.deepEqual((await server.owner.get('/scheduled_messages')).body.scheduled_messages, []);
    } finally {
      await server.close();
    }
  });

  test('sends each at its own time, in order, following edits of the time, and leaves the sender’s copy unread unless asked', async () => {
    const { clock, server, sender, reader, now } = await freshServer();
    try {
      const late = await schedule(sender, { type: 'direct', to: [reader.userId], content: 'second', scheduled_delivery_timestamp: now() + 3600 });
      const early = await schedule(sender, { type: 'direct', to: [reader.userId], content: 'first', scheduled_delivery_timestamp: now() + 1800 });
      // Moved from an hour away to two minutes away: the timer follows.
      assert.equal((await sender.patch(`/scheduled_messages/${late}`, { scheduled_delivery_timestamp: now() + 120 })).status, 200);
      const cancelled = await schedule(sender, { type: 'direct', to: [reader.userId], content: 'never', scheduled_delivery_timestamp: now() + 60 });
      await sender.delete(`/scheduled_messages/${cancelled}`);

      clock.advance(2 * MINUTE);
      const first = await newestMessage(reader);
      assert.equal(first?.content, 'second');
      assert.deepEqual((await fetchMessage(sender, first!.id)).flags, [], 'unread by an API client’s sender by default');
      assert.deepEqual((await sender.get('/scheduled_messages')).body.scheduled_messages.map((m: { scheduled_message_id: number }) => m.scheduled_message_id), [early]);

      clock.advance(28 * MINUTE);
      assert.equal((await newestMessage(reader))?.content, 'first');
      assert.deepEqual((await sender.get('/scheduled_messages')).body.scheduled_messages, []);
      const sent = server.stoa.db.prepare("SELECT count(*) AS n FROM messages WHERE content = 'never'").get() as { n: number };
      assert.equal(sent.n, 0, 'a deleted one is never sent');
    } finally {
      await server.close();
    }
  });

  test('a note to self scheduled from an interactive app stays unread, to come back as a reminder', async () => {
    const { clock, server, sender, now } = await freshServer();
    try {
      const terminal = { headers: { 'user-agent': 'ZulipTerminal/0.7.0 (Linux)' } };
      const note = await sender.request('POST', '/scheduled_messages', { type: 'direct', to: [sender.userId], content: 'remember', scheduled_delivery_timestamp: now() + 60 }, terminal);
      const toOther = await sender.request('POST', '/scheduled_messages', { type: 'stream', to: (await createChannel(sender)).id, topic: 't', content: 'said', scheduled_delivery_timestamp: now() + 60 }, terminal);
      assert.equal(note.status, 200);
      assert.equal(toOther.status, 200);
      clock.advance(MINUTE);
      const messages = (await sender.get('/messages', { anchor: 'newest', num_before: 2, num_after: 0 })).body.messages;
      assert.deepEqual(
        messages.map((m: { content: string; flags: string[]; client: string }) => [m.content, m.flags, m.client]),
        [
          ['<p>remember</p>', [], 'ZulipTerminal'],
          ['<p>said</p>', ['read'], 'ZulipTerminal'],
        ],
      );
    } finally {
      await server.close();
    }
  });

  test('a message that came due while the server was stopped is sent when it starts again', async () => {
    const { clock, server, channel, sender, now } = await freshServer();
    try {
      const id = await schedule(sender, { type: 'stream', to: channel.id, topic: 'overnight', content: 'while you were out', scheduled_delivery_timestamp: now() + 60 });
      await server.running.close();
      clock.advance(5 * MINUTE);
      await server.restart();
      const again = server.anonymous.as(sender.credentials);
      await eventually(async () => (await again.get('/scheduled_messages')).body.scheduled_messages.length === 0);
      const sent = await newestMessage(again);
      assert.equal(sent?.content, 'while you were out');
      assert.equal(sent?.timestamp, now(), 'sent on start, five minutes late');
      const row = server.stoa.db.prepare('SELECT delivered, failed FROM scheduled_messages WHERE id = ?').get(id);
      assert.deepEqual(row, { delivered: 1, failed: 0 });
    } finally {
      await server.close();
    }
  });

  test('one found more than ten minutes late at start is not sent: it fails, and the sender is told', async () => {
    const { clock, server, sender, reader, now } = await freshServer();
    try {
      const due = now() + 60;
      const id = await schedule(sender, { type: 'direct', to: [reader.userId], content: 'stale news', scheduled_delivery_timestamp: due });
      await server.running.close();
      clock.advance(60 * MINUTE);
      await server.restart();
      const again = server.anonymous.as(sender.credentials);
      await eventually(async () => (await again.get('/scheduled_messages')).body.scheduled_messages[0]?.failed === true);
      const notice = await newestMessage(again);
      assert.equal(notice?.sender_email, NOTIFICATION_BOT);
      assert.match(notice!.content, /Message could not be sent at the scheduled time\./);
      assert.ok(notice!.content.includes('<time:2026-03-01T12:01:00+00:00>'), notice!.content);
      const readerSide = await newestMessage(server.anonymous.as(reader.credentials));
      assert.notEqual(readerSide?.content, 'stale news');
      assert.equal((await again.get('/scheduled_messages')).body.scheduled_messages[0].scheduled_message_id, id);
    } finally {
      await server.close();
    }
  });

  test('checks the sender’s permissions again when sending: a failure is kept, marked failed, and the notification bot says why', async () => {
    const { clock, server, sender, now } = await freshServer();
    try {
      const secret = await createChannel(server.owner, { invite_only: true, principals: [server.ownerId, sender.userId] });
      const id = await schedule(sender, { type: 'stream', to: secret.id, topic: 'plans', content: 'the plan', scheduled_delivery_timestamp: now() + 60 });
      const events = await listen(sender, { event_types: ['message', 'scheduled_messages'] });
      // The sender loses access before it is due.
      assert.equal((await server.owner.delete('/users/me/subscriptions', { subscriptions: [secret.name], principals: [sender.userId] })).status, 200);

      clock.advance(MINUTE);
      const [failed, notice] = await events();
      const expected = {
        scheduled_message_id: id,
        to: secret.id,
        type: 'stream',
        content: 'the plan',
        rendered_content: '<p>the plan</p>',
        topic: 'plans',
        scheduled_delivery_timestamp: now(),
        failed: true,
      };
      assert.deepEqual(failed, { type: 'scheduled_messages', op: 'update', scheduled_message: expected });
      assert.equal(notice.type, 'message');
      assert.equal(notice.message.sender_email, NOTIFICATION_BOT);
      assert.deepEqual(notice.flags, [], 'the notice is unread');
      assert.match(notice.message.content, new RegExp(`Not authorized to send to channel '${secret.name}'`));
      assert.match(notice.message.content, /\(#scheduled\)$/, 'links to the scheduled messages');
      assert.deepEqual((await sender.get('/scheduled_messages')).body.scheduled_messages, [expected], 'still listed, as failed');
      const channelMessages = server.stoa.db.prepare("SELECT count(*) AS n FROM messages WHERE content = 'the plan'").get() as { n: number };
      assert.equal(channelMessages.n, 0);

      // Editing a failed message needs a new time; then it is tried again.
      const path = `/scheduled_messages/${id}`;
      assert.equal(await refusal(sender.patch(path, { content: 'the new plan' })), 'Scheduled delivery time must be in the future.');
      await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], principals: [sender.userId] });
      assert.equal((await sender.patch(path, { scheduled_delivery_timestamp: now() + 60 })).status, 200);
      const [retried] = (await events()).filter((e) => e.type === 'scheduled_messages');
      assert.equal(retried.scheduled_message.failed, false);
      clock.advance(MINUTE);
      const delivered = await events();
      assert.equal(delivered.find((e) => e.type === 'message')?.message.content, 'the plan');
      assert.deepEqual(delivered.at(-1), { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
    } finally {
      await server.close();
    }
  });

  test('fails for an archived channel, a deactivated recipient, and silently for a deactivated sender', async () => {
    const { clock, server, channel, sender, reader, now } = await freshServer();
    try {
      const leaving = await server.createUser('Leaving');
      const archived = await createChannel(server.owner, { principals: [server.ownerId, sender.userId] });
      const toArchived = await schedule(sender, { type: 'stream', to: archived.id, topic: 't', content: 'to the archive', scheduled_delivery_timestamp: now() + 60 });
      const toLeaving = await schedule(sender, { type: 'direct', to: [leaving.userId], content: 'bye', scheduled_delivery_timestamp: now() + 60 });
      const fromLeaving = await schedule(leaving, { type: 'stream', to: channel.id, topic: 't', content: 'my last words', scheduled_delivery_timestamp: now() + 60 });
      assert.equal((await server.owner.delete(`/streams/${archived.id}`)).status, 200);
      assert.equal((await server.owner.delete(`/users/${leaving.userId}`)).status, 200);

      clock.advance(MINUTE);
      const failures = server.stoa.db
        .prepare('SELECT id, failed, failure_message FROM scheduled_messages WHERE id IN (?, ?, ?) ORDER BY id')
        .all(toArchived, toLeaving, fromLeaving);
      assert.deepEqual(failures, [
        { id: toArchived, failed: 1, failure_message: `Not authorized to send to channel '${archived.name}'` },
        { id: toLeaving, failed: 1, failure_message: `'${leaving.credentials.email}' is no longer using Zulip.` },
        { id: fromLeaving, failed: 1, failure_message: 'Account is deactivated' },
      ]);
      const notices = (await sender.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, apply_markdown: false })).body.messages.filter(
        (m: { sender_email: string; content: string }) => m.sender_email === NOTIFICATION_BOT && m.content.includes('could not be sent'),
      );
      assert.equal(notices.length, 2, 'one notice per failure of the active sender');
      const words = (await reader.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 })).body.messages.map((m: { content: string }) => m.content);
      assert.ok(!words.includes('<p>my last words</p>'));
    } finally {
      await server.close();
    }
  });

  test('register state plus the events of sending equals a fresh register', async () => {
    const { clock, server, channel, sender, reader, now } = await freshServer();
    try {
      await schedule(sender, { type: 'stream', to: channel.id, topic: 't', content: 'soon', scheduled_delivery_timestamp: now() + 60 });
      await schedule(sender, { type: 'direct', to: [reader.userId], content: 'later', scheduled_delivery_timestamp: now() + 600 });
      const secret = await createChannel(server.owner, { invite_only: true, principals: [server.ownerId, sender.userId] });
      await schedule(sender, { type: 'stream', to: secret.id, topic: 't', content: 'refused', scheduled_delivery_timestamp: now() + 30 });
      await server.owner.delete('/users/me/subscriptions', { subscriptions: [secret.name], principals: [sender.userId] });
      const state = (await sender.post('/register', { fetch_event_types: ['scheduled_messages'] })).body;
      assert.equal(state.scheduled_messages.length, 3);

      clock.advance(MINUTE);
      const polled = await sender.get('/events', { queue_id: state.queue_id, last_event_id: state.last_event_id, dont_block: true });
      for (const event of polled.body.events) applyEvent(state, event);
      const fresh = (await sender.post('/register', { fetch_event_types: ['scheduled_messages'] })).body;
      assert.deepEqual(state.scheduled_messages, fresh.scheduled_messages);
      assert.deepEqual(
        fresh.scheduled_messages.map((m: { content: string; failed: boolean }) => [m.content, m.failed]),
        [
          ['refused', true],
          ['later', false],
        ],
      );
    } finally {
      await server.close();
    }
  });
});
