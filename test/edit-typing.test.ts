import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel } from './support/channels';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { ManualClock, TestServer } from './support/server';

const clock = new ManualClock();
let server: TestServer;
before(async () => {
  server = await TestServer.start({ clock });
});
after(() => server.close());

describe('POST /messages/{message_id}/typing', () => {
  test('editing a direct message tells the conversation’s people, the editor included', async () => {
    const other = await server.createUser();
    const quiet = await server.createUser();
    const id = await sendMessage(server.owner, { type: 'direct', to: [other.userId, quiet.userId], content: 'draft' });
    assert.equal((await quiet.patch('/settings', { receives_typing_notifications: false })).status, 200);
    const theirs = await listen(other, { event_types: ['typing_edit_message'] });
    const mine = await listen(server.owner, { event_types: ['typing_edit_message'] });
    const quietOnes = await listen(quiet, { event_types: ['typing_edit_message'] });
    const typingOnly = await listen(other, { event_types: ['typing'] });

    for (const op of ['start', 'stop']) {
      const response = await server.owner.post(`/messages/${id}/typing`, { op });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    }
    const listeners = [server.ownerId, other.userId].sort((a, b) => a - b);
    const expected = ['start', 'stop'].map((op) => ({
      type: 'typing_edit_message',
      op,
      sender_id: server.ownerId,
      message_id: id,
      recipient: { type: 'direct', user_ids: listeners },
    }));
    const sorted = (events: Array<Record<string, any>>) =>
      events.map((e) => ({ ...e, recipient: { ...e.recipient, user_ids: [...e.recipient.user_ids].sort((a: number, b: number) => a - b) } }));
    assert.deepEqual(sorted(await theirs()), expected);
    assert.deepEqual(sorted(await mine()), expected);
    assert.deepEqual(await quietOnes(), [], 'someone who turned off typing notifications hears nothing');
    assert.deepEqual(await typingOnly(), [], 'a queue that asked only for typing events gets none of these');
  });

  test('editing a channel message tells its subscribers, with the topic', async () => {
    const subscriber = await server.createUser();
    const outsider = await server.createUser();
    const { id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, subscriber.userId] });
    const id = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 'plans', content: 'first draft' });
    const theirs = await listen(subscriber, { event_types: ['typing_edit_message'] });
    const outside = await listen(outsider, { event_types: ['typing_edit_message'] });
    assert.equal((await server.owner.post(`/messages/${id}/typing`, { op: 'start' })).status, 200);
    assert.deepEqual(await theirs(), [
      {
        type: 'typing_edit_message',
        op: 'start',
        sender_id: server.ownerId,
        message_id: id,
        recipient: { type: 'channel', channel_id: channelId, topic: 'plans' },
      },
    ]);
    assert.deepEqual(await outside(), []);
  });

  test('only someone who may edit the message now may say they are editing it', async () => {
    const other = await server.createUser();
    const { id: channelId } = await createChannel(server.owner, { principals: [server.ownerId, other.userId] });
    const id = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 't', content: 'mine' });
    const notTheirs = await other.post(`/messages/${id}/typing`, { op: 'start' });
    assert.deepEqual(notTheirs.body, { result: 'error', msg: "You don't have permission to edit this message", code: 'BAD_REQUEST' });
    const unknown = await server.owner.post('/messages/999999/typing', { op: 'start' });
    assert.deepEqual(unknown.body, { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    const badOp = await server.owner.post(`/messages/${id}/typing`, { op: 'pause' });
    assert.equal(badOp.status, 400);

    // The editing time limit has no grace period here.
    clock.advance(601_000);
    const late = await server.owner.post(`/messages/${id}/typing`, { op: 'start' });
    assert.deepEqual(late.body, { result: 'error', msg: 'The time limit for editing this message has passed', code: 'BAD_REQUEST' });

    const fresh = await sendMessage(server.owner, { type: 'stream', to: channelId, topic: 't', content: 'new' });
    assert.equal((await server.owner.patch('/settings', { send_stream_typing_notifications: false })).status, 200);
    const off = await server.owner.post(`/messages/${fresh}/typing`, { op: 'start' });
    assert.deepEqual(off.body, { result: 'error', msg: 'User has disabled typing notifications for channel messages', code: 'BAD_REQUEST' });
    assert.equal((await server.owner.patch('/settings', { send_stream_typing_notifications: true })).status, 200);
  });
});
