import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listen } from './support/events';
import { createChannel } from './support/channels';
import { TestServer } from './support/server';

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

describe('POST /users/me/subscriptions/properties', () => {
  test('changes personal settings, telling the user’s clients', async () => {
    const user = await server.createUser();
    const { id } = await createChannel(user);
    const events = await listen(user, { event_types: ['subscription'] });
    const response = await user.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: id, property: 'color', value: '#123abc' },
        { stream_id: id, property: 'is_muted', value: true },
        { stream_id: id, property: 'desktop_notifications', value: false },
      ],
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await events(), [
      { type: 'subscription', op: 'update', stream_id: id, property: 'color', value: '#123abc' },
      { type: 'subscription', op: 'update', stream_id: id, property: 'in_home_view', value: false },
      { type: 'subscription', op: 'update', stream_id: id, property: 'is_muted', value: true },
      { type: 'subscription', op: 'update', stream_id: id, property: 'desktop_notifications', value: false },
    ]);
    const sub = (await user.get('/users/me/subscriptions')).body.subscriptions[0];
    assert.equal(sub.color, '#123abc');
    assert.equal(sub.is_muted, true);
    assert.equal(sub.in_home_view, false);
    assert.equal(sub.desktop_notifications, false);
  });

  test('refuses unknown properties, bad values and channels the user is not in, changing nothing', async () => {
    const user = await server.createUser();
    const mine = await createChannel(user);
    const other = await createChannel(server.owner);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ stream_id: mine.id, property: 'volume', value: true }, 'Unknown subscription property: volume'],
      [{ stream_id: mine.id, property: 'pin_to_top', value: 'yes' }, 'pin_to_top is not a boolean'],
      [{ stream_id: mine.id, property: 'color', value: 'red' }, 'Invalid subscription_data[1]: Value error, color is not a valid hex color code'],
      [{ stream_id: other.id, property: 'pin_to_top', value: true }, `Not subscribed to channel ID ${other.id}`],
      [{ stream_id: 999999, property: 'pin_to_top', value: true }, 'Invalid channel ID'],
    ];
    for (const [item, msg] of cases) {
      const response = await user.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: mine.id, property: 'pin_to_top', value: true }, item],
      });
      assert.equal(response.status, 400, msg);
      assert.equal(response.body.msg, msg);
    }
    assert.equal((await user.get('/users/me/subscriptions')).body.subscriptions[0].pin_to_top, false);
  });
});

describe('PATCH /streams/{stream_id}', () => {
  test('renames and redescribes a channel, telling everyone who sees it', async () => {
    const { id, name } = await createChannel(server.owner);
    const watcher = await server.createUser();
    const events = await listen(watcher, { event_types: ['stream'] });
    const response = await server.owner.patch(`/streams/${id}`, { new_name: `${name} renamed`, description: 'new\ntext' });
    assert.equal(response.status, 200);
    assert.deepEqual(await events(), [
      { type: 'stream', op: 'update', stream_id: id, name, property: 'description', value: 'new text', rendered_description: '<p>new text</p>' },
      { type: 'stream', op: 'update', stream_id: id, name, property: 'name', value: `${name} renamed` },
    ]);
    const channel = (await watcher.get(`/streams/${id}`)).body.stream;
    assert.equal(channel.name, `${name} renamed`);
    assert.equal(channel.description, 'new text');
  });

  test('refuses a name already in use, or unchanged', async () => {
    const a = await createChannel(server.owner);
    const b = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${a.id}`, { new_name: b.name.toUpperCase() })).body.msg, 'Channel name already in use.');
    assert.equal((await server.owner.patch(`/streams/${a.id}`, { new_name: a.name })).body.msg, 'Channel already has that name.');
    const caseOnly = await server.owner.patch(`/streams/${a.id}`, { new_name: a.name.toUpperCase() });
    assert.equal(caseOnly.status, 200, 'a change of case is a rename');
  });

  test('is for administrators and channel administrators; others learn nothing of private channels', async () => {
    const member = await server.createUser();
    const open = await createChannel(server.owner);
    const secret = await createChannel(server.owner, { invite_only: true });
    const denied = await member.patch(`/streams/${open.id}`, { description: 'x' });
    assert.equal(denied.body.code, 'BAD_REQUEST');
    assert.equal(denied.body.msg, 'You do not have permission to administer this channel.');
    assert.equal((await member.patch(`/streams/${secret.id}`, { description: 'x' })).body.msg, 'Invalid channel ID');
    // The creator of a channel administers it.
    const own = await createChannel(member);
    assert.equal((await member.patch(`/streams/${own.id}`, { description: 'mine' })).status, 200);
  });

  test('makes a channel private, taking it from those outside, and public again, giving it back', async () => {
    const { id } = await createChannel(server.owner);
    const outsider = await server.createUser();
    const events = await listen(outsider, { event_types: ['stream', 'subscription'] });
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_private: true })).status, 200);
    assert.deepEqual(await events(), [{ type: 'stream', op: 'delete', stream_ids: [id], streams: [{ stream_id: id }] }]);
    assert.equal((await outsider.get(`/streams/${id}`)).body.msg, 'Invalid channel ID');
    const channel = (await server.owner.get(`/streams/${id}`)).body.stream;
    assert.equal(channel.invite_only, true);
    assert.equal(channel.history_public_to_subscribers, false);

    assert.equal((await server.owner.patch(`/streams/${id}`, { is_private: false })).status, 200);
    const back = await events();
    assert.deepEqual(back.map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add']);
    assert.deepEqual(back[1].user_ids, [server.ownerId]);
  });

  test('keeps public history public, and a private channel’s privacy for those inside it', async () => {
    const open = await createChannel(server.owner);
    const noHistory = await server.owner.patch(`/streams/${open.id}`, { history_public_to_subscribers: false });
    assert.equal(noHistory.body.msg, 'Invalid parameters');
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    const secret = await createChannel(server.owner, { invite_only: true });
    const outside = await admin.patch(`/streams/${secret.id}`, { is_private: false });
    assert.equal(outside.body.msg, 'Channel content access is required.');
    assert.equal((await admin.patch(`/streams/${secret.id}`, { description: 'admins may' })).status, 200);
  });

  test('makes a channel a default one that new users join, never a private one', async () => {
    const { id } = await createChannel(server.owner);
    const events = await listen(server.owner, { event_types: ['default_streams'] });
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_default_stream: true })).status, 200);
    assert.deepEqual((await events()).at(-1)!.default_streams.includes(id), true);
    const newcomer = await server.createUser();
    const subs = (await newcomer.get('/users/me/subscriptions')).body.subscriptions;
    assert.ok(subs.some((s: { stream_id: number }) => s.stream_id === id));
    const secretDefault = await server.owner.patch(`/streams/${id}`, { is_private: true });
    assert.equal(secretDefault.body.msg, 'A default channel cannot be private.');
    const member = await server.createUser();
    await server.owner.patch(`/streams/${id}`, { can_administer_channel_group: { new: { direct_members: [member.userId], direct_subgroups: [] } } });
    const notAdmin = await member.patch(`/streams/${id}`, { is_default_stream: false });
    assert.equal(notAdmin.body.msg, 'You do not have permission to change default channels.');
  });

  test('sets retention for owners only', async () => {
    const { id } = await createChannel(server.owner);
    const admin = await server.createUser();
    await server.owner.patch(`/users/${admin.userId}`, { role: 200 });
    assert.equal((await admin.patch(`/streams/${id}`, { message_retention_days: 7 })).body.msg, 'Must be an organization owner');
    assert.equal((await server.owner.patch(`/streams/${id}`, { message_retention_days: 7 })).status, 200);
    assert.equal((await server.owner.get(`/streams/${id}`)).body.stream.message_retention_days, 7);
    await server.owner.patch(`/streams/${id}`, { message_retention_days: 'realm_default' });
    assert.equal((await server.owner.get(`/streams/${id}`)).body.stream.message_retention_days, null);
  });

  test('changes group settings with {new, old}, refusing a stale old value', async () => {
    const { id } = await createChannel(server.owner);
    const member = await server.createUser();
    const stale = await server.owner.patch(`/streams/${id}`, {
      can_remove_subscribers_group: { new: server.groupId('role:members'), old: server.groupId('role:moderators') },
    });
    assert.equal(stale.body.code, 'EXPECTATION_MISMATCH');
    assert.equal(stale.body.msg, "'old' value does not match the expected value.");
    const events = await listen(server.owner, { event_types: ['stream'] });
    const ok = await server.owner.patch(`/streams/${id}`, {
      can_remove_subscribers_group: { new: server.groupId('role:members'), old: server.groupId('role:administrators') },
      can_administer_channel_group: { new: { direct_members: [member.userId], direct_subgroups: [] } },
    });
    assert.equal(ok.status, 200);
    const seen = await events();
    assert.deepEqual(seen.map((e) => [e.property, e.value]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))), [
      ['can_administer_channel_group', { direct_members: [member.userId], direct_subgroups: [] }],
      ['can_remove_subscribers_group', server.groupId('role:members')],
    ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    assert.equal((await member.patch(`/streams/${id}`, { description: 'now mine too' })).status, 200);
    const unchanged = await listen(server.owner, { event_types: ['stream'] });
    await server.owner.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: server.groupId('role:members') } });
    assert.deepEqual(await unchanged(), [], 'an unchanged value sends nothing');
  });

  test('sets the topics policy for administrators', async () => {
    const member = await server.createUser();
    const own = await createChannel(member);
    assert.equal((await member.patch(`/streams/${own.id}`, { topics_policy: 'disable_empty_topic' })).body.msg, 'Insufficient permission');
    assert.equal((await server.owner.patch(`/streams/${own.id}`, { topics_policy: 'disable_empty_topic' })).status, 200);
    assert.equal((await member.get(`/streams/${own.id}`)).body.stream.topics_policy, 'disable_empty_topic');
    assert.equal((await server.owner.patch(`/streams/${own.id}`, { topics_policy: 'sometimes' })).body.msg, 'Invalid topics_policy');
  });

  test('refuses folders that do not exist and web-public channels while the server does not allow them', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: 42 })).body.msg, 'Invalid channel folder ID');
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: null })).status, 200);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_web_public: true })).body.msg, 'Web-public channels are not enabled.');
  });
});

describe('archiving', () => {
  test('DELETE /streams/{id} archives; clients that know archived channels are told, others lose it', async () => {
    const { id } = await createChannel(server.owner);
    const modern = await listen(server.owner, { event_types: ['stream'], client_capabilities: { archived_channels: true } });
    const old = await listen(server.owner, { event_types: ['stream'] });
    assert.equal((await server.owner.delete(`/streams/${id}`)).status, 200);
    assert.deepEqual(await modern(), [{ type: 'stream', op: 'update', stream_id: id, name: (await server.owner.get('/streams', { exclude_archived: false, include_all: true })).body.streams.find((s: { stream_id: number }) => s.stream_id === id).name, property: 'is_archived', value: true }]);
    assert.deepEqual(await old(), [{ type: 'stream', op: 'delete', stream_ids: [id], streams: [{ stream_id: id }] }]);
    assert.ok(!(await server.owner.get('/streams')).body.streams.some((s: { stream_id: number }) => s.stream_id === id));
    assert.equal((await server.owner.delete(`/streams/${id}`)).body.msg, 'Channel is already deactivated');
    // Since feature level 480 an archived channel can still be looked up by its ID.
    assert.equal((await server.owner.get(`/streams/${id}`)).body.stream.is_archived, true);
  });

  test('PATCH is_archived false brings it back, with its subscribers', async () => {
    const { id } = await createChannel(server.owner);
    await server.owner.delete(`/streams/${id}`);
    const old = await listen(server.owner, { event_types: ['stream', 'subscription'] });
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_archived: false })).status, 200);
    const [event] = await old();
    assert.equal(event.type, 'subscription', 'a subscriber gets the subscription back');
    assert.equal(event.subscriptions[0].stream_id, id);
    assert.equal((await server.owner.get(`/streams/${id}`)).body.stream.is_archived, false);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_archived: false })).body.msg, 'Channel is not currently deactivated');
  });
});
