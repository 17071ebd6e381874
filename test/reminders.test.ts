import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { ManualClock, TestServer } from './support/server';

const START = Date.UTC(2026, 4, 1, 9, 0, 0);
const HOUR = 3600;
const NOTIFICATION_BOT = 'notification-bot@stoa.local';

/** Waits (a few turns of the event loop at most) until check passes. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail('the condition never held');
}

async function newestMessage(client: Client): Promise<Record<string, any>> {
  const response = await client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false });
  return response.body.messages.at(-1);
}

describe('reminders', () => {
  const clock = new ManualClock(START);
  const now = START / 1000;
  let server: TestServer;
  before(async () => {
    server = await TestServer.start({ clock });
  });
  after(() => server.close());

  test('are listed, announced and, when due, sent by the notification bot quoting the message', async () => {
    const [author, reader] = [await server.createUser('Ada Author'), await server.createUser('Rita Reader')];
    const channel = await createChannel(author, { principals: [author.userId, reader.userId] });
    const messageId = await sendMessage(author, { type: 'stream', to: channel.id, topic: 'plans', content: 'Ship it on **Friday**.' });
    // The queues outlive the hour the clock is moved on (an idle queue lives ten minutes).
    const events = await listen(reader, { event_types: ['reminders'], idle_queue_timeout: 2 * HOUR });
    const others = await listen(author, { event_types: ['reminders'], idle_queue_timeout: 2 * HOUR });

    const created = await reader.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: now + HOUR, note: 'check the release\n' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.reminder_id as number;
    const [listed] = (await reader.get('/reminders')).body.reminders;
    assert.deepEqual(
      { ...listed, content: undefined, rendered_content: undefined },
      { reminder_id: id, type: 'private', to: [reader.userId], content: undefined, rendered_content: undefined, scheduled_delivery_timestamp: now + HOUR, failed: false, reminder_target_message_id: messageId },
    );
    assert.ok(listed.content.startsWith('You requested a reminder for the following message. Note:\n > check the release\n\n'), listed.content);
    assert.ok(listed.content.includes(`@_**Ada Author|${author.userId}** [said](`), listed.content);
    assert.ok(listed.content.includes(`in #**${channel.name}>plans@${messageId}**:\n\`\`\`quote\nShip it on **Friday**.\n\`\`\``), listed.content);
    assert.match(listed.rendered_content, /<blockquote>/);
    assert.deepEqual(await events(), [{ type: 'reminders', op: 'add', reminders: [listed] }]);
    assert.deepEqual(await others(), [], 'a reminder is its user\'s alone');
    assert.deepEqual((await reader.get('/scheduled_messages')).body.scheduled_messages, [], 'reminders are not scheduled messages');
    const registered = await reader.post('/register', { fetch_event_types: ['reminders', 'realm'] });
    assert.deepEqual(registered.body.reminders, [listed]);
    assert.equal(registered.body.max_reminder_note_length, 1000);

    clock.advance(HOUR * 1000);
    await eventually(async () => (await newestMessage(reader))?.sender_email === NOTIFICATION_BOT);
    const reminder = await newestMessage(reader);
    assert.deepEqual([reminder.type, reminder.content, reminder.flags.includes('read')], ['private', listed.content, false]);
    assert.deepEqual(reminder.display_recipient.map((person: { id: number }) => person.id).sort(), [reader.userId, server.stoa.users.byAnyEmail(NOTIFICATION_BOT)!.id].sort());
    const after = await events();
    assert.deepEqual(after.filter((event) => event.type === 'reminders'), [{ type: 'reminders', op: 'remove', reminder_id: id }]);
    assert.deepEqual((await reader.get('/reminders')).body.reminders, []);
  });

  test('about a direct message name its people; a deleted reminder is never sent and survives no restart', async () => {
    const [sender, receiver] = [await server.createUser('Sam Sender'), await server.createUser('Rae Receiver')];
    const dm = await sendMessage(sender, { type: 'direct', to: [receiver.userId], content: '/poll Lunch?\nPizza\nSoup' });
    const created = await receiver.post('/reminders', { message_id: dm, scheduled_delivery_timestamp: now + 10 * HOUR });
    const id = created.body.reminder_id as number;
    const [listed] = (await receiver.get('/reminders')).body.reminders;
    assert.ok(listed.content.startsWith('You requested a reminder for the following direct message.\n\n'), listed.content);
    assert.ok(listed.content.endsWith(`a poll to @_**Rae Receiver|${receiver.userId}**.`), listed.content);

    await server.restart();
    const again = server.anonymous.as(receiver.credentials);
    assert.deepEqual((await again.get('/reminders')).body.reminders, [listed], 'kept across a restart');
    const events = await listen(again, { event_types: ['reminders'] });
    assert.equal((await again.delete(`/reminders/${id}`)).status, 200);
    assert.deepEqual(await events(), [{ type: 'reminders', op: 'remove', reminder_id: id }]);
    const before = (await newestMessage(again)).id;
    clock.advance(11 * HOUR * 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await newestMessage(again)).id, before, 'a deleted reminder is not sent');
  });

  test('refuse times past, messages out of reach, long notes and others\' reminders', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const current = clock.now() / 1000;
    const privateChannel = await createChannel(other, { invite_only: true });
    const hidden = await sendMessage(other, { type: 'stream', to: privateChannel.id, topic: 't', content: 'secret' });
    const visible = await sendMessage(other, { type: 'direct', to: [user.userId], content: 'hi' });
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ message_id: visible, scheduled_delivery_timestamp: current }, 400, 'Scheduled delivery time must be in the future.'],
      [{ message_id: hidden, scheduled_delivery_timestamp: current + HOUR }, 400, 'Invalid message(s)'],
      [{ message_id: visible, scheduled_delivery_timestamp: current + HOUR, note: 'n'.repeat(1001) }, 400, 'Maximum reminder note length: 1000 characters'],
      [{ scheduled_delivery_timestamp: current + HOUR }, 400, "Missing 'message_id' argument"],
    ];
    for (const [params, status, msg] of cases) {
      const response = await user.post('/reminders', params);
      assert.deepEqual([response.status, response.body.msg], [status, msg]);
    }
    const theirs = (await other.post('/reminders', { message_id: visible, scheduled_delivery_timestamp: current + HOUR })).body.reminder_id;
    for (const path of [`/reminders/${theirs}`, '/reminders/999999']) {
      const response = await user.delete(path);
      assert.deepEqual([response.status, response.body.code, response.body.msg], [404, 'BAD_REQUEST', 'Reminder does not exist']);
    }
    const scheduled = await other.post('/scheduled_messages', { type: 'direct', to: [user.userId], content: 'later', scheduled_delivery_timestamp: current + HOUR });
    assert.equal((await other.delete(`/reminders/${scheduled.body.scheduled_message_id}`)).status, 404, 'a scheduled message is no reminder');
    assert.equal((await other.get('/reminders')).body.reminders.length, 1);
  });
});
