import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sodium from 'libsodium-wrappers';
import { backgroundSettled } from '../lib/push/background';
import { Browser } from './support/browser';
import type { ApiResponse, Client } from './support/client';
import { createChannel, uniqueName } from './support/channels';
import { listen12 } from './support/events';
import { sendMessage } from './support/messages';
import { assertValidResponse12 } from './support/openapi';
import { TestRelay } from './support/relay';
import { TestServer } from './support/server';

/**
 * Feature levels between 384 and 420 that Stoa claims, each pinned by what a client sees and
 * checked against Zulip 12's description (zulip-12.yaml).
 */

let server: TestServer;
before(async () => {
  server = await TestServer.start({ webPublic: true });
});
after(() => server.close());

/** Checks a response against Zulip 12's description of the request that produced it. */
function valid12(method: string, path: string, response: ApiResponse): ApiResponse {
  assertValidResponse12(method, `/api/v1${path}`, response.status, response.body);
  return response;
}

function assertError(response: ApiResponse, status: number, msg: string): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.result, 'error');
  assert.equal(response.body.msg, msg);
}

describe('GET /users with user_ids (feature level 384)', () => {
  test('answers only the users asked for, in ID order, deactivated ones included', async () => {
    const first = await server.createUser('Ada Asked');
    const second = await server.createUser('Bea Asked');
    await server.createUser('Cy Not Asked');
    assert.equal((await server.owner.delete(`/users/${second.userId}`)).status, 200);
    const response = valid12('GET', '/users', await server.owner.get('/users', { user_ids: JSON.stringify([second.userId, first.userId, first.userId]) }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(
      response.body.members.map((m: any) => [m.user_id, m.full_name, m.is_active]),
      [
        [first.userId, 'Ada Asked', true],
        [second.userId, 'Bea Asked', false],
      ],
    );
    const empty = valid12('GET', '/users', await server.owner.get('/users', { user_ids: '[]' }));
    assert.deepEqual(empty.body.members, []);
  });

  test('without user_ids everyone is listed, as before', async () => {
    const response = valid12('GET', '/users', await server.owner.get('/users'));
    assert.ok(response.body.members.length >= 4);
    assert.ok(response.body.members.some((m: any) => m.user_id === server.ownerId));
  });

  test('IDs of nobody here are left out, as on Zulip; malformed lists are refused', async () => {
    const unknown = valid12('GET', '/users', await server.owner.get('/users', { user_ids: JSON.stringify([server.ownerId, 999999]) }));
    assert.equal(unknown.status, 200, JSON.stringify(unknown.body));
    assert.deepEqual(unknown.body.members.map((m: any) => m.user_id), [server.ownerId]);
    const notJson = await server.owner.get('/users', { user_ids: 'not json' });
    assert.equal(notJson.status, 400, JSON.stringify(notJson.body));
    assert.equal(notJson.body.result, 'error');
    assert.equal(notJson.body.code, 'BAD_REQUEST');
    const notIntegers = await server.owner.get('/users', { user_ids: '["a"]' });
    assert.equal(notIntegers.status, 400, JSON.stringify(notIntegers.body));
    assert.equal(notIntegers.body.result, 'error');
  });
});

describe('message_ids sorted ascending in events (feature level 393)', () => {
  test('moving a topic sends update_message with its message_ids in increasing order', async () => {
    const channel = await createChannel(server.owner);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'sorting', content: `m${i}` }));
    const read = await listen12(server.owner, { event_types: ['update_message'] });
    // Moving the topic from its newest message still moves (and names) every message.
    const moved = await server.owner.patch(`/messages/${ids[3]}`, { topic: 'sorted', propagate_mode: 'change_all' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const [event] = (await read()).filter((e) => e.type === 'update_message');
    assert.deepEqual(event.message_ids, ids);
  });

  test('deleting a topic sends delete_message with its message_ids in increasing order', async () => {
    const channel = await createChannel(server.owner);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'gone', content: `m${i}` }));
    const read = await listen12(server.owner, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const deleted = await server.owner.post(`/streams/${channel.id}/delete_topic`, { topic_name: 'gone' });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const events = (await read()).filter((e) => e.type === 'delete_message');
    assert.deepEqual(events.flatMap((e) => e.message_ids), ids);
    for (const event of events) assert.deepEqual(event.message_ids, [...event.message_ids].sort((a: number, b: number) => a - b));
  });

  test('moving to a private channel tells those who lose access, message_ids in increasing order', async () => {
    const member = await server.createUser('Lou Loses Access');
    const open = await createChannel(server.owner);
    assert.equal((await member.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: open.name }]) })).status, 200);
    const closed = await createChannel(server.owner, { invite_only: true });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await sendMessage(server.owner, { type: 'stream', to: open.name, topic: 'secret soon', content: `m${i}` }));
    const read = await listen12(member, { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } });
    const moved = await server.owner.patch(`/messages/${ids[2]}`, { stream_id: closed.id, propagate_mode: 'change_all' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const [event] = (await read()).filter((e) => e.type === 'delete_message');
    assert.deepEqual(event.message_ids, ids);
  });
});

async function createGroup(members: number[]): Promise<number> {
  const created = await server.owner.post('/user_groups/create', { name: uniqueName('group'), description: 'a group', members: JSON.stringify(members) });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.group_id as number;
}

async function deactivateGroup(groupId: number): Promise<void> {
  const response = await server.owner.post(`/user_groups/${groupId}/deactivate`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
}

async function groupById(client: Client, groupId: number): Promise<Record<string, any>> {
  const response = await client.get('/user_groups', { include_deactivated_groups: true });
  return response.body.user_groups.find((g: any) => g.id === groupId);
}

describe('topic links through the latest message (feature level 400)', () => {
  test('a #**channel>topic** link goes /with/ the topic\'s newest message', async () => {
    const channel = await createChannel(server.owner);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'linked', content: `m${i}` }));
    const linkId = await sendMessage(server.owner, { type: 'stream', to: channel.name, topic: 'elsewhere', content: `see #**${channel.name}>linked**` });
    const link = await server.owner.get(`/messages/${linkId}`);
    assert.match(link.body.message.content, new RegExp(`href="[^"]*/topic/linked/with/${ids[2]}"`));
  });
});

describe('deactivated user groups (feature levels 386 and 391)', () => {
  test('PATCH with deactivated=false reactivates a group, with the event Zulip sends', async () => {
    const groupId = await createGroup([server.ownerId]);
    await deactivateGroup(groupId);
    const aware = await listen12(server.owner, { event_types: ['user_group'], client_capabilities: { include_deactivated_groups: true } });
    const unaware = await listen12(server.owner, { event_types: ['user_group'] });
    const response = valid12('PATCH', `/user_groups/${groupId}`, await server.owner.patch(`/user_groups/${groupId}`, { deactivated: false }));
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(await aware(), [{ type: 'user_group', op: 'update', group_id: groupId, data: { deactivated: false } }]);
    // A client that dropped the group when it was deactivated gets it back whole.
    const [added] = await unaware();
    assert.equal(added.op, 'add');
    assert.equal(added.group.id, groupId);
    assert.equal(added.group.deactivated, false);
    assert.equal((await groupById(server.owner, groupId)).deactivated, false);
    const listed = await server.owner.get('/user_groups');
    assert.ok(listed.body.user_groups.some((g: any) => g.id === groupId), 'listed among active groups again');
  });

  test('members and subgroups of a deactivated group can be added and removed', async () => {
    const member = await server.createUser('Deb Deactivated Group');
    const groupId = await createGroup([server.ownerId]);
    const subgroupId = await createGroup([member.userId]);
    await deactivateGroup(groupId);
    const added = await server.owner.post(`/user_groups/${groupId}/members`, { add: JSON.stringify([member.userId]) });
    valid12('POST', `/user_groups/${groupId}/members`, added);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const removed = await server.owner.post(`/user_groups/${groupId}/members`, { delete: JSON.stringify([server.ownerId]) });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const withSubgroup = await server.owner.post(`/user_groups/${groupId}/subgroups`, { add: JSON.stringify([subgroupId]) });
    valid12('POST', `/user_groups/${groupId}/subgroups`, withSubgroup);
    assert.equal(withSubgroup.status, 200, JSON.stringify(withSubgroup.body));
    let group = await groupById(server.owner, groupId);
    assert.equal(group.deactivated, true);
    assert.deepEqual(group.members, [member.userId]);
    assert.deepEqual(group.direct_subgroup_ids, [subgroupId]);
    const withoutSubgroup = await server.owner.post(`/user_groups/${groupId}/subgroups`, { delete: JSON.stringify([subgroupId]) });
    assert.equal(withoutSubgroup.status, 200, JSON.stringify(withoutSubgroup.body));
    group = await groupById(server.owner, groupId);
    assert.deepEqual(group.direct_subgroup_ids, []);
  });
});

describe('GET /users for spectators (feature level 387)', () => {
  /** A browser with no cookies at all: a spectator. */
  const spectator = () => new Browser(server.url);

  test('refused while the organization has no public access', async () => {
    assert.equal((await server.owner.patch('/realm', { enable_spectator_access: false })).status, 200);
    const response = await spectator().get('/users');
    assertError(response, 401, 'Not logged in: API authentication or user session required');
  });

  test('answered, as a spectator sees people, once public access is on', async () => {
    assert.equal((await server.owner.patch('/realm', { enable_spectator_access: true })).status, 200);
    await createChannel(server.owner, { is_web_public: true });
    const response = await spectator().get('/users', { include_custom_profile_fields: true, client_gravatar: false });
    valid12('GET', '/users', response);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const owner = response.body.members.find((m: any) => m.user_id === server.ownerId);
    assert.ok(owner, 'the owner is listed');
    assert.equal(owner.delivery_email, null, 'no real emails for spectators');
    assert.equal(owner.profile_data, undefined, 'no custom profile fields for spectators');
    assert.equal(typeof owner.avatar_url, 'string', 'avatars as URLs');
    const asked = await spectator().get('/users', { user_ids: JSON.stringify([server.ownerId]) });
    assert.deepEqual(asked.body.members.map((m: any) => m.user_id), [server.ownerId]);
    // The same list register gives a spectator.
    const registered = await spectator().post('/register', { fetch_event_types: JSON.stringify(['realm_user']) });
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const everyone = [...registered.body.realm_users, ...registered.body.realm_non_active_users].map((m: any) => m.user_id).sort((a: number, b: number) => a - b);
    assert.deepEqual(response.body.members.map((m: any) => m.user_id), everyone);
  });

  test('still needs credentials under /api/v1', async () => {
    const response = await fetch(`${server.url}/api/v1/users`);
    assert.equal(response.status, 401);
  });
});

describe('realm_incoming_webhook_bots in register (feature levels 403 and 485)', () => {
  test('lists the integrations Stoa serves, with their events and URL options', async () => {
    const response = await server.owner.post('/register', { fetch_event_types: JSON.stringify(['realm_incoming_webhook_bots']) });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const integrations = response.body.realm_incoming_webhook_bots;
    assert.ok(Array.isArray(integrations));
    const { result, msg, queue_id, last_event_id, zulip_version, zulip_feature_level, zulip_merge_base } = response.body;
    assertValidResponse12('POST', '/api/v1/register', 200, {
      result, msg, queue_id, last_event_id, zulip_version, zulip_feature_level, zulip_merge_base, realm_incoming_webhook_bots: integrations,
    });
    const byName = new Map<string, any>(integrations.map((integration: any) => [integration.name, integration]));
    // Every listed integration is served at its URL: a request without a key is refused as
    // unauthenticated, not as an unknown address.
    for (const name of byName.keys()) {
      const answer = await fetch(`${server.url}/api/v1/external/${name}`, { method: 'POST' });
      assert.notEqual(answer.status, 404, name);
    }
    const github = byName.get('github');
    assert.equal(github.display_name, 'GitHub');
    assert.ok(github.all_event_types.includes('push_commits') && github.all_event_types.includes('opened_pull_request'), JSON.stringify(github.all_event_types));
    // Level 485 names each URL option's field `input_type` (`validator` before).
    assert.deepEqual(github.url_options.map((o: any) => [o.key, o.input_type]), [['branches', 'text'], ['ignore_private_repositories', 'boolean']]);
    assert.equal(github.url_options[0].validator, undefined);
    assert.deepEqual(github.config_options, []);
    // An integration whose messages name no event cannot be filtered.
    assert.equal(byName.get('json').all_event_types, null);
    assert.equal(byName.get('bitbucket3').display_name, 'Bitbucket Server');
    // The alias githubsponsors is GitHub itself, not a second entry.
    assert.equal(byName.has('githubsponsors'), false);
    const others = await server.owner.post('/register', { fetch_event_types: JSON.stringify(['realm_bot']) });
    assert.equal(others.body.realm_incoming_webhook_bots, undefined, 'only when asked for');
  });
});

describe('push notification payloads (feature level 413)', () => {
  let relay: TestRelay;
  let pushServer: TestServer;
  before(async () => {
    await sodium.ready;
    relay = await TestRelay.start();
    pushServer = await TestServer.start({ pushRelay: relay.url });
  });
  after(async () => {
    await pushServer.close();
    await relay.close();
  });

  test('APNs payloads carry no server or realm_id, FCM message payloads no content_truncated', async () => {
    const [sender, recipient] = [await pushServer.createUser('Ann Apple'), await pushServer.createUser('Ben Both')];
    await recipient.post('/users/me/apns_device_token', { token: 'c0ffee00c0ffee00c0ffee00c0ffee00', appid: 'org.zulip.Zulip' });
    await recipient.post('/users/me/android_gcm_reg_id', { token: 'ben-phone' });
    const before = relay.to('push/notify').length;
    const long = 'word '.repeat(100).trim();
    assert.equal((await sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content: long })).status, 200);
    await backgroundSettled(pushServer.stoa);
    const [{ body }] = relay.to('push/notify').slice(before);
    const zulip = body.apns_payload.custom.zulip;
    assert.equal(zulip.sender_id, sender.userId);
    assert.ok(!('server' in zulip) && !('realm_id' in zulip), JSON.stringify(zulip));
    assert.equal(body.gcm_payload.event, 'message');
    assert.ok(!('content_truncated' in body.gcm_payload), JSON.stringify(body.gcm_payload));
    assert.ok(body.gcm_payload.content.endsWith('...'), 'a long message is still cut');
    assert.ok(body.gcm_payload.content.length <= 200);
  });

  test('end-to-end-encrypted message payloads have the documented format, group mentions named', async () => {
    const sender = await pushServer.createUser('Cleo Channel');
    const recipient = await pushServer.createUser('Dora Device');
    // Registered by logged-in device, as at level 468 (test/push-devices-12.test.ts).
    const secret = sodium.randombytes_buf(32);
    const deviceId = (await recipient.post('/register_client_device')).body.device_id;
    const device = {
      device_id: deviceId,
      push_key: Buffer.concat([Buffer.from([0x31]), secret]).toString('base64'),
      push_key_id: 413,
      token_kind: 'fcm',
      token_id: Buffer.from('dora-pho').toString('base64'),
      bouncer_public_key: 'relay-key-1',
      encrypted_push_registration: 'sealed-for-the-relay',
    };
    assert.equal((await recipient.post('/mobile_push/register', device)).status, 200);
    await backgroundSettled(pushServer.stoa);
    const opened = async (send: () => Promise<ApiResponse>) => {
      const before = relay.to('push/e2ee/notify').length;
      const sent = await send();
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      await backgroundSettled(pushServer.stoa);
      const notified = relay.to('push/e2ee/notify').slice(before);
      assert.equal(notified.length, 1);
      const [request] = notified[0].body.push_requests;
      const bytes = sodium.from_base64(request.encrypted_data, sodium.base64_variants.ORIGINAL);
      const nonce = bytes.subarray(0, sodium.crypto_secretbox_NONCEBYTES);
      const text = sodium.crypto_secretbox_open_easy(bytes.subarray(sodium.crypto_secretbox_NONCEBYTES), nonce, secret, 'text');
      return JSON.parse(text);
    };
    const small = await pushServer.owner.post('/user_groups/create', { name: uniqueName('small'), description: 's', members: JSON.stringify([recipient.userId]) });
    const big = await pushServer.owner.post('/user_groups/create', {
      name: uniqueName('big'),
      description: 'b',
      members: JSON.stringify([recipient.userId, sender.userId, pushServer.ownerId]),
    });
    const smallName = (await pushServer.owner.get('/user_groups')).body.user_groups.find((g: any) => g.id === small.body.group_id).name;
    const bigName = (await pushServer.owner.get('/user_groups')).body.user_groups.find((g: any) => g.id === big.body.group_id).name;
    const channel = await createChannel(pushServer.owner, { principals: JSON.stringify([sender.userId, recipient.userId]) });

    const byGroup = await opened(() =>
      sender.post('/messages', { type: 'stream', to: channel.name, topic: 'groups', content: `@*${bigName}* and @*${smallName}* look` }),
    );
    assert.deepEqual({ ...byGroup, time: 0, sender_avatar_url: '' }, {
      type: 'message',
      realm_url: pushServer.url,
      realm_name: 'Stoa',
      user_id: recipient.userId,
      sender_id: sender.userId,
      sender_full_name: 'Cleo Channel',
      sender_avatar_url: '',
      message_id: byGroup.message_id,
      time: 0,
      content: `@${bigName} and @${smallName} look`,
      recipient_type: 'channel',
      channel_id: channel.id,
      channel_name: channel.name,
      topic: 'groups',
      mentioned_user_group_id: small.body.group_id,
      mentioned_user_group_name: smallName,
    });
    const byName = await opened(() =>
      sender.post('/messages', { type: 'stream', to: channel.name, topic: 'groups', content: `@**Dora Device** and @*${smallName}*` }),
    );
    assert.ok(!('mentioned_user_group_id' in byName) && !('mentioned_user_group_name' in byName), 'a mention by name comes first');
    const direct = await opened(() =>
      sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId, pushServer.ownerId]), content: 'all three' }),
    );
    assert.equal(direct.recipient_type, 'direct');
    // Level 429: recipient_user_ids, for group and one-to-one conversations alike.
    assert.deepEqual(direct.recipient_user_ids, [sender.userId, recipient.userId, pushServer.ownerId].sort((a, b) => a - b));
    assert.ok(!('pm_users' in direct));
    const oneToOne = await opened(() => sender.post('/messages', { type: 'direct', to: JSON.stringify([recipient.userId]), content: 'just us' }));
    assert.deepEqual(oneToOne.recipient_user_ids, [sender.userId, recipient.userId].sort((a, b) => a - b));
    assert.ok(!('mentioned_user_group_id' in direct));
  });
});
