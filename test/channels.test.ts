import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { createChannel, uniqueName } from './support/channels';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('POST /users/me/subscriptions', () => {
  test('creates a missing channel, subscribes the caller, and describes it as Zulip does', async () => {
    const name = uniqueName('general');
    const response = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: `  ${name}  `, description: 'line one\nline two' }],
    });
    assert.deepEqual(response.body.subscribed, { [String(server.ownerId)]: [name] });
    assert.deepEqual(response.body.already_subscribed, {});
    assert.equal('unauthorized' in response.body, false);

    const subs = (await server.owner.get('/users/me/subscriptions')).body.subscriptions;
    const sub = subs.find((s: { name: string }) => s.name === name);
    assert.equal(sub.description, 'line one line two', 'newlines become spaces');
    assert.equal(sub.rendered_description, '<p>line one line two</p>');
    assert.equal(sub.invite_only, false);
    assert.equal(sub.history_public_to_subscribers, true);
    assert.equal(sub.creator_id, server.ownerId);
    assert.equal(sub.topics_policy, 'inherit');
    assert.equal(sub.is_muted, false);
    assert.equal(sub.in_home_view, true);
    assert.equal(sub.desktop_notifications, null);
    assert.match(sub.color, /^#[0-9a-f]{6}$/);
    assert.deepEqual(sub.can_administer_channel_group, { direct_members: [server.ownerId], direct_subgroups: [] });
    assert.equal(sub.can_remove_subscribers_group, server.groupId('role:administrators'));
    assert.equal(sub.can_send_message_group, server.groupId('role:everyone'));
    assert.equal(sub.can_add_subscribers_group, server.groupId('role:nobody'));
    assert.equal(sub.stream_post_policy, 1);
  });

  test('gives each new subscription of a user a color they do not use yet', async () => {
    const user = await server.createUser();
    await user.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }, { name: uniqueName() }] });
    const colors = (await user.get('/users/me/subscriptions')).body.subscriptions.map((s: { color: string }) => s.color);
    assert.deepEqual(colors.sort(), ['#76ce90', '#fae589'].sort());
  });

  test('reports channels the user is already in', async () => {
    const { name } = await createChannel(server.owner);
    const again = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    assert.deepEqual(again.body.subscribed, {});
    assert.deepEqual(again.body.already_subscribed, { [String(server.ownerId)]: [name] });
  });

  test('matches existing channel names without regard to case', async () => {
    const { name } = await createChannel(server.owner);
    const user = await server.createUser();
    const response = await user.post('/users/me/subscriptions', { subscriptions: [{ name: name.toUpperCase() }] });
    assert.deepEqual(response.body.subscribed, { [String(user.userId)]: [name] });
  });

  test('refuses bad channel names in Zulip’s words', async () => {
    const cases: Array<[string, string]> = [
      ['   ', "Channel name can't be empty."],
      ['x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
      ['bad\u0007bell', 'Invalid character in channel name, at position 4.'],
    ];
    for (const [name, msg] of cases) {
      const response = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }] });
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, msg);
    }
    const longDescription = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName(), description: 'd'.repeat(1025) }],
    });
    assert.equal(longDescription.body.msg, 'subscriptions[0]["description"] is too long (limit: 1024 characters)');
  });

  test('subscribes other users named by ID or by email', async () => {
    const a = await server.createUser();
    const b = await server.createUser();
    const { name, id } = await createChannel(server.owner);
    const response = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name }],
      principals: [a.userId],
    });
    assert.deepEqual(response.body.subscribed, { [String(a.userId)]: [name] });
    const byEmail = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name }],
      principals: [b.credentials.email],
    });
    assert.deepEqual(byEmail.body.subscribed, { [String(b.userId)]: [name] });
    const members = await server.owner.get(`/streams/${id}/members`);
    assert.deepEqual(members.body.subscribers, [server.ownerId, a.userId, b.userId].sort((x, y) => x - y));
  });

  test('refuses unknown and deactivated principals with 400 BAD_REQUEST', async () => {
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    for (const [principals, msg] of [
      [[999999], 'No such user'],
      [['ghost@example.com'], 'No such user'],
      [[gone.userId], 'User is deactivated'],
    ] as const) {
      const response = await server.owner.post('/users/me/subscriptions', {
        subscriptions: [{ name: uniqueName() }],
        principals,
      });
      assert.equal(response.status, 400);
      assert.equal(response.body.code, 'BAD_REQUEST');
      assert.equal(response.body.msg, msg);
    }
  });

  test('is not for guests', async () => {
    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    const response = await guest.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }] });
    assert.equal(response.body.msg, 'Not allowed for guest users');
  });

  test('needs access to an existing private channel, fatally or not as asked', async () => {
    const secret = await createChannel(server.owner, { invite_only: true }, uniqueName('secret'));
    const open = await createChannel(server.owner);
    const user = await server.createUser();
    const fatal = await user.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }, { name: open.name }] });
    assert.equal(fatal.status, 400);
    assert.equal(fatal.body.msg, `Unable to access channel (${secret.name}).`);
    assert.deepEqual((await user.get('/users/me/subscriptions')).body.subscriptions, [], 'nothing happened');

    const lenient = await user.post('/users/me/subscriptions', {
      subscriptions: [{ name: secret.name }, { name: open.name }],
      authorization_errors_fatal: false,
    });
    assert.equal(lenient.status, 200);
    assert.deepEqual(lenient.body.unauthorized, [secret.name]);
    assert.deepEqual(lenient.body.subscribed, { [String(user.userId)]: [open.name] });
  });

  test('checks the creation rules: owners set retention, web-public needs the server switch', async () => {
    const member = await server.createUser();
    const retention = await member.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      message_retention_days: 30,
    });
    assert.equal(retention.body.msg, 'Must be an organization owner');
    const badRetention = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      message_retention_days: 'forever',
    });
    assert.equal(badRetention.body.code, 'REQUEST_VARIABLE_INVALID');
    assert.equal(badRetention.body.msg, "Bad value for 'message_retention_days': forever");
    const kept = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      message_retention_days: 'unlimited',
    });
    assert.equal(kept.status, 200);
    const webPublic = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      is_web_public: true,
    });
    assert.equal(webPublic.body.msg, 'Web-public channels are not enabled.');
    const defaultPrivate = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      invite_only: true,
      is_default_stream: true,
    });
    assert.equal(defaultPrivate.body.msg, 'A default channel cannot be private.');
    const publicWithoutHistory = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      history_public_to_subscribers: false,
    });
    assert.equal(publicWithoutHistory.status, 400);
  });

  test('validates group settings of a new channel', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ can_remove_subscribers_group: server.groupId('role:internet') }, "'can_remove_subscribers_group' setting cannot be set to 'role:internet' group."],
      [{ can_add_subscribers_group: server.groupId('role:everyone') }, "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group."],
      [{ can_administer_channel_group: { direct_members: [999999], direct_subgroups: [] } }, 'Invalid user ID: 999999'],
      [{ can_administer_channel_group: 999999 }, 'Invalid user group'],
    ];
    for (const [settings, msg] of cases) {
      const response = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }], ...settings });
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
    }
    const user = await server.createUser();
    const ok = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: uniqueName() }],
      can_add_subscribers_group: { direct_members: [user.userId], direct_subgroups: [server.groupId('role:moderators')] },
      can_remove_subscribers_group: { direct_members: [], direct_subgroups: [server.groupId('role:members')] },
    });
    assert.equal(ok.status, 200);
    const created = (await server.owner.get('/users/me/subscriptions')).body.subscriptions.at(-1);
    assert.ok(created);
  });

  test('tells everyone who may see a new public channel, and nobody else of a private one', async () => {
    const watcher = await server.createUser();
    const events = await listen(watcher, { event_types: ['stream', 'subscription'] });
    const open = await createChannel(server.owner);
    const secret = await createChannel(server.owner, { invite_only: true });
    const seen = await events();
    // The new public channel, its creator joining it, and its first message (the notification
    // bot's creation notice); nothing at all of the private one.
    assert.deepEqual(seen.map((e) => [e.type, e.op, e.streams?.[0]?.stream_id ?? e.stream_ids?.[0] ?? e.stream_id, e.property]), [
      ['stream', 'create', open.id, undefined],
      ['subscription', 'peer_add', open.id, undefined],
      ['stream', 'update', open.id, 'first_message_id'],
    ]);
    assert.ok(!JSON.stringify(seen).includes(secret.name), 'the private channel never reaches an outsider');
  });

  test('sends subscription add to new subscribers and peer_add to those who may see the channel', async () => {
    const member = await server.createUser();
    const newcomer = await server.createUser();
    const { name, id } = await createChannel(server.owner);
    const memberEvents = await listen(member, { event_types: ['subscription'] });
    const newcomerEvents = await listen(newcomer, { event_types: ['subscription', 'stream'], include_subscribers: true });
    await newcomer.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    assert.deepEqual(await memberEvents(), [
      { type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: [newcomer.userId] },
    ]);
    const [added] = await newcomerEvents();
    assert.equal(added.op, 'add');
    assert.equal(added.subscriptions[0].stream_id, id);
    assert.deepEqual(added.subscriptions[0].subscribers, [server.ownerId, newcomer.userId].sort((x, y) => x - y));
  });

  test('brings a private channel to a user who is added to it', async () => {
    const user = await server.createUser();
    const secret = await createChannel(server.owner, { invite_only: true });
    const events = await listen(user, { event_types: ['subscription', 'stream'] });
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], principals: [user.userId] });
    const seen = await events();
    assert.deepEqual(seen.map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/add']);
  });
});

describe('DELETE /users/me/subscriptions', () => {
  test('removes subscriptions, reporting what was and was not removed', async () => {
    const user = await server.createUser();
    const a = await createChannel(server.owner);
    const b = await createChannel(server.owner);
    await user.post('/users/me/subscriptions', { subscriptions: [{ name: a.name }] });
    const peers = await listen(server.owner, { event_types: ['subscription'] });
    const response = await user.delete('/users/me/subscriptions', { subscriptions: [a.name, b.name] });
    assert.deepEqual(response.body, { result: 'success', msg: '', removed: [a.name], not_removed: [b.name] });
    assert.deepEqual(await peers(), [{ type: 'subscription', op: 'peer_remove', stream_ids: [a.id], user_ids: [user.userId] }]);
  });

  test('takes a private channel away from a user who leaves it', async () => {
    const user = await server.createUser();
    const secret = await createChannel(server.owner, { invite_only: true });
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], principals: [user.userId] });
    const events = await listen(user, { event_types: ['subscription', 'stream'] });
    await user.delete('/users/me/subscriptions', { subscriptions: [secret.name] });
    const seen = await events();
    assert.deepEqual(seen.map((e) => `${e.type}/${e.op}`), ['subscription/remove', 'stream/delete']);
    assert.equal((await user.get(`/streams/${secret.id}`)).body.msg, 'Invalid channel ID');
  });

  test('reports channels that do not exist or cannot be seen alike', async () => {
    const secret = await createChannel(server.owner, { invite_only: true });
    const user = await server.createUser();
    for (const name of [secret.name, 'no such channel']) {
      const response = await user.delete('/users/me/subscriptions', { subscriptions: [name] });
      assert.equal(response.status, 400);
      assert.equal(response.body.msg, `Channel(s) (${name}) do not exist`);
    }
  });

  test('needs permission to remove others', async () => {
    const member = await server.createUser();
    const other = await server.createUser();
    const { name } = await createChannel(server.owner, { principals: [server.ownerId, other.userId] });
    const denied = await member.delete('/users/me/subscriptions', { subscriptions: [name], principals: [other.userId] });
    assert.equal(denied.body.msg, 'Insufficient permission');
    const allowed = await server.owner.delete('/users/me/subscriptions', { subscriptions: [name], principals: [other.userId] });
    assert.deepEqual(allowed.body.removed, [name]);
  });
});

describe('reading channels', () => {
  test('GET /streams lists what the filters select, sorted by name', async () => {
    const user = await server.createUser();
    const secret = await createChannel(server.owner, { invite_only: true });
    const listed = (await user.get('/streams')).body.streams.map((s: { name: string }) => s.name);
    assert.deepEqual(listed, [...listed].sort((a, b) => a.localeCompare(b)));
    assert.ok(!listed.includes(secret.name));
    const asOwner = (await server.owner.get('/streams', { include_all: true })).body.streams.map((s: { name: string }) => s.name);
    assert.ok(asOwner.includes(secret.name));
    assert.deepEqual((await user.get('/streams', { include_public: false })).body.streams, []);
    const denied = await user.get('/streams', { include_all_active: true });
    assert.equal(denied.body.msg, 'User not authorized for this query');
    const withDefault = await user.get('/streams', { include_default: true });
    assert.ok(withDefault.body.streams.every((s: { is_default?: boolean }) => s.is_default === false));
  });

  test('GET /streams with include_can_access_content adds private channels the user may join', async () => {
    const user = await server.createUser();
    const joinable = await createChannel(server.owner, {
      invite_only: true,
      can_subscribe_group: { direct_members: [user.userId], direct_subgroups: [] },
    });
    const closed = await createChannel(server.owner, { invite_only: true });
    const ids = (await user.get('/streams', { include_can_access_content: true })).body.streams.map(
      (s: { stream_id: number }) => s.stream_id,
    );
    assert.ok(ids.includes(joinable.id));
    assert.ok(!ids.includes(closed.id));
    const plain = (await user.get('/streams')).body.streams.map((s: { stream_id: number }) => s.stream_id);
    assert.ok(!plain.includes(joinable.id), 'not without asking');
    const joined = await user.post('/users/me/subscriptions', { subscriptions: [{ name: joinable.name }] });
    assert.equal(joined.status, 200, 'members of can_subscribe_group may subscribe themselves');
  });

  test('private channels answer Invalid channel ID or name to outsiders', async () => {
    const secret = await createChannel(server.owner, { invite_only: true });
    const user = await server.createUser();
    assert.equal((await user.get(`/streams/${secret.id}`)).body.msg, 'Invalid channel ID');
    assert.equal((await user.get(`/streams/${secret.id}/members`)).body.msg, 'Invalid channel ID');
    assert.equal((await user.get('/get_stream_id', { stream: secret.name })).body.msg, `Invalid channel name '${secret.name}'`);
    assert.equal((await user.get('/streams/999999')).body.msg, 'Invalid channel ID');
    assert.equal((await server.owner.get(`/streams/${secret.id}`)).body.stream.name, secret.name);
  });

  test('GET /users/{user_id}/subscriptions/{stream_id} tells whether someone is subscribed', async () => {
    const user = await server.createUser();
    const { id, name } = await createChannel(server.owner);
    assert.equal((await server.owner.get(`/users/${user.userId}/subscriptions/${id}`)).body.is_subscribed, false);
    await user.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    assert.equal((await server.owner.get(`/users/${user.userId}/subscriptions/${id}`)).body.is_subscribed, true);
  });

  test('GET /users/me/subscriptions includes subscribers only when asked', async () => {
    const user = await server.createUser();
    await createChannel(user);
    const plain = (await user.get('/users/me/subscriptions')).body.subscriptions[0];
    assert.equal('subscribers' in plain, false);
    const full = (await user.get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions[0];
    assert.deepEqual(full.subscribers, [user.userId]);
    const partial = (await user.get('/users/me/subscriptions', { include_subscribers: 'partial' })).body.subscriptions[0];
    assert.deepEqual(partial.subscribers, [user.userId], 'small channels get their whole list');
  });

  test('register reports subscribed, left and never-joined channels', async () => {
    const user = await server.createUser();
    const joined = await createChannel(user);
    const left = await createChannel(user);
    await user.delete('/users/me/subscriptions', { subscriptions: [left.name] });
    const state = (await user.post('/register', { fetch_event_types: ['subscription', 'stream', 'default_streams'] })).body;
    assert.ok(state.subscriptions.some((s: { stream_id: number }) => s.stream_id === joined.id));
    assert.ok(state.unsubscribed.some((s: { stream_id: number }) => s.stream_id === left.id));
    assert.ok(state.never_subscribed.length > 0);
    for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed'] as const) {
      assert.ok(!state[key].some((s: { invite_only: boolean; stream_id: number }) => s.invite_only && s.stream_id !== joined.id));
    }
    assert.deepEqual(state.realm_default_streams, []);
    assert.ok(state.streams.some((s: { stream_id: number }) => s.stream_id === joined.id));
  });
});

describe('channels', () => {
  test('survive a restart with their subscriptions', async () => {
    const restartable = await TestServer.start();
    try {
      await restartable.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'kept', description: 'still here' }] });
      await restartable.restart();
      const subs = (await restartable.owner.get('/users/me/subscriptions')).body.subscriptions;
      assert.deepEqual(subs.map((s: { name: string; description: string }) => [s.name, s.description]), [['kept', 'still here']]);
    } finally {
      await restartable.close();
    }
  });
});
