import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createChannel, uniqueName } from './support/channels';
import type { Client } from './support/client';
import { listen } from './support/events';
import { TestServer } from './support/server';

/**
 * One test per rule of the specification's channel tables and its state table, named after the
 * rule, so a reader can hold this file beside the specification and tick each row off. Many of
 * these behaviours are tested in more depth in the area's own test file; here each is asserted
 * once, directly, through the API.
 */

type User = Client & { userId: number };
type Channel = Record<string, any>;

let server: TestServer;
let member: User;

before(async () => {
  server = await TestServer.start({ webPublic: true });
  member = await server.createUser('Rule Member');
});
after(() => server.close());

/** The channel as the owner lists it, archived or not. */
async function channelById(id: number): Promise<Channel> {
  const listed = (await server.owner.get('/streams', { include_all: true, exclude_archived: false })).body.streams;
  return listed.find((c: Channel) => c.stream_id === id);
}

async function userWithRole(role: number): Promise<User> {
  const user = await server.createUser();
  await server.owner.patch(`/users/${user.userId}`, { role });
  return user;
}

async function send(client: Client, channelId: number, topic: string, content = 'hello') {
  return client.post('/messages', { type: 'stream', to: channelId, topic, content });
}

async function idsListed(client: Client, params: Record<string, unknown>): Promise<number[]> {
  const response = await client.get('/streams', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.streams.map((c: Channel) => c.stream_id);
}

function refused(response: { status: number; body: Record<string, any> }, msg: string, code = 'BAD_REQUEST'): void {
  assert.equal(response.status, 400, JSON.stringify(response.body));
  assert.equal(response.body.msg, msg);
  assert.equal(response.body.code, code);
}

describe('Group-setting value', () => {
  test('group-setting value: an integer, the ID of a user group', async () => {
    const moderators = server.groupId('role:moderators');
    const { id } = await createChannel(server.owner, { can_remove_subscribers_group: moderators });
    assert.equal((await channelById(id)).can_remove_subscribers_group, moderators);
  });

  test('group-setting value: an object with direct_members and direct_subgroups', async () => {
    const value = { direct_members: [member.userId], direct_subgroups: [server.groupId('role:moderators')] };
    const { id } = await createChannel(server.owner, { can_administer_channel_group: value });
    assert.deepEqual((await channelById(id)).can_administer_channel_group, value);
    assert.equal((await member.patch(`/streams/${id}`, { description: 'by a direct member' })).status, 200);
  });

  test('group-setting value: from level 303 direct_members no longer includes deactivated users', async () => {
    const leaving = await server.createUser();
    const value = { direct_members: [member.userId, leaving.userId], direct_subgroups: [] };
    const { id } = await createChannel(server.owner, { can_administer_channel_group: value });
    await server.owner.delete(`/users/${leaving.userId}`);
    assert.deepEqual((await channelById(id)).can_administer_channel_group.direct_members, [member.userId]);
  });

  test('group-setting value: on an existing channel the parameter is an update object {new, old}; a wrong old is an error', async () => {
    const { id } = await createChannel(server.owner);
    const current = (await channelById(id)).can_remove_subscribers_group;
    const admins = server.groupId('role:administrators');
    const wrong = await server.owner.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: admins, old: server.groupId('role:moderators') } });
    refused(wrong, "'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');
    assert.equal((await channelById(id)).can_remove_subscribers_group, current);
    const right = await server.owner.patch(`/streams/${id}`, { can_remove_subscribers_group: { new: admins, old: current } });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal((await channelById(id)).can_remove_subscribers_group, admins);
  });
});

describe('Channel table', () => {
  let channel: Channel;
  before(async () => {
    const name = uniqueName();
    const { id } = await createChannel(server.owner, { subscriptions: [{ name, description: 'Is **bold**' }] }, name);
    channel = await channelById(id);
  });

  const FIELDS: Array<[string, (c: Channel) => void]> = [
    ['stream_id: unique channel ID', (c) => assert.ok(Number.isInteger(c.stream_id) && c.stream_id > 0)],
    ['name: channel name', (c) => assert.match(c.name, /^channel \d+$/)],
    ['is_archived: whether the channel is archived', (c) => assert.equal(c.is_archived, false)],
    ['description: in the Markdown flavour', (c) => assert.equal(c.description, 'Is **bold**')],
    ['rendered_description: the description as HTML', (c) => assert.equal(c.rendered_description, '<p>Is <strong>bold</strong></p>')],
    ['date_created: UNIX timestamp in seconds', (c) => assert.ok(Number.isInteger(c.date_created) && c.date_created < 1e11)],
    ['creator_id: the creator', (c) => assert.equal(c.creator_id, server.ownerId)],
    ['invite_only: true for a private channel', (c) => assert.equal(c.invite_only, false)],
    ['is_web_public: unauthenticated web access', (c) => assert.equal(c.is_web_public, false)],
    ['stream_post_policy: deprecated; 1 when anyone can post', (c) => assert.equal(c.stream_post_policy, 1)],
    ['is_announcement_only: deprecated', (c) => assert.equal(c.is_announcement_only, false)],
    ['message_retention_days: null inherits the organization setting', (c) => assert.equal(c.message_retention_days, null)],
    ['history_public_to_subscribers: true for public channels', (c) => assert.equal(c.history_public_to_subscribers, true)],
    ['topics_policy: one of the four policies', (c) => assert.equal(c.topics_policy, 'inherit')],
    ['first_message_id: the first message (the creation notice)', (c) => assert.ok(Number.isInteger(c.first_message_id))],
    ['folder_id: null when in no folder', (c) => assert.equal(c.folder_id, null)],
    ['is_recently_active: a boolean', (c) => assert.equal(typeof c.is_recently_active, 'boolean')],
  ];
  for (const [rule, check] of FIELDS) test(`Channel table: ${rule}`, () => check(channel));

  test('Channel table: invite_only is true for a private channel', async () => {
    const { id } = await createChannel(server.owner, { invite_only: true });
    assert.equal((await channelById(id)).invite_only, true);
  });

  test('Channel table: first_message_id is null when the channel has no history', async () => {
    const { id } = await createChannel(server.owner);
    const first = (await channelById(id)).first_message_id;
    await server.owner.delete(`/messages/${first}`);
    assert.equal((await channelById(id)).first_message_id, null);
  });

  test('Channel table: can_add_subscribers_group: members need not be subscribed to a private channel', async () => {
    const { id, name } = await createChannel(server.owner, {
      invite_only: true,
      can_add_subscribers_group: { direct_members: [member.userId], direct_subgroups: [] },
    });
    const outsider = await server.createUser();
    const response = await member.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [outsider.userId] });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.ok((await server.owner.get(`/streams/${id}/members`)).body.subscribers.includes(outsider.userId));
  });

  test('Channel table: can_remove_subscribers_group: who may remove subscribers', async () => {
    const target = await server.createUser();
    const { id, name } = await createChannel(server.owner, {
      principals: [target.userId, member.userId],
      can_remove_subscribers_group: { direct_members: [member.userId], direct_subgroups: [] },
    });
    const bystander = await server.createUser();
    await bystander.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    assert.equal((await bystander.delete('/users/me/subscriptions', { subscriptions: [name], principals: [target.userId] })).status, 400);
    assert.equal((await member.delete('/users/me/subscriptions', { subscriptions: [name], principals: [target.userId] })).status, 200);
    assert.ok(!(await server.owner.get(`/streams/${id}/members`)).body.subscribers.includes(target.userId));
  });

  test('Channel table: can_administer_channel_group: organization administrators can administer every channel', async () => {
    const admin = await userWithRole(200);
    const { id } = await createChannel(server.owner, { can_administer_channel_group: { direct_members: [], direct_subgroups: [] } });
    assert.equal((await admin.patch(`/streams/${id}`, { description: 'by an administrator' })).status, 200);
    assert.equal((await member.patch(`/streams/${id}`, { description: 'by a member' })).body.code, 'BAD_REQUEST');
  });

  test('Channel table: can_delete_any_message_group: who may delete any message; needs content access', async () => {
    const { id, name } = await createChannel(server.owner, {
      can_delete_any_message_group: { direct_members: [member.userId], direct_subgroups: [] },
    });
    const messageId = (await send(server.owner, id, 'deletable')).body.id;
    assert.equal((await member.delete(`/messages/${messageId}`)).status, 200, 'a public channel gives content access');
    const other = (await createChannel(server.owner, { invite_only: true, can_delete_any_message_group: { direct_members: [member.userId], direct_subgroups: [] } })).id;
    const hidden = (await send(server.owner, other, 'hidden')).body.id;
    assert.equal((await member.delete(`/messages/${hidden}`)).status, 400, 'without content access the group grants nothing');
    assert.ok(name);
  });

  test('Channel table: can_delete_own_message_group: who may delete their own messages; needs content access', async () => {
    const { id } = await createChannel(server.owner, {
      principals: [member.userId],
      can_delete_own_message_group: { direct_members: [], direct_subgroups: [] },
      can_delete_any_message_group: { direct_members: [], direct_subgroups: [] },
    });
    const own = (await send(member, id, 'mine')).body.id;
    const realmChange = await server.owner.patch('/realm', { can_delete_own_message_group: { new: server.groupId('role:administrators') } });
    assert.equal(realmChange.status, 200, JSON.stringify(realmChange.body));
    try {
      assert.equal((await member.delete(`/messages/${own}`)).status, 400, 'neither the channel nor the organization allows it');
      const allowed = (await createChannel(server.owner, { principals: [member.userId] })).id;
      await server.owner.patch(`/streams/${allowed}`, {
        can_delete_own_message_group: { new: { direct_members: [member.userId], direct_subgroups: [] } },
      });
      const second = (await send(member, allowed, 'mine too')).body.id;
      assert.equal((await member.delete(`/messages/${second}`)).status, 200);
    } finally {
      await server.owner.patch('/realm', { can_delete_own_message_group: { new: server.groupId('role:everyone') } });
    }
  });

  test('Channel table: can_move_messages_out_of_channel_group: channel administrators always can', async () => {
    const { id } = await createChannel(server.owner, {
      principals: [member.userId],
      can_administer_channel_group: { direct_members: [member.userId], direct_subgroups: [] },
      can_move_messages_out_of_channel_group: { direct_members: [], direct_subgroups: [] },
    });
    const target = (await createChannel(server.owner, { principals: [member.userId] })).id;
    const messageId = (await send(member, id, 'moving')).body.id;
    const moved = await member.patch(`/messages/${messageId}`, { stream_id: target });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await member.get(`/messages/${messageId}`)).body.message.stream_id, target);
  });
});

describe('topics_policy rules', () => {
  test('topics_policy: a new channel without the field gets inherit', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await channelById(id)).topics_policy, 'inherit');
  });

  test('topics_policy: inherit allows named topics and uses realm_topics_policy for the empty topic', async () => {
    const { id } = await createChannel(server.owner, { topics_policy: 'inherit' });
    assert.equal((await send(server.owner, id, 'named')).status, 200);
    await server.owner.patch('/realm', { topics_policy: 'disable_empty_topic' });
    try {
      assert.equal((await send(server.owner, id, '')).status, 400);
      await server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' });
      assert.equal((await send(server.owner, id, '')).status, 200);
    } finally {
      await server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' });
    }
  });

  test('topics_policy: allow_empty_topic allows both', async () => {
    const { id } = await createChannel(server.owner, { topics_policy: 'allow_empty_topic' });
    await server.owner.patch('/realm', { topics_policy: 'disable_empty_topic' });
    try {
      assert.equal((await send(server.owner, id, 'named')).status, 200);
      assert.equal((await send(server.owner, id, '')).status, 200);
    } finally {
      await server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' });
    }
  });

  test('topics_policy: disable_empty_topic allows named topics only', async () => {
    const { id } = await createChannel(server.owner, { topics_policy: 'disable_empty_topic' });
    assert.equal((await send(server.owner, id, 'named')).status, 200);
    assert.equal((await send(server.owner, id, '')).status, 400);
  });

  test('topics_policy: empty_topic_only allows only the empty topic', async () => {
    const { id } = await createChannel(server.owner, { topics_policy: 'empty_topic_only' });
    assert.equal((await send(server.owner, id, '')).status, 200);
    assert.equal((await send(server.owner, id, 'named')).status, 400);
  });

  test('topics_policy: empty_topic_only can be set only if all existing messages are already in the empty topic', async () => {
    // A channel made with the policy gets its creation notice in the empty topic, so it stays settable.
    const { id } = await createChannel(server.owner, { topics_policy: 'empty_topic_only' });
    const notice = (await server.owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, allow_empty_topic_name: true, narrow: [{ operator: 'channel', operand: id }] })).body
      .messages[0];
    assert.equal(notice.subject, '');
    await server.owner.patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' });
    assert.equal((await send(server.owner, id, '')).status, 200);
    assert.equal((await server.owner.patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' })).status, 200);

    // As in Zulip, a channel made otherwise has its notice in "channel events", a named topic.
    const named = await createChannel(server.owner, { topics_policy: 'allow_empty_topic' });
    const message =
      'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.';
    refused(await server.owner.patch(`/streams/${named.id}`, { topics_policy: 'empty_topic_only' }), message);
    assert.equal((await channelById(named.id)).topics_policy, 'allow_empty_topic');
  });
});

describe('Access levels', () => {
  test('access levels: metadata access is needed to change can_remove_subscribers_group and can_administer_channel_group', async () => {
    const admin = await userWithRole(200);
    const { id } = await createChannel(server.owner, { invite_only: true });
    const group = server.groupId('role:administrators');
    // An unsubscribed administrator has metadata access to a private channel, but no content access.
    for (const setting of ['can_remove_subscribers_group', 'can_administer_channel_group']) {
      const response = await admin.patch(`/streams/${id}`, { [setting]: { new: group } });
      assert.equal(response.status, 200, `${setting}: ${JSON.stringify(response.body)}`);
      assert.equal((await channelById(id))[setting], group);
    }
  });

  test('access levels: content access is needed to change can_add_subscribers_group', async () => {
    const admin = await userWithRole(200);
    const { id } = await createChannel(server.owner, { invite_only: true });
    const before = (await channelById(id)).can_add_subscribers_group;
    const response = await admin.patch(`/streams/${id}`, { can_add_subscribers_group: { new: server.groupId('role:members') } });
    refused(response, 'Channel content access is required.');
    assert.deepEqual((await channelById(id)).can_add_subscribers_group, before);
  });
});

describe('POST /users/me/subscriptions parameters', () => {
  test('subscribe: subscriptions, each with a name and, for a new channel only, a description', async () => {
    const name = uniqueName();
    await createChannel(server.owner, { subscriptions: [{ name, description: 'first' }] }, name);
    const again = await member.post('/users/me/subscriptions', { subscriptions: [{ name, description: 'second' }] });
    assert.equal(again.status, 200);
    const id = (await member.get('/get_stream_id', { stream: name })).body.stream_id;
    assert.equal((await channelById(id)).description, 'first');
  });

  test('subscribe: principals are user IDs or emails, and default to the caller', async () => {
    const byId = await server.createUser();
    const byEmail = await server.createUser();
    const email = (await server.owner.get(`/users/${byEmail.userId}`)).body.user.email;
    const { id, name } = await createChannel(server.owner, { principals: [byId.userId] });
    assert.deepEqual((await server.owner.get(`/streams/${id}/members`)).body.subscribers, [byId.userId]);
    assert.equal((await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [email] })).status, 200);
    assert.equal((await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }] })).status, 200);
    const subscribers = (await server.owner.get(`/streams/${id}/members`)).body.subscribers;
    assert.deepEqual([...subscribers].sort(), [byId.userId, byEmail.userId, server.ownerId].sort());
  });

  test('subscribe: authorization_errors_fatal false answers 200 and lists the channels under unauthorized', async () => {
    const { name } = await createChannel(server.owner, { invite_only: true });
    const fatal = await member.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    assert.equal(fatal.status, 400);
    const lenient = await member.post('/users/me/subscriptions', { subscriptions: [{ name }], authorization_errors_fatal: false });
    assert.equal(lenient.status, 200);
    assert.deepEqual(lenient.body.unauthorized, [name]);
    assert.deepEqual(lenient.body.subscribed, {});
  });

  test('subscribe: announce true has the notification bot announce a new channel', async () => {
    const announcements = (await createChannel(server.owner)).id;
    await server.owner.patch('/realm', { new_stream_announcements_stream_id: announcements });
    const name = uniqueName();
    await createChannel(server.owner, { announce: true }, name);
    const newest = (
      await server.owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: announcements }] })
    ).body.messages[0];
    assert.ok(newest.content.includes(name), newest.content);
  });

  test('subscribe: invite_only makes a new channel private', async () => {
    const { id } = await createChannel(server.owner, { invite_only: true });
    assert.equal((await channelById(id)).invite_only, true);
  });

  test('subscribe: is_web_public makes a new channel web-public, with the state table requirements', async () => {
    await server.owner.patch('/realm', { enable_spectator_access: false });
    refused(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }], is_web_public: true }), 'Web-public channels are not enabled.');
    await server.owner.patch('/realm', { enable_spectator_access: true });
    const { id } = await createChannel(server.owner, { is_web_public: true });
    assert.equal((await channelById(id)).is_web_public, true);
  });

  test('subscribe: is_default_stream makes a new channel a default channel', async () => {
    const { id } = await createChannel(server.owner, { is_default_stream: true });
    assert.ok((await idsListed(server.owner, { include_default: true, include_public: false, include_subscribed: false })).includes(id));
  });

  test('subscribe: history_public_to_subscribers for a new private channel', async () => {
    const { id } = await createChannel(server.owner, { invite_only: true, history_public_to_subscribers: false });
    assert.equal((await channelById(id)).history_public_to_subscribers, false);
  });

  test('subscribe: message_retention_days is a number of days, realm_default or unlimited', async () => {
    for (const [value, stored] of [[30, 30], ['unlimited', -1], ['realm_default', null]] as const) {
      const { id } = await createChannel(server.owner, { message_retention_days: value });
      assert.equal((await channelById(id)).message_retention_days, stored, String(value));
    }
  });

  test('subscribe: topics_policy sets the policy of a new channel, inherit by default', async () => {
    const { id } = await createChannel(server.owner, { topics_policy: 'disable_empty_topic' });
    assert.equal((await channelById(id)).topics_policy, 'disable_empty_topic');
  });

  test('subscribe: the group settings of a new channel are group-setting values', async () => {
    const moderators = server.groupId('role:moderators');
    const settings = [
      'can_add_subscribers_group',
      'can_remove_subscribers_group',
      'can_administer_channel_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
      'can_move_messages_out_of_channel_group',
    ];
    const { id } = await createChannel(server.owner, Object.fromEntries(settings.map((s) => [s, moderators])));
    const channel = await channelById(id);
    for (const setting of settings) assert.equal(channel[setting], moderators, setting);
  });

  test('subscribe: the creation-only parameters are ignored for channels that already exist', async () => {
    const { id, name } = await createChannel(server.owner);
    const response = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], invite_only: true, topics_policy: 'disable_empty_topic' });
    assert.equal(response.status, 200);
    const channel = await channelById(id);
    assert.equal(channel.invite_only, false);
    assert.equal(channel.topics_policy, 'inherit');
  });

  test('subscribe: a deactivated or unknown principal is 400 BAD_REQUEST', async () => {
    const gone = await server.createUser();
    await server.owner.delete(`/users/${gone.userId}`);
    const name = uniqueName();
    refused(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [gone.userId] }), 'User is deactivated');
    refused(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [999999] }), 'No such user');
    assert.equal((await server.owner.get('/get_stream_id', { stream: name })).status, 400, 'nothing was created');
  });
});

describe('PATCH /streams/{stream_id} parameters', () => {
  test('update channel: description, rendered again', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { description: 'Now *new*' })).status, 200);
    const channel = await channelById(id);
    assert.equal(channel.description, 'Now *new*');
    assert.equal(channel.rendered_description, '<p>Now <em>new</em></p>');
  });

  test('update channel: new_name', async () => {
    const { id } = await createChannel(server.owner);
    const name = uniqueName('renamed');
    assert.equal((await server.owner.patch(`/streams/${id}`, { new_name: name })).status, 200);
    assert.equal((await channelById(id)).name, name);
  });

  test('update channel: is_private changes privacy', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_private: true })).status, 200);
    assert.equal((await channelById(id)).invite_only, true);
  });

  test('update channel: is_web_public changes web-public status', async () => {
    await server.owner.patch('/realm', { enable_spectator_access: true });
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_web_public: true })).status, 200);
    assert.equal((await channelById(id)).is_web_public, true);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_web_public: false })).status, 200);
    assert.equal((await channelById(id)).is_web_public, false);
  });

  test('update channel: history_public_to_subscribers false is an error for a public or web-public channel', async () => {
    const { id } = await createChannel(server.owner);
    refused(await server.owner.patch(`/streams/${id}`, { history_public_to_subscribers: false }), 'Invalid parameters');
    const secret = (await createChannel(server.owner, { invite_only: true })).id;
    assert.equal((await server.owner.patch(`/streams/${secret}`, { history_public_to_subscribers: false })).status, 200);
    assert.equal((await channelById(secret)).history_public_to_subscribers, false);
  });

  test('update channel: is_default_stream adds or removes a default channel', async () => {
    const { id } = await createChannel(server.owner);
    const defaults = () => idsListed(server.owner, { include_default: true, include_public: false, include_subscribed: false });
    await server.owner.patch(`/streams/${id}`, { is_default_stream: true });
    assert.ok((await defaults()).includes(id));
    await server.owner.patch(`/streams/${id}`, { is_default_stream: false });
    assert.ok(!(await defaults()).includes(id));
  });

  test('update channel: message_retention_days is a number, realm_default or unlimited', async () => {
    const { id } = await createChannel(server.owner);
    for (const [value, stored] of [[7, 7], ['unlimited', -1], ['realm_default', null]] as const) {
      assert.equal((await server.owner.patch(`/streams/${id}`, { message_retention_days: value })).status, 200);
      assert.equal((await channelById(id)).message_retention_days, stored, String(value));
    }
  });

  test('update channel: is_archived supports only unarchiving', async () => {
    const { id } = await createChannel(server.owner);
    const archiving = await server.owner.patch(`/streams/${id}`, { is_archived: true });
    assert.equal((await channelById(id)).is_archived, false, `archiving through PATCH does nothing: ${JSON.stringify(archiving.body)}`);
  });

  test('update channel: folder_id null removes the folder; an unknown folder is an error', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: null })).status, 200);
    assert.equal((await channelById(id)).folder_id, null);
    refused(await server.owner.patch(`/streams/${id}`, { folder_id: 999999 }), 'Invalid channel folder ID');
  });

  test('update channel: topics_policy takes the same enum', async () => {
    const { id } = await createChannel(server.owner);
    assert.equal((await server.owner.patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' })).status, 200);
    assert.equal((await channelById(id)).topics_policy, 'allow_empty_topic');
    refused(await server.owner.patch(`/streams/${id}`, { topics_policy: 'sometimes' }), 'Invalid topics_policy');
  });

  test('update channel: the group settings are {new, old} update objects', async () => {
    const { id } = await createChannel(server.owner);
    const moderators = server.groupId('role:moderators');
    for (const setting of [
      'can_add_subscribers_group',
      'can_remove_subscribers_group',
      'can_administer_channel_group',
      'can_delete_any_message_group',
      'can_delete_own_message_group',
    ]) {
      const old = (await channelById(id))[setting];
      const response = await server.owner.patch(`/streams/${id}`, { [setting]: { new: moderators, old } });
      assert.equal(response.status, 200, `${setting}: ${JSON.stringify(response.body)}`);
      assert.equal((await channelById(id))[setting], moderators, setting);
    }
  });

  test('update channel: organization administrators can edit any channel; a private channel\'s permissions need a subscribed administrator', async () => {
    const admin = await userWithRole(200);
    const { id } = await createChannel(server.owner, { invite_only: true });
    assert.equal((await admin.patch(`/streams/${id}`, { description: 'edited by an outsider administrator' })).status, 200);
    refused(await admin.patch(`/streams/${id}`, { is_private: false }), 'Channel content access is required.');
    assert.equal((await channelById(id)).invite_only, true);
  });
});

describe('GET /streams parameters', () => {
  let publicId: number;
  let privateId: number;
  let subscribedPrivateId: number;
  let webPublicId: number;
  let archivedId: number;
  before(async () => {
    await server.owner.patch('/realm', { enable_spectator_access: true });
    publicId = (await createChannel(server.owner)).id;
    privateId = (await createChannel(server.owner, { invite_only: true })).id;
    subscribedPrivateId = (await createChannel(server.owner, { invite_only: true, principals: [server.ownerId, member.userId] })).id;
    webPublicId = (await createChannel(server.owner, { is_web_public: true })).id;
    archivedId = (await createChannel(server.owner)).id;
    await server.owner.delete(`/streams/${archivedId}`);
  });

  test('get channels: include_public (default true) lists all public channels', async () => {
    assert.ok((await idsListed(member, {})).includes(publicId));
    assert.ok(!(await idsListed(member, { include_public: false })).includes(publicId));
  });

  test('get channels: include_web_public lists all web-public channels', async () => {
    const listed = await idsListed(member, { include_public: false, include_subscribed: false, include_web_public: true });
    assert.deepEqual(listed.includes(webPublicId), true);
    assert.ok(!listed.includes(publicId));
  });

  test('get channels: include_subscribed (default true) lists the caller\'s channels', async () => {
    assert.ok((await idsListed(member, { include_public: false })).includes(subscribedPrivateId));
    assert.ok(!(await idsListed(member, { include_public: false, include_subscribed: false })).includes(subscribedPrivateId));
  });

  test('get channels: exclude_archived (default true) leaves archived channels out', async () => {
    assert.ok(!(await idsListed(member, {})).includes(archivedId));
    assert.ok((await idsListed(member, { exclude_archived: false })).includes(archivedId));
  });

  test('get channels: include_all lists every channel with metadata access; all channels for administrators', async () => {
    assert.ok(!(await idsListed(member, { include_all: true })).includes(privateId));
    assert.ok((await idsListed(server.owner, { include_all: true })).includes(privateId));
  });

  test('get channels: include_default lists the default channels', async () => {
    await server.owner.patch(`/streams/${publicId}`, { is_default_stream: true });
    const listed = await idsListed(member, { include_public: false, include_subscribed: false, include_default: true });
    assert.ok(listed.includes(publicId));
    await server.owner.patch(`/streams/${publicId}`, { is_default_stream: false });
  });

  test('get channels: include_owner_subscribed lists, for a bot, the channels its owner is subscribed to', async () => {
    const created = await member.post('/bots', { full_name: 'Listing Bot', short_name: 'listing' });
    const { email } = (await server.owner.get(`/users/${created.body.user_id}`)).body.user;
    const bot = server.anonymous.as({ email, apiKey: created.body.api_key });
    assert.ok(!(await idsListed(bot, { include_public: false })).includes(subscribedPrivateId));
    assert.ok((await idsListed(bot, { include_public: false, include_owner_subscribed: true })).includes(subscribedPrivateId));
  });

  test('get channels: include_can_access_content lists the channels with content access', async () => {
    const listed = await idsListed(member, { include_public: false, include_subscribed: false, include_can_access_content: true });
    assert.ok(listed.includes(publicId) && listed.includes(subscribedPrivateId));
    assert.ok(!listed.includes(privateId));
  });

  test('get channels: include_all_active is a deprecated alias of include_all that needs administrative privileges', async () => {
    refused(await member.get('/streams', { include_all_active: true }), 'User not authorized for this query');
    assert.ok((await idsListed(server.owner, { include_all_active: true })).includes(privateId));
  });
});

describe('States and transitions', () => {
  /** Restarts on the same data, and gives back the member logged in again. */
  async function restart(): Promise<void> {
    await server.restart();
    member = Object.assign(server.anonymous.as(member.credentials), { userId: member.userId, credentials: member.credentials });
  }

  test('state table: Channel does not exist -> exists: subscribe naming an unknown channel, when the caller may create it; subscribers per principals; announce has the bot announce it', async () => {
    const events = await listen(member, { event_types: ['stream', 'subscription'] });
    const name = uniqueName();
    const created = await server.owner.post('/users/me/subscriptions', {
      subscriptions: [{ name, description: 'made here' }],
      principals: [member.userId],
      topics_policy: 'allow_empty_topic',
      announce: true,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.subscribed, { [String(member.userId)]: [name] });
    const seen = await events();
    assert.ok(seen.some((e) => e.type === 'stream' && e.op === 'create' && e.streams[0].name === name));
    assert.ok(seen.some((e) => e.type === 'subscription' && e.op === 'add' && e.subscriptions[0].name === name));
    const guest = await userWithRole(600);
    refused(await guest.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }] }), 'Not allowed for guest users');
    await restart();
    const id = (await member.get('/get_stream_id', { stream: name })).body.stream_id;
    const channel = await channelById(id);
    assert.equal(channel.description, 'made here');
    assert.equal(channel.topics_policy, 'allow_empty_topic');
  });

  test('state table: Channel archived -> not archived: update-channel with is_archived (only unarchiving); since level 362 subscriptions in archived channels can be modified', async () => {
    const { id, name } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    await server.owner.delete(`/streams/${id}`);
    const unsubscribed = await member.delete('/users/me/subscriptions', { subscriptions: [name] });
    assert.equal(unsubscribed.status, 200, JSON.stringify(unsubscribed.body));
    assert.deepEqual(unsubscribed.body.removed, [name]);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_archived: false })).status, 200);
    await restart();
    assert.equal((await channelById(id)).is_archived, false);
  });

  test('state table: Channel public -> private: administrator; for a private channel the administrator must be subscribed', async () => {
    const moderator = await userWithRole(300);
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, moderator.userId] });
    assert.equal((await moderator.patch(`/streams/${id}`, { is_private: true })).body.code, 'BAD_REQUEST');
    const events = await listen(member, { event_types: ['stream'] });
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_private: true })).status, 200);
    assert.ok((await events()).some((e) => e.type === 'stream' && e.op === 'delete'), 'the channel leaves the view of outsiders');
    await restart();
    assert.equal((await channelById(id)).invite_only, true);
  });

  test('state table: Channel private -> public: the same condition; history_public_to_subscribers false is an error for a public channel', async () => {
    const admin = await userWithRole(200);
    const { id } = await createChannel(server.owner, { invite_only: true, history_public_to_subscribers: false });
    refused(await admin.patch(`/streams/${id}`, { is_private: false }), 'Channel content access is required.');
    refused(await server.owner.patch(`/streams/${id}`, { is_private: false, history_public_to_subscribers: false }), 'Invalid parameters');
    assert.equal((await channelById(id)).invite_only, true);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_private: false })).status, 200);
    const channel = await channelById(id);
    assert.equal(channel.invite_only, false);
    assert.equal(channel.history_public_to_subscribers, true);
  });

  test('state table: Channel not web-public -> web-public: server setting on, enable_spectator_access on, caller in can_create_web_public_channel_group', async () => {
    const { id } = await createChannel(server.owner);
    await server.owner.patch('/realm', { enable_spectator_access: false });
    refused(await server.owner.patch(`/streams/${id}`, { is_web_public: true }), 'Web-public channels are not enabled.');
    await server.owner.patch('/realm', { enable_spectator_access: true });
    const admin = await userWithRole(200);
    refused(await admin.patch(`/streams/${id}`, { is_web_public: true }), 'Insufficient permission');
    assert.equal((await channelById(id)).is_web_public, false);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_web_public: true })).status, 200);
    assert.equal((await channelById(id)).is_web_public, true);

    const closed = await TestServer.start();
    try {
      const other = await createChannel(closed.owner);
      await closed.owner.patch('/realm', { enable_spectator_access: true });
      refused(await closed.owner.patch(`/streams/${other.id}`, { is_web_public: true }), 'Web-public channels are not enabled.');
    } finally {
      await closed.close();
    }
  });

  test('state table: Channel not default -> default for new users: update-channel with is_default_stream (false reverses it)', async () => {
    const { id } = await createChannel(server.owner);
    await server.owner.patch(`/streams/${id}`, { is_default_stream: true });
    const newcomer = await server.createUser();
    assert.ok((await idsListed(newcomer, { include_public: false })).includes(id), 'a new user is subscribed to it');
    await server.owner.patch(`/streams/${id}`, { is_default_stream: false });
    const later = await server.createUser();
    assert.ok(!(await idsListed(later, { include_public: false })).includes(id));
  });

  test('state table: Channel in a folder -> in no folder: update-channel with folder_id null', async () => {
    const { id } = await createChannel(server.owner);
    // Channel folders have no endpoint here yet; this stands in for creating one.
    const folderId = Number(
      server.stoa.db.prepare("INSERT INTO channel_folders (name, date_created) VALUES ('Rules folder', 0)").run().lastInsertRowid,
    );
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: folderId })).status, 200);
    assert.equal((await channelById(id)).folder_id, folderId);
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: null })).status, 200);
    await restart();
    assert.equal((await channelById(id)).folder_id, null);
  });

  test('state table: Topic not muted -> muted: muted-topics op add, caller subscribed; succeeds without messages and (level 169) when already muted', async () => {
    const { id, name } = await createChannel(server.owner, { principals: [member.userId] });
    const outsider = await server.createUser();
    assert.equal((await outsider.patch('/users/me/subscriptions/muted_topics', { stream_id: id, topic: 'quiet', op: 'add' })).status, 400);
    for (let i = 0; i < 2; i++) {
      const response = await member.patch('/users/me/subscriptions/muted_topics', { stream_id: id, topic: 'quiet', op: 'add' });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    }
    await restart();
    const state = (await member.post('/register', { fetch_event_types: ['muted_topics'] })).body;
    assert.deepEqual(state.muted_topics.filter((m: unknown[]) => m[0] === name).map((m: unknown[]) => m[1]), ['quiet']);
  });

  test('state table: Topic muted -> not muted: muted-topics op remove; succeeds even if not muted (level 169)', async () => {
    const { id, name } = await createChannel(server.owner, { principals: [member.userId] });
    await member.patch('/users/me/subscriptions/muted_topics', { stream_id: id, topic: 'loud', op: 'add' });
    for (let i = 0; i < 2; i++) {
      const response = await member.patch('/users/me/subscriptions/muted_topics', { stream_id: id, topic: 'loud', op: 'remove' });
      assert.equal(response.status, 200, JSON.stringify(response.body));
    }
    const state = (await member.post('/register', { fetch_event_types: ['muted_topics'] })).body;
    assert.deepEqual(state.muted_topics.filter((m: unknown[]) => m[0] === name), []);
  });

  test('state table: Message flag absent -> present: flags op add, when the flag is user-changeable', async () => {
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const messageId = (await send(server.owner, id, 'flags')).body.id;
    assert.equal((await member.post('/messages/flags', { messages: [messageId], op: 'add', flag: 'starred' })).status, 200);
    refused(await member.post('/messages/flags', { messages: [messageId], op: 'add', flag: 'mentioned' }), "Flag not editable: 'mentioned'");
    await restart();
    const message = (await member.get(`/messages/${messageId}`)).body.message;
    assert.deepEqual(message.flags.sort(), ['starred']);
  });

  test('state table: Message flag present -> absent: flags op remove; for read, unsubscribed channels are skipped and their IDs returned', async () => {
    const subscribedChannel = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const otherChannel = await createChannel(server.owner);
    const mine = (await send(server.owner, subscribedChannel.id, 'read me')).body.id;
    const other = (await send(server.owner, otherChannel.id, 'not mine')).body.id;
    await member.post('/messages/flags', { messages: [mine], op: 'add', flag: 'read' });
    const response = await member.post('/messages/flags', { messages: [mine, other], op: 'remove', flag: 'read' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.deepEqual(response.body.ignored_because_not_subscribed_channels, [otherChannel.id]);
    assert.deepEqual(response.body.messages, [mine], 'messages lists only the modified IDs');
    assert.ok(!(await member.get(`/messages/${mine}`)).body.message.flags.includes('read'));
  });

  test('state table: Messages unread -> read: mark-all-as-read, complete true when not interrupted', async () => {
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const messageId = (await send(server.owner, id, 'unread')).body.id;
    const response = await member.post('/mark_all_as_read');
    assert.equal(response.status, 200);
    assert.equal(response.body.complete, true);
    assert.ok((await member.get(`/messages/${messageId}`)).body.message.flags.includes('read'));
  });

  test('state table: Reaction absent -> present: add-reaction with a valid emoji; if it exists, REACTION_ALREADY_EXISTS', async () => {
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const messageId = (await send(server.owner, id, 'react')).body.id;
    refused(await member.post(`/messages/${messageId}/reactions`, { emoji_name: 'no_such_emoji_here' }), "Emoji 'no_such_emoji_here' does not exist");
    assert.equal((await member.post(`/messages/${messageId}/reactions`, { emoji_name: 'octopus' })).status, 200);
    refused(await member.post(`/messages/${messageId}/reactions`, { emoji_name: 'octopus' }), 'Reaction already exists.', 'REACTION_ALREADY_EXISTS');
    const reactions = (await member.get(`/messages/${messageId}`)).body.message.reactions;
    assert.deepEqual(reactions.map((r: { emoji_name: string; user_id: number }) => [r.emoji_name, r.user_id]), [['octopus', member.userId]]);
  });

  test('state table: User presence any -> reported status: presence update with status active or idle', async () => {
    const watcher = await server.createUser();
    const reporter = await server.createUser();
    const email = (await server.owner.get(`/users/${reporter.userId}`)).body.user.email;
    // A new user counts as active when they joined, so an idle report alone still aggregates to active.
    assert.equal((await reporter.post('/users/me/presence', { status: 'idle' })).status, 200);
    const afterIdle = (await watcher.post('/users/me/presence', { status: 'active', last_update_id: -1 })).body.presences;
    assert.equal(typeof afterIdle[String(reporter.userId)].idle_timestamp, 'number');
    assert.equal((await reporter.post('/users/me/presence', { status: 'active' })).status, 200);
    const presences = (await watcher.post('/users/me/presence', { status: 'active' })).body.presences;
    assert.equal(presences[email].aggregated.status, 'active');
  });
});
