import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sodium from 'libsodium-wrappers';
import { backgroundSettled } from '../lib/push/background';
import type { Client } from './support/client';
import { listen12 } from './support/events';
import { assertValidResponse12 } from './support/openapi';
import { openNotification, TestRelay } from './support/relay';
import { TestServer } from './support/server';

/**
 * End-to-end-encrypted push registration by logged-in device (Zulip 12, level 468): a device
 * from POST /register_client_device, then POST /mobile_push/register with its key and token,
 * rotations of either, `device` update events, register's `devices`, and notifications
 * encrypted with the device's key.
 */

/** A push key as the app makes one: the secretbox cryptosystem's byte, then 32 random bytes. */
function newPushKey(): { pushKey: string; secret: Uint8Array } {
  const secret = randomBytes(32);
  return { pushKey: Buffer.concat([Buffer.from([0x31]), secret]).toString('base64'), secret };
}

/** The token's ID as the app computes it: the first 8 bytes of its SHA-256, in base64. */
function tokenIdOf(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 8).toString('base64');
}

function tokenFields(token: string, registration = `sealed:${token}`) {
  return { token_kind: 'fcm', token_id: tokenIdOf(token), bouncer_public_key: 'relay-key-1', encrypted_push_registration: registration };
}

function refusal(response: { status: number; body: any }): [number, string, string] {
  return [response.status, response.body.code, response.body.msg];
}

async function newDevice(user: Client): Promise<number> {
  const registered = await user.post('/register_client_device');
  assertValidResponse12('post', '/register_client_device', registered.status, registered.body);
  return registered.body.device_id as number;
}

async function devicesOf(user: Client): Promise<Record<string, any>> {
  const state = await user.post('/register', { fetch_event_types: ['device'] });
  assertValidResponse12('post', '/register', state.status, state.body);
  assert.ok(!('push_devices' in state.body), 'level 468 removed push_devices');
  return state.body.devices;
}

describe('push registration by device without a relay', () => {
  let server: TestServer;
  before(async () => {
    server = await TestServer.start();
  });
  after(() => server.close());

  test('is refused as Zulip refuses it, and the test notification finds no device', async () => {
    const user = await server.createUser();
    const deviceId = await newDevice(user);
    const register = await user.post('/mobile_push/register', { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 1, ...tokenFields('t') });
    assertValidResponse12('post', '/mobile_push/register', register.status, register.body);
    assert.deepEqual(refusal(register), [400, 'PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.']);
    const e2ee = await user.post('/mobile_push/e2ee/test_notification', { device_id: deviceId });
    assertValidResponse12('post', '/mobile_push/e2ee/test_notification', e2ee.status, e2ee.body);
    assert.deepEqual(refusal(e2ee), [400, 'NO_ACTIVE_PUSH_DEVICE', 'No active registered push device']);
  });
});

describe('push registration by device', () => {
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

  test('registers key and token, goes through the relay, and tells every client', async () => {
    const user = await server.createUser();
    const deviceId = await newDevice(user);
    const events = await listen12(user, { event_types: ['device'] });
    const { pushKey, secret } = newPushKey();
    const token = tokenFields('phone-token-1');
    const before = Math.floor(Date.now() / 1000);
    const registered = await user.post('/mobile_push/register', { device_id: deviceId, push_key: pushKey, push_key_id: 2408, ...token });
    assertValidResponse12('post', '/mobile_push/register', registered.status, registered.body);
    assert.equal(registered.status, 200, JSON.stringify(registered.body));

    const pending = (await devicesOf(user))[deviceId];
    assert.equal(pending.pending_push_token_id, token.token_id);
    assert.equal(pending.push_token_id, null);
    assert.ok(pending.push_token_last_updated_timestamp >= before);
    await backgroundSettled(server.stoa);
    const [first, second] = await events();
    assert.deepEqual(first, {
      type: 'device',
      op: 'update',
      device_id: deviceId,
      push_key_id: 2408,
      pending_push_token_id: token.token_id,
      push_token_last_updated_timestamp: pending.push_token_last_updated_timestamp,
      push_registration_error_code: null,
    });
    assert.deepEqual(second, { type: 'device', op: 'update', device_id: deviceId, push_token_id: token.token_id, pending_push_token_id: null });
    assert.deepEqual(relay.to('push/e2ee/register').slice(-1)[0].body, {
      realm_url: server.url,
      realm_uuid: (await user.post('/register', { fetch_event_types: ['realm'] })).body.realm_uuid,
      token_id: token.token_id,
      encrypted_push_registration: token.encrypted_push_registration,
      bouncer_public_key: 'relay-key-1',
    });
    assert.deepEqual((await devicesOf(user))[deviceId], {
      push_key_id: 2408,
      push_token_id: token.token_id,
      pending_push_token_id: null,
      push_token_last_updated_timestamp: pending.push_token_last_updated_timestamp,
      push_registration_error_code: null,
    });

    // The same registration again changes nothing and bothers nobody.
    const sentBefore = relay.to('push/e2ee/register').length;
    assert.equal((await user.post('/mobile_push/register', { device_id: deviceId, push_key: pushKey, push_key_id: 2408, ...token })).status, 200);
    await backgroundSettled(server.stoa);
    assert.equal(relay.to('push/e2ee/register').length, sentBefore);
    assert.deepEqual(await events(), []);

    // Test notifications are encrypted with the device's key and name it by token and key ID.
    const tested = await user.post('/mobile_push/e2ee/test_notification', { device_id: deviceId });
    assertValidResponse12('post', '/mobile_push/e2ee/test_notification', tested.status, tested.body);
    assert.equal(tested.status, 200);
    const [request] = relay.to('push/e2ee/notify').slice(-1)[0].body.push_requests;
    assert.equal(request.token_id, token.token_id);
    assert.equal(request.push_key_id, 2408);
    const opened = openNotification(request.encrypted_data, secret);
    assert.deepEqual({ ...opened, time: 0 }, { type: 'test', realm_url: server.url, realm_name: 'Stoa', user_id: user.userId, time: 0 });
    const other = await user.post('/mobile_push/e2ee/test_notification', { device_id: deviceId + 1000 });
    assert.equal(other.body.code, 'NO_ACTIVE_PUSH_DEVICE');
  });

  test('rotates the key alone and the token alone', async () => {
    const user = await server.createUser();
    const deviceId = await newDevice(user);
    const first = newPushKey();
    const rotatedKey = newPushKey();
    const keyOnly = { device_id: deviceId, push_key: rotatedKey.pushKey, push_key_id: 1144 };
    const tokenOnly = { device_id: deviceId, ...tokenFields('phone-token-2') };
    assert.deepEqual(refusal(await user.post('/mobile_push/register', keyOnly)), [400, 'BAD_REQUEST', 'No push registration exists to rotate key for.']);
    assert.deepEqual(refusal(await user.post('/mobile_push/register', tokenOnly)), [400, 'BAD_REQUEST', 'No push registration exists to rotate token for.']);

    await user.post('/mobile_push/register', { device_id: deviceId, push_key: first.pushKey, push_key_id: 1, ...tokenFields('phone-token-1') });
    await backgroundSettled(server.stoa);
    const events = await listen12(user, { event_types: ['device'] });

    assert.equal((await user.post('/mobile_push/register', keyOnly)).status, 200);
    assert.deepEqual(await events(), [{ type: 'device', op: 'update', device_id: deviceId, push_key_id: 1144 }]);
    assert.equal((await user.post('/mobile_push/register', keyOnly)).status, 200);
    assert.deepEqual(await events(), [], 'the same key again is no change');

    assert.equal((await user.post('/mobile_push/register', tokenOnly)).status, 200);
    await backgroundSettled(server.stoa);
    const [pending, done] = await events();
    assert.deepEqual(Object.keys(pending).sort(), ['device_id', 'op', 'pending_push_token_id', 'push_registration_error_code', 'push_token_last_updated_timestamp', 'type']);
    assert.equal(pending.pending_push_token_id, tokenOnly.token_id);
    assert.deepEqual(done, { type: 'device', op: 'update', device_id: deviceId, push_token_id: tokenOnly.token_id, pending_push_token_id: null });

    // Notifications use the rotated key.
    await user.post('/mobile_push/e2ee/test_notification', { device_id: deviceId });
    const [request] = relay.to('push/e2ee/notify').slice(-1)[0].body.push_requests;
    assert.equal(request.push_key_id, 1144);
    assert.equal(openNotification(request.encrypted_data, rotatedKey.secret).type, 'test');
  });

  test('refuses what is missing or malformed, in Zulip words', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const deviceId = await newDevice(user);
    const full = { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 7, ...tokenFields('t') };
    const cases: Array<[Record<string, unknown>, string, Client?]> = [
      [full, 'Invalid `device_id`', other],
      [{ ...full, device_id: 999999 }, 'Invalid `device_id`'],
      [{ device_id: deviceId, push_key: full.push_key, token_kind: 'fcm' }, 'Missing parameters: must provide either all push key fields, all token fields, or both.'],
      [{ ...full, push_key: '@abcdefg' }, 'Invalid `push_key`'],
      [{ ...full, push_key: 'abcd' }, 'Invalid `push_key`'],
      [{ ...full, push_key: Buffer.concat([Buffer.from([0x32]), randomBytes(32)]).toString('base64') }, 'Invalid `push_key`'],
      [{ ...full, token_id: '@abcdefg' }, '`token_id` is not Base64 encoded'],
    ];
    for (const [params, msg, who] of cases) {
      const response = await (who ?? user).post('/mobile_push/register', params);
      assertValidResponse12('post', '/mobile_push/register', response.status, response.body);
      assert.deepEqual(refusal(response), [400, 'BAD_REQUEST', msg], JSON.stringify(params));
    }
    for (const push_key_id of [-1, 4294967296]) {
      const response = await user.post('/mobile_push/register', { ...full, push_key_id });
      assert.equal(response.status, 400, `push_key_id ${push_key_id}`);
    }
    assert.equal((await user.post('/mobile_push/register', { push_key: full.push_key, push_key_id: 1 })).body.msg, 'Missing \'device_id\' argument');
    assert.deepEqual((await devicesOf(user))[deviceId].push_key_id, null, 'nothing was half written');
  });

  test('a registration in progress holds back another', async () => {
    const user = await server.createUser();
    const deviceId = await newDevice(user);
    const params = { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 4, ...tokenFields('waiting-phone') };
    // A relay that is down leaves the registration pending.
    relay.answer = () => ({ status: 503, body: 'unavailable' });
    try {
      assert.equal((await user.post('/mobile_push/register', params)).status, 200);
      await backgroundSettled(server.stoa);
    } finally {
      relay.answer = TestRelay.success;
    }
    const again = await user.post('/mobile_push/register', { ...params, ...tokenFields('other-phone') });
    assert.deepEqual(refusal(again), [400, 'BAD_REQUEST', 'A registration for the device already in progress.']);
    const device = (await devicesOf(user))[deviceId];
    assert.deepEqual([device.pending_push_token_id, device.push_token_id, device.push_registration_error_code], [tokenIdOf('waiting-phone'), null, null]);
  });

  test('a registration the relay refuses fails with its code, and may be sent again', async () => {
    const user = await server.createUser();
    const deviceId = await newDevice(user);
    const events = await listen12(user, { event_types: ['device'] });
    const params = { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 5, ...tokenFields('stale', 'stale-registration') };
    relay.answer = (request) =>
      request.endpoint === 'push/e2ee/register'
        ? { status: 400, body: { result: 'error', code: 'INVALID_BOUNCER_PUBLIC_KEY', msg: 'Invalid bouncer_public_key' } }
        : TestRelay.success();
    try {
      assert.equal((await user.post('/mobile_push/register', params)).status, 200);
      await backgroundSettled(server.stoa);
    } finally {
      relay.answer = TestRelay.success;
    }
    assert.deepEqual((await events()).at(-1), { type: 'device', op: 'update', device_id: deviceId, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });
    assert.equal((await devicesOf(user))[deviceId].push_registration_error_code, 'INVALID_BOUNCER_PUBLIC_KEY');

    assert.equal((await user.post('/mobile_push/register', { ...params, ...tokenFields('fresh') })).status, 200);
    await backgroundSettled(server.stoa);
    const device = (await devicesOf(user))[deviceId];
    assert.deepEqual([device.push_token_id, device.pending_push_token_id, device.push_registration_error_code], [tokenIdOf('fresh'), null, null]);
  });

  test('a registered device replaces the legacy token of the same phone (level 483)', async () => {
    const user = await server.createUser();
    await user.post('/users/me/android_gcm_reg_id', { token: 'shared-phone' });
    await user.post('/users/me/android_gcm_reg_id', { token: 'another-phone' });
    const deviceId = await newDevice(user);
    const unregisteredBefore = relay.to('push/unregister').length;
    await user.post('/mobile_push/register', { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 9, ...tokenFields('shared-phone') });
    await backgroundSettled(server.stoa);
    assert.deepEqual(relay.to('push/unregister').slice(unregisteredBefore).map((r) => r.body.token), ['shared-phone']);
    assert.equal((await user.delete('/users/me/android_gcm_reg_id', { token: 'shared-phone' })).body.msg, 'Token does not exist');
    assert.equal((await user.delete('/users/me/android_gcm_reg_id', { token: 'another-phone' })).status, 200);
  });

  test('new messages reach registered devices encrypted; tokens the relay forgot are dropped', async () => {
    const [sender, recipient] = [await server.createUser('Sam Sender'), await server.createUser('Rita Recipient')];
    const deviceId = await newDevice(recipient);
    const { pushKey, secret } = newPushKey();
    const token = tokenFields('rita-phone');
    await recipient.post('/mobile_push/register', { device_id: deviceId, push_key: pushKey, push_key_id: 77, ...token });
    await backgroundSettled(server.stoa);
    const events = await listen12(recipient, { event_types: ['device'] });
    relay.answer = (request) =>
      request.endpoint === 'push/e2ee/notify' ? { status: 200, body: { result: 'success', msg: '', delete_token_ids: [token.token_id] } } : TestRelay.success();
    try {
      const before = relay.to('push/e2ee/notify').length;
      await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content: 'Hello **there**' });
      await backgroundSettled(server.stoa);
      const [request] = relay.to('push/e2ee/notify').slice(before)[0].body.push_requests;
      const opened = openNotification(request.encrypted_data, secret);
      assert.equal(opened.type, 'message');
      assert.equal(opened.content, 'Hello there');
      assert.equal(opened.sender_id, sender.userId);
    } finally {
      relay.answer = TestRelay.success;
    }
    assert.deepEqual(await events(), [{ type: 'device', op: 'update', device_id: deviceId, push_token_id: null }]);
    assert.equal((await devicesOf(recipient))[deviceId].push_token_id, null);
    assert.equal((await recipient.post('/mobile_push/e2ee/test_notification')).body.code, 'NO_ACTIVE_PUSH_DEVICE');
  });

  test("what the phone decrypts reads as zulip-flutter's notifications.dart reads it: messages of both kinds, and removals", async () => {
    const [sender, recipient, third] = [await server.createUser('Sol Sender'), await server.createUser('Ria Reader'), await server.createUser('Tim Third')];
    const deviceId = await newDevice(recipient);
    const { pushKey, secret } = newPushKey();
    await recipient.post('/mobile_push/register', { device_id: deviceId, push_key: pushKey, push_key_id: 9, ...tokenFields('ria-phone') });
    await backgroundSettled(server.stoa);
    const register = relay.to('push/e2ee/register').slice(-1)[0].body;
    // Zulip's bouncer request (register-remote-push-device in zulip-12.yaml), with the relay's realm_url.
    assert.deepEqual(Object.keys(register).sort(), ['bouncer_public_key', 'encrypted_push_registration', 'realm_url', 'realm_uuid', 'token_id']);

    /** The next encrypted notification, opened, with its envelope checked. */
    const next = async (send: () => Promise<unknown>) => {
      const before = relay.to('push/e2ee/notify').length;
      await send();
      await backgroundSettled(server.stoa);
      const [request] = relay.to('push/e2ee/notify').slice(before)[0].body.push_requests;
      assert.deepEqual(Object.keys(request).sort(), ['encrypted_data', 'push_key_id', 'token_id']);
      assert.equal(request.push_key_id, 9);
      return openNotification(request.encrypted_data, secret);
    };
    /** The fields MessageFcmMessage requires, of the types it reads (ints as numbers, URLs absolute). */
    const readAsApp = (payload: Record<string, any>) => {
      assert.equal(payload.type, 'message');
      assert.equal(new URL(payload.realm_url).origin, new URL(server.url).origin);
      for (const key of ['user_id', 'sender_id', 'message_id', 'time']) assert.equal(typeof payload[key], 'number', key);
      assert.ok(new URL(payload.sender_avatar_url).protocol.startsWith('http'), 'an absolute avatar URL');
      assert.equal(typeof payload.sender_full_name, 'string');
      assert.equal(typeof payload.content, 'string');
      return payload;
    };

    const direct = readAsApp(await next(() => sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId, third.userId]), content: 'All **three**' })));
    assert.equal(direct.user_id, recipient.userId);
    assert.equal(direct.content, 'All three');
    assert.deepEqual(direct.recipient_user_ids, [sender.userId, recipient.userId, third.userId].sort((a, b) => a - b));
    assert.ok(!('channel_id' in direct), 'a direct message has no channel');

    await sender.post('/users/me/subscriptions', { subscriptions: [{ name: 'app lounge' }], principals: [sender.userId, recipient.userId] });
    const inChannel = readAsApp(await next(() => sender.post('/messages', { type: 'stream', to: 'app lounge', topic: 'news', content: '@**Ria Reader** look' })));
    assert.equal(typeof inChannel.channel_id, 'number');
    assert.deepEqual([inChannel.channel_name, inChannel.topic], ['app lounge', 'news']);
    assert.ok(!('recipient_user_ids' in inChannel));

    const removal = await next(() => recipient.post('/messages/flags', { messages: JSON.stringify([direct.message_id, inChannel.message_id]), op: 'add', flag: 'read' }));
    assert.equal(removal.type, 'remove');
    assert.equal(removal.user_id, recipient.userId);
    assert.deepEqual(removal.message_ids, [direct.message_id, inChannel.message_id]);
  });

  test('registrations survive a restart, and one the relay never got is sent when the server starts again', async () => {
    const user = await server.createUser();
    const [done, interrupted] = [await newDevice(user), await newDevice(user)];
    await user.post('/mobile_push/register', { device_id: done, push_key: newPushKey().pushKey, push_key_id: 1, ...tokenFields('done-phone') });
    await backgroundSettled(server.stoa);
    // The relay is down for the second: it stays pending.
    relay.answer = () => ({ status: 503, body: 'unavailable' });
    try {
      await user.post('/mobile_push/register', { device_id: interrupted, push_key: newPushKey().pushKey, push_key_id: 2, ...tokenFields('late-phone') });
      await backgroundSettled(server.stoa);
    } finally {
      relay.answer = TestRelay.success;
    }
    const sentBefore = relay.to('push/e2ee/register').length;
    await server.restart();
    await backgroundSettled(server.stoa);
    // Every pending registration is sent again (an earlier test left one too); accepted ones are not.
    const resent = relay.to('push/e2ee/register').slice(sentBefore).map((r) => r.body.token_id);
    assert.ok(resent.includes(tokenIdOf('late-phone')) && !resent.includes(tokenIdOf('done-phone')), JSON.stringify(resent));
    const again = server.anonymous.as(user.credentials);
    const devices = await devicesOf(again);
    assert.deepEqual([devices[done].push_token_id, devices[done].push_key_id], [tokenIdOf('done-phone'), 1]);
    assert.deepEqual([devices[interrupted].push_token_id, devices[interrupted].pending_push_token_id], [tokenIdOf('late-phone'), null]);
  });

  test('removing a device, or a new API key, ends its push registration', async () => {
    const user = await server.createUser();
    const [kept, removed] = [await newDevice(user), await newDevice(user)];
    for (const [deviceId, token] of [[kept, 'kept-phone'], [removed, 'removed-phone']] as const) {
      await user.post('/mobile_push/register', { device_id: deviceId, push_key: newPushKey().pushKey, push_key_id: 3, ...tokenFields(token) });
    }
    await backgroundSettled(server.stoa);
    assert.equal((await user.post('/remove_client_device', { device_id: removed })).status, 200);
    await user.post('/mobile_push/e2ee/test_notification');
    assert.deepEqual(relay.to('push/e2ee/notify').slice(-1)[0].body.push_requests.map((r: any) => r.token_id), [tokenIdOf('kept-phone')]);

    const regenerated = await user.post('/users/me/api_key/regenerate');
    assert.equal(regenerated.status, 200);
    const fresh = server.anonymous.as({ email: user.credentials.email, apiKey: regenerated.body.api_key });
    assert.deepEqual(await devicesOf(fresh), {});
    assert.equal((await fresh.post('/mobile_push/e2ee/test_notification')).body.code, 'NO_ACTIVE_PUSH_DEVICE');
  });
});
