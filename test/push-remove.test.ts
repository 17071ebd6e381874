import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sodium from 'libsodium-wrappers';
import { backgroundSettled } from '../lib/push/background';
import type { Client } from './support/client';
import { assertValidResponse12 } from './support/openapi';
import { openNotification, TestRelay, type RelayRequest } from './support/relay';
import { TestServer } from './support/server';

/**
 * "Remove" notifications (Zulip's handle_remove_push_notification, payloads of level 413): a
 * notification that was pushed is withdrawn from the phones when its message is read, deleted,
 * moved out of the user's reach or edited to no longer mention them, once per batch.
 */

type User = Client & { userId: number };

describe('withdrawing push notifications', () => {
  let relay: TestRelay;
  let server: TestServer;
  before(async () => {
    await sodium.ready;
    relay = await TestRelay.start();
    server = await TestServer.start({ pushRelay: relay.url });
  });
  after(async () => {
    await server.close();
    await relay.close();
  });

  /** A user with a legacy Android token and an end-to-end-encrypted device, and a sender. */
  async function phoneOwner(name: string): Promise<{ user: User; sender: User; secret: Uint8Array }> {
    const [sender, user] = [await server.createUser(`${name} sender`), await server.createUser(name)];
    assert.equal((await user.post('/users/me/android_gcm_reg_id', { token: `${name}-android` })).status, 200);
    const deviceId = (await user.post('/register_client_device')).body.device_id;
    const secret = randomBytes(32);
    const token = `${name}-e2ee`;
    const registered = await user.post('/mobile_push/register', {
      device_id: deviceId,
      push_key: Buffer.concat([Buffer.from([0x31]), secret]).toString('base64'),
      push_key_id: 77,
      token_kind: 'fcm',
      token_id: createHash('sha256').update(token).digest().subarray(0, 8).toString('base64'),
      bouncer_public_key: 'relay-key',
      encrypted_push_registration: `sealed:${token}`,
    });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    await backgroundSettled(server.stoa);
    return { user, sender, secret };
  }

  async function dm(from: User, to: User, content: string): Promise<number> {
    const sent = await from.post('/messages', { type: 'direct', to: JSON.stringify([to.userId]), content });
    assert.equal(sent.status, 200);
    await backgroundSettled(server.stoa);
    return sent.body.id;
  }

  /** What the relay was asked after `mark`, for one user, split by path. */
  function sentSince(mark: number, userId: number) {
    const later = relay.requests.slice(mark);
    const legacy = later.filter((r) => r.endpoint === 'push/notify' && r.body.user_id === userId);
    const encrypted = later.filter((r) => r.endpoint === 'push/e2ee/notify');
    return { legacy, encrypted };
  }

  function removals(requests: RelayRequest[]) {
    return requests.filter((r) => r.body.gcm_payload.event === 'remove');
  }

  test('reading a notified message sends one "remove" payload of Zulip\'s shape, by both paths', async () => {
    const { user, sender, secret } = await phoneOwner('reader');
    const first = await dm(sender, user, 'one');
    const second = await dm(sender, user, 'two');
    const mark = relay.requests.length;
    const read = await user.post('/messages/flags', { messages: JSON.stringify([first, second]), op: 'add', flag: 'read' });
    assertValidResponse12('post', '/messages/flags', read.status, read.body);
    await backgroundSettled(server.stoa);
    const { legacy, encrypted } = sentSince(mark, user.userId);
    assert.equal(legacy.length, 1);
    const { body } = legacy[0];
    assert.deepEqual(body.android_devices, ['reader-android']);
    assert.deepEqual(body.gcm_options, { priority: 'normal' });
    assert.deepEqual(body.gcm_payload, {
      realm_name: 'Stoa',
      realm_url: server.url,
      realm_uri: server.url,
      user_id: user.userId,
      event: 'remove',
      zulip_message_ids: `${first},${second}`,
    });
    assert.ok(!('zulip_message_id' in body.gcm_payload), 'level 413 dropped the pre-2019 field');
    assert.deepEqual(body.apns_payload, { badge: 0, custom: { zulip: body.gcm_payload } });
    assert.equal(encrypted.length, 1);
    const [request] = encrypted[0].body.push_requests;
    assert.equal(request.push_key_id, 77);
    assert.deepEqual(openNotification(request.encrypted_data, secret), {
      realm_url: server.url,
      realm_name: 'Stoa',
      user_id: user.userId,
      type: 'remove',
      message_ids: [first, second],
    });

    // Withdrawn once: reading again, or marking unread and read, sends nothing more.
    const again = relay.requests.length;
    await user.post('/messages/flags', { messages: JSON.stringify([first]), op: 'remove', flag: 'read' });
    await user.post('/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'read' });
    await backgroundSettled(server.stoa);
    assert.deepEqual(sentSince(again, user.userId), { legacy: [], encrypted: [] });
  });

  test('messages never pushed, or read before the push, are not withdrawn; the flag is no client\'s', async () => {
    const { user, sender } = await phoneOwner('quiet');
    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'quiet room' }], principals: [sender.userId, user.userId] });
    const plain = await sender.post('/messages', { type: 'stream', to: 'quiet room', topic: 't', content: 'no mention here' });
    await backgroundSettled(server.stoa);
    const mark = relay.requests.length;
    await user.post('/messages/flags', { messages: JSON.stringify([plain.body.id]), op: 'add', flag: 'read' });
    await backgroundSettled(server.stoa);
    assert.deepEqual(sentSince(mark, user.userId), { legacy: [], encrypted: [] });

    const refused = await user.post('/messages/flags', { messages: JSON.stringify([plain.body.id]), op: 'add', flag: 'active_mobile_push_notification' });
    assert.deepEqual([refused.status, refused.body.msg], [400, "Invalid flag: 'active_mobile_push_notification'"]);
    const id = await dm(sender, user, 'seen');
    const fetched = await user.get(`/messages/${id}`);
    assert.deepEqual(fetched.body.message.flags, [], 'the notified state is not a flag clients see');
  });

  test('marking everything, a channel or a muted sender read withdraws what was showing', async () => {
    const { user, sender } = await phoneOwner('bulk');
    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'bulk room' }], principals: [sender.userId, user.userId] });
    const mention = await sender.post('/messages', { type: 'stream', to: 'bulk room', topic: 't', content: '@**bulk** look' });
    await backgroundSettled(server.stoa);
    let mark = relay.requests.length;
    const channelId = (await user.get('/get_stream_id', { stream: 'bulk room' })).body.stream_id;
    assert.equal((await user.post('/mark_stream_as_read', { stream_id: channelId })).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [String(mention.body.id)]);

    const [a, b] = [await dm(sender, user, 'a'), await dm(sender, user, 'b')];
    mark = relay.requests.length;
    assert.equal((await user.post('/mark_all_as_read')).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [`${a},${b}`]);

    const c = await dm(sender, user, 'c');
    mark = relay.requests.length;
    assert.equal((await user.post(`/users/me/muted_users/${sender.userId}`)).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [String(c)]);
  });

  test('deleting a notified message withdraws it, though the message is gone', async () => {
    const { user, sender } = await phoneOwner('deleted');
    const id = await dm(sender, user, 'oops');
    const mark = relay.requests.length;
    assert.equal((await sender.delete(`/messages/${id}`)).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [String(id)]);
  });

  test('an edit that drops the mention, or a move out of reach, withdraws it', async () => {
    const { user, sender } = await phoneOwner('mentioned');
    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'open room' }], principals: [sender.userId, user.userId] });
    const sent = await sender.post('/messages', { type: 'stream', to: 'open room', topic: 't', content: 'hey @**mentioned**' });
    await backgroundSettled(server.stoa);
    let mark = relay.requests.length;
    assert.equal((await sender.patch(`/messages/${sent.body.id}`, { content: 'hey everyone (never mind)' })).status, 200);
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [String(sent.body.id)]);

    const again = await sender.post('/messages', { type: 'stream', to: 'open room', topic: 'secret', content: '@**mentioned** psst' });
    await backgroundSettled(server.stoa);
    await server.owner.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'closed room' }]), invite_only: true });
    mark = relay.requests.length;
    const moved = await server.owner.patch(`/messages/${again.body.id}`, {
      stream_id: (await server.owner.get('/get_stream_id', { stream: 'closed room' })).body.stream_id,
      propagate_mode: 'change_all',
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await user.get(`/messages/${again.body.id}`)).body.msg, 'Invalid message(s)');
    await backgroundSettled(server.stoa);
    assert.deepEqual(removals(sentSince(mark, user.userId).legacy).map((r) => r.body.gcm_payload.zulip_message_ids), [String(again.body.id)]);
  });

  test('one withdrawal names at most the newest 200 messages', async () => {
    const { user, sender } = await phoneOwner('busy');
    const ids: number[] = [];
    for (let i = 0; i < 203; i++) {
      const sent = await sender.post('/messages', { type: 'direct', to: JSON.stringify([user.userId]), content: `m${i}` });
      ids.push(sent.body.id);
    }
    await backgroundSettled(server.stoa);
    const mark = relay.requests.length;
    await user.post('/messages/flags', { messages: JSON.stringify(ids), op: 'add', flag: 'read' });
    await backgroundSettled(server.stoa);
    const [removal] = removals(sentSince(mark, user.userId).legacy);
    assert.equal(removal.body.gcm_payload.zulip_message_ids, ids.slice(3).join(','));
    // All 203 stop counting as showing: marking everything read later withdraws nothing.
    const later = relay.requests.length;
    await user.post('/mark_all_as_read');
    await backgroundSettled(server.stoa);
    assert.deepEqual(sentSince(later, user.userId).legacy, []);
  });
});
