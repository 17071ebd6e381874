import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './support/browser';
import type { ApiResponse, Client } from './support/client';
import { createChannel, uniqueName } from './support/channels';
import { listen } from './support/events';
import { sendMessage } from './support/messages';
import { assertValidEvent12, assertValidResponse12 } from './support/openapi';
import { TestServer } from './support/server';

/**
 * What Zulip 11 and 12 (feature levels 373 to 488) changed about channels, each checked
 * against Zulip 12's description as well as by what a client sees.
 */

let server: TestServer;
before(async () => {
  server = await TestServer.start();
});
after(() => server.close());

const MODERATOR = 300;

/** Checks a response against Zulip 12's description of the request that produced it. */
function valid12(method: string, path: string, response: ApiResponse): ApiResponse {
  assertValidResponse12(method, `/api/v1${path}`, response.status, response.body);
  return response;
}

/** Reads events as `listen` does, each also checked against Zulip 12's description. */
async function listen12(client: Client, params: Record<string, unknown>) {
  const read = await listen(client, params);
  return async () => {
    const events = await read();
    for (const event of events) assertValidEvent12({ id: 0, ...event });
    return events;
  };
}

/** What register answers about channels; the rest of its answer is other areas' business. */
const CHANNEL_STATE_KEYS = [
  'result', 'msg', 'queue_id', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base',
  'streams', 'subscriptions', 'unsubscribed', 'never_subscribed', 'channel_folders', 'realm_default_streams',
  'max_channel_folder_name_length', 'max_channel_folder_description_length', 'max_bulk_new_subscription_messages',
  'max_stream_name_length', 'max_stream_description_length', 'realm_topics_policy', 'realm_mandatory_topics',
  'realm_can_set_topics_policy_group', 'realm_can_set_delete_message_policy_group', 'server_supported_permission_settings',
];

async function register(client: Client, params: Record<string, unknown>) {
  const response = await client.post('/register', params);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  const channelPart = Object.fromEntries(Object.entries(response.body).filter(([key]) => CHANNEL_STATE_KEYS.includes(key)));
  assertValidResponse12('POST', '/api/v1/register', 200, channelPart);
  return response.body;
}

async function createFolder(name = uniqueName('folder'), description = ''): Promise<number> {
  const response = valid12('POST', '/channel_folders/create', await server.owner.post('/channel_folders/create', { name, description }));
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body.channel_folder_id as number;
}

async function allFolders(): Promise<Array<Record<string, any>>> {
  const response = valid12('GET', '/channel_folders', await server.owner.get('/channel_folders', { include_archived: true }));
  return response.body.channel_folders;
}

describe('channel folders (feature levels 389, 410, 414, 418)', () => {
  test('administrators create folders; everyone hears of them and finds them in register', async () => {
    const member = await server.createUser();
    const events = await listen12(member, { event_types: ['channel_folder'] });
    const name = uniqueName('Frontend');
    const id = await createFolder(name, 'Channels for **frontend** work');
    const [event] = await events();
    assert.equal(event.type, 'channel_folder');
    assert.equal(event.op, 'add');
    assert.equal(event.channel_folder.id, id);
    assert.equal(event.channel_folder.name, name);
    assert.equal(event.channel_folder.rendered_description, '<p>Channels for <strong>frontend</strong> work</p>');
    assert.equal(event.channel_folder.creator_id, server.ownerId);
    assert.equal(event.channel_folder.is_archived, false);
    const state = await register(member, { fetch_event_types: ['channel_folders', 'realm'] });
    assert.deepEqual(state.channel_folders.find((f: { id: number }) => f.id === id), event.channel_folder);
    assert.equal(state.max_channel_folder_name_length, 60);
    assert.equal(state.max_channel_folder_description_length, 1024);

    const refused = await member.post('/channel_folders/create', { name: uniqueName('mine'), description: '' });
    assert.deepEqual(refused.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
  });

  test('names must be non-blank, printable, short enough and unique without regard to case', async () => {
    const name = uniqueName('Backend');
    await createFolder(name);
    const attempt = (params: Record<string, unknown>) => server.owner.post('/channel_folders/create', { description: '', ...params });
    assert.equal((await attempt({ name: '   ' })).body.msg, "Channel folder name can't be empty.");
    assert.equal((await attempt({ name: 'a\u0000b' })).body.msg, 'Invalid character in channel folder name, at position 2.');
    assert.equal((await attempt({ name: name.toUpperCase() })).body.msg, `Channel folder '${name.toUpperCase()}' already exists`);
    assert.equal((await attempt({ name: 'x'.repeat(61) })).status, 400);
    assert.equal((await server.owner.post('/channel_folders/create', { name: uniqueName('no description') })).body.msg, "Missing 'description' argument");
  });

  test('PATCH changes name and description, and archives only an empty folder', async () => {
    const id = await createFolder();
    const { id: channelId } = await createChannel(server.owner, { folder_id: id });
    const events = await listen12(server.owner, { event_types: ['channel_folder', 'stream'] });
    const renamed = uniqueName('Renamed');
    valid12('PATCH', `/channel_folders/${id}`, await server.owner.patch(`/channel_folders/${id}`, { name: renamed, description: 'New *words*' }));
    const busy = await server.owner.patch(`/channel_folders/${id}`, { is_archived: true });
    assert.equal(busy.body.msg, 'You need to remove all the channels from this folder to archive it.');
    await server.owner.patch(`/streams/${channelId}`, { folder_id: null });
    assert.equal((await server.owner.patch(`/channel_folders/${id}`, { is_archived: true })).status, 200);
    const seen = await events();
    assert.deepEqual(
      seen.filter((e) => e.type === 'channel_folder'),
      [
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: renamed } },
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'New *words*', rendered_description: '<p>New <em>words</em></p>' } },
        { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
      ],
    );
    // Leaving the folder is a stream update whose value is null.
    assert.deepEqual(seen.find((e) => e.type === 'stream'), {
      type: 'stream', op: 'update', stream_id: channelId, name: seen.find((e) => e.type === 'stream')!.name, property: 'folder_id', value: null,
    });
    const listed = (await server.owner.get('/channel_folders')).body.channel_folders as Array<{ id: number }>;
    assert.ok(!listed.some((f) => f.id === id), 'an archived folder is left out unless asked for');
    assert.equal((await allFolders()).find((f) => f.id === id)!.is_archived, true);
    assert.equal((await server.owner.patch('/channel_folders/99999', { name: 'x' })).body.msg, 'Invalid channel folder ID');
    const member = await server.createUser();
    assert.equal((await member.patch(`/channel_folders/${id}`, { name: 'x' })).body.code, 'UNAUTHORIZED_PRINCIPAL');
  });

  test('PATCH /channel_folders reorders every folder, archived ones too, and the order lasts', async () => {
    const a = await createFolder();
    const b = await createFolder();
    const before = (await allFolders()).map((f) => f.id);
    assert.deepEqual(before.slice(-2), [a, b], 'a new folder goes last');
    assert.deepEqual((await allFolders()).map((f) => f.order), before.map((_, i) => i));
    const missing = await server.owner.patch('/channel_folders', { order: [b, a] });
    assert.deepEqual(missing.body, { result: 'error', msg: 'Invalid order mapping.', code: 'BAD_REQUEST' });
    const events = await listen12(server.owner, { event_types: ['channel_folder'] });
    const order = [...before].reverse();
    valid12('PATCH', '/channel_folders', await server.owner.patch('/channel_folders', { order }));
    assert.deepEqual(await events(), [{ type: 'channel_folder', op: 'reorder', order }]);
    await server.restart();
    assert.deepEqual((await allFolders()).map((f) => f.id), order);
    assert.deepEqual((await register(server.owner, { fetch_event_types: ['channel_folders'] })).channel_folders.map((f: { id: number }) => f.id), order);
  });

  test('a channel joins a folder when created or changed; an unknown folder is refused', async () => {
    const folder = await createFolder();
    const { id } = await createChannel(server.owner, { folder_id: folder });
    const stream = valid12('GET', `/streams/${id}`, await server.owner.get(`/streams/${id}`)).body.stream;
    assert.equal(stream.folder_id, folder);
    assert.equal((await server.owner.patch(`/streams/${id}`, { folder_id: 99999 })).body.msg, 'Invalid channel folder ID');
    assert.equal((await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }], folder_id: 99999 })).body.msg, 'Invalid channel folder ID');
    const other = await createFolder();
    const events = await listen12(server.owner, { event_types: ['stream'] });
    await server.owner.patch(`/streams/${id}`, { folder_id: other });
    assert.deepEqual((await events()).map((e) => [e.property, e.value]), [['folder_id', other]]);
    const subscription = (await register(server.owner, { fetch_event_types: ['subscription'] })).subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.equal(subscription.folder_id, other);
  });
});

describe('channel folders for spectators', () => {
  test('a visitor sees only the folders holding a web-public channel', async () => {
    const site = await TestServer.start({ webPublic: true });
    try {
      await site.owner.patch('/realm', { enable_spectator_access: true });
      const folder = async (name: string) => (await site.owner.post('/channel_folders/create', { name, description: '' })).body.channel_folder_id;
      const open = await folder('Open');
      await folder('Members only');
      await createChannel(site.owner, { is_web_public: true, folder_id: open });
      const state = await new Browser(site.url).post('/register', { fetch_event_types: ['channel_folders'] });
      assert.equal(state.status, 200, JSON.stringify(state.body));
      assert.deepEqual(state.body.channel_folders.map((f: { id: number }) => f.id), [open]);
    } finally {
      await site.close();
    }
  });
});

describe('POST /channels/create (feature level 417)', () => {
  test('creates a channel with its settings and the named subscribers only', async () => {
    const alice = await server.createUser();
    const folder = await createFolder();
    const name = uniqueName('created');
    const aliceEvents = await listen12(alice, { event_types: ['subscription'] });
    const response = valid12(
      'POST',
      '/channels/create',
      await server.owner.post('/channels/create', {
        name,
        description: 'About *this*',
        subscribers: [alice.userId],
        invite_only: true,
        folder_id: folder,
        topics_policy: 'disable_empty_topic',
        can_create_topic_group: server.groupId('role:members'),
      }),
    );
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const id = response.body.id as number;
    assert.deepEqual(Object.keys(response.body).sort(), ['id', 'msg', 'result']);
    const stream = (await alice.get(`/streams/${id}`)).body.stream;
    assert.equal(stream.name, name);
    assert.equal(stream.invite_only, true);
    assert.equal(stream.history_public_to_subscribers, false);
    assert.equal(stream.folder_id, folder);
    assert.equal(stream.topics_policy, 'disable_empty_topic');
    assert.equal(stream.can_create_topic_group, server.groupId('role:members'));
    assert.equal(stream.subscriber_count, 1);
    assert.deepEqual((await alice.get(`/streams/${id}/members`)).body.subscribers, [alice.userId]);
    const [added] = await aliceEvents();
    assert.equal(added.op, 'add');
    assert.equal(added.subscriptions[0].stream_id, id);
  });

  test('refuses a taken name with 409, and what subscribing would refuse', async () => {
    const { name } = await createChannel(server.owner);
    const taken = await server.owner.post('/channels/create', { name: name.toUpperCase(), subscribers: [] });
    assert.equal(taken.status, 409);
    assert.deepEqual(taken.body, { result: 'error', msg: `Channel '${name.toUpperCase()}' already exists`, code: 'CHANNEL_ALREADY_EXISTS' });
    assert.equal((await server.owner.post('/channels/create', { name: uniqueName() })).body.msg, "Missing 'subscribers' argument");
    assert.equal((await server.owner.post('/channels/create', { name: ' ', subscribers: [] })).body.msg, "Channel name can't be empty.");
    assert.equal((await server.owner.post('/channels/create', { name: uniqueName(), subscribers: [99999] })).body.msg, 'No such user');
    const guest = await server.createUser();
    await server.owner.patch(`/users/${guest.userId}`, { role: 600 });
    assert.equal((await guest.post('/channels/create', { name: uniqueName(), subscribers: [] })).body.msg, 'Not allowed for guest users');
    const member = await server.createUser();
    assert.equal((await member.post('/channels/create', { name: uniqueName(), subscribers: [], is_default_stream: true })).body.msg, 'Insufficient permission');
  });
});

describe('GET /users/{user_id}/channels (feature levels 440, 458)', () => {
  test('lists what the user is in, of the channels the caller may see; bots too', async () => {
    const user = await server.createUser();
    const outsider = await server.createUser();
    const open = await createChannel(server.owner, { principals: [user.userId] });
    const secret = await createChannel(server.owner, { principals: [server.ownerId, user.userId], invite_only: true });
    const owner = valid12('GET', `/users/${user.userId}/channels`, await server.owner.get(`/users/${user.userId}/channels`));
    assert.deepEqual(owner.body.subscribed_channel_ids, [open.id, secret.id]);
    assert.deepEqual((await outsider.get(`/users/${user.userId}/channels`)).body.subscribed_channel_ids, [open.id]);
    const bot = await server.owner.post('/bots', { full_name: 'Channel Bot', short_name: 'channelbot' });
    await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: open.name }], principals: [bot.body.user_id] });
    assert.deepEqual((await outsider.get(`/users/${bot.body.user_id}/channels`)).body.subscribed_channel_ids, [open.id]);
    assert.deepEqual((await outsider.get(`/users/${bot.body.user_id}/subscriptions/${open.id}`)).body.is_subscribed, true);
    assert.equal((await outsider.get('/users/99999/channels')).body.msg, 'No such user');
  });
});

describe('PATCH /users/me/subscriptions/{stream_id}', () => {
  test('changes one personal setting of one subscription', async () => {
    const user = await server.createUser();
    const { id } = await createChannel(user);
    const events = await listen12(user, { event_types: ['subscription'] });
    valid12('PATCH', `/users/me/subscriptions/${id}`, await user.patch(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: true }));
    assert.deepEqual(await events(), [{ type: 'subscription', op: 'update', stream_id: id, property: 'pin_to_top', value: true }]);
    await user.patch(`/users/me/subscriptions/${id}`, { property: 'color', value: '#abcdef' });
    const mine = (await user.get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.equal(mine.pin_to_top, true);
    assert.equal(mine.color, '#abcdef');
    const { id: other } = await createChannel(server.owner);
    assert.equal((await user.patch(`/users/me/subscriptions/${other}`, { property: 'pin_to_top', value: true })).body.msg, `Not subscribed to channel ID ${other}`);
    assert.equal((await user.patch(`/users/me/subscriptions/${id}`, { property: 'volume', value: true })).body.msg, 'Unknown subscription property: volume');
    assert.equal((await user.patch(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: 'yes' })).body.msg, 'pin_to_top is not a boolean');
  });
});

describe('subscriber_count (feature level 394)', () => {
  test('counts active subscribers on channels and subscriptions', async () => {
    const a = await server.createUser();
    const b = await server.createUser();
    const { id, name } = await createChannel(server.owner, { principals: [server.ownerId, a.userId, b.userId] });
    const count = async () => (await server.owner.get(`/streams/${id}`)).body.stream.subscriber_count;
    assert.equal(await count(), 3);
    await b.delete('/users/me/subscriptions', { subscriptions: [name] });
    assert.equal(await count(), 2);
    await server.owner.delete(`/users/${a.userId}`);
    assert.equal(await count(), 1);
    const subscription = (await server.owner.get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.equal(subscription.subscriber_count, 1);
    const state = await register(server.owner, { fetch_event_types: ['subscription', 'stream'] });
    assert.equal(state.streams.find((s: { stream_id: number }) => s.stream_id === id).subscriber_count, 1);
  });
});

describe('archived channels (feature levels 377, 378, 388, 428, 480)', () => {
  test('deactivating a user takes them out of the subscribers of every channel, archived ones too', async () => {
    const leaving = await server.createUser();
    const watcher = await server.createUser();
    const live = await createChannel(server.owner, { principals: [leaving.userId, watcher.userId] });
    const archived = await createChannel(server.owner, { principals: [leaving.userId, watcher.userId] });
    await server.owner.delete(`/streams/${archived.id}`);
    const events = await listen12(watcher, { event_types: ['subscription'], client_capabilities: { archived_channels: true } });
    await server.owner.delete(`/users/${leaving.userId}`);
    const removed = (await events()).filter((e) => e.op === 'peer_remove');
    assert.deepEqual(removed.flatMap((e) => e.stream_ids).sort((x: number, y: number) => x - y), [live.id, archived.id]);
    assert.ok(removed.every((e) => e.user_ids.length === 1 && e.user_ids[0] === leaving.userId));
  });

  test('an archived channel is still found by ID, with its subscribers and topics; register lists it for clients that handle it', async () => {
    const member = await server.createUser();
    const { id, name } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    await sendMessage(member, { type: 'stream', to: name, topic: 'kept', content: 'hello' });
    await server.owner.delete(`/streams/${id}`);
    assert.equal(valid12('GET', `/streams/${id}`, await member.get(`/streams/${id}`)).body.stream.is_archived, true);
    assert.deepEqual(valid12('GET', `/streams/${id}/members`, await member.get(`/streams/${id}/members`)).body.subscribers, [server.ownerId, member.userId]);
    const topics = valid12('GET', `/users/me/${id}/topics`, await member.get(`/users/me/${id}/topics`)).body.topics;
    assert.ok(topics.some((t: { name: string }) => t.name === 'kept'), JSON.stringify(topics));
    const modern = await register(member, { fetch_event_types: ['stream', 'subscription'], client_capabilities: { archived_channels: true } });
    assert.equal(modern.streams.find((s: { stream_id: number }) => s.stream_id === id)?.is_archived, true);
    assert.equal(modern.subscriptions.find((s: { stream_id: number }) => s.stream_id === id)?.is_archived, true);
    const older = await register(member, { fetch_event_types: ['stream', 'subscription'] });
    assert.ok(!older.streams.some((s: { stream_id: number }) => s.stream_id === id));
    assert.ok(!older.subscriptions.some((s: { stream_id: number }) => s.stream_id === id));
    const events = await listen12(member, { event_types: ['stream'], client_capabilities: { archived_channels: true } });
    valid12('PATCH', `/streams/${id}`, await server.owner.patch(`/streams/${id}`, { is_archived: false }));
    assert.deepEqual(await events(), [{ type: 'stream', op: 'update', stream_id: id, name, property: 'is_archived', value: false }]);
    assert.equal((await server.owner.patch(`/streams/${id}`, { is_archived: false })).body.msg, 'Channel is not currently deactivated');
  });
});

describe('topics_policy and who may set it (feature levels 392, 404)', () => {
  test('a channel administrator needs can_set_topics_policy_group; moderators hold it by default', async () => {
    const member = await server.createUser();
    const { id } = await createChannel(member);
    const realm = await register(member, { fetch_event_types: ['realm'] });
    assert.equal(realm.realm_can_set_topics_policy_group, server.groupId('role:moderators'));
    assert.equal(realm.realm_topics_policy, 'allow_empty_topic');
    assert.equal(realm.realm_mandatory_topics, false);
    assert.equal((await member.patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' })).body.msg, 'Insufficient permission');
    assert.equal((await member.post('/users/me/subscriptions', { subscriptions: [{ name: uniqueName() }], topics_policy: 'disable_empty_topic' })).body.msg, 'Insufficient permission');
    const realmEvents = await listen12(member, { event_types: ['realm'] });
    const members = server.groupId('role:members');
    await server.owner.patch('/realm', { can_set_topics_policy_group: { new: members } });
    assert.deepEqual(await realmEvents(), [{ type: 'realm', op: 'update_dict', property: 'default', data: { can_set_topics_policy_group: members } }]);
    assert.equal((await member.patch(`/streams/${id}`, { topics_policy: 'allow_empty_topic' })).status, 200);
    await server.owner.patch('/realm', { can_set_topics_policy_group: { new: server.groupId('role:moderators') } });
    assert.equal((await member.patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' })).body.msg, 'Insufficient permission');
    await server.owner.patch(`/users/${member.userId}`, { role: MODERATOR });
    assert.equal((await member.patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' })).status, 200);
    assert.equal((await member.get(`/streams/${id}`)).body.stream.topics_policy, 'disable_empty_topic');
    // Only the empty topic (level 404) needs a channel without named topics, and its creation notice has one.
    const named = await member.patch(`/streams/${id}`, { topics_policy: 'empty_topic_only' });
    assert.equal(named.body.msg, 'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.');
  });

  test('sending and moving follow the channel policy, or the organization for inherit', async () => {
    const { id, name } = await createChannel(server.owner);
    const send = (topic: string) => server.owner.post('/messages', { type: 'stream', to: name, topic, content: 'x' });
    assert.equal((await send('')).status, 200);
    await server.owner.patch(`/streams/${id}`, { topics_policy: 'disable_empty_topic' });
    assert.equal((await send('')).body.msg, 'Sending messages to the general chat topic is not allowed in this channel.');
    const named = await sendMessage(server.owner, { type: 'stream', to: name, topic: 'named', content: 'x' });
    assert.equal((await server.owner.patch(`/messages/${named}`, { topic: '' })).body.msg, 'Sending messages to the general chat topic is not allowed in this channel.');
    await server.owner.patch(`/streams/${id}`, { topics_policy: 'inherit' });
    await server.owner.patch('/realm', { topics_policy: 'disable_empty_topic' });
    assert.equal((await send('')).body.msg, 'Topics are required in this organization');
    await server.owner.patch('/realm', { topics_policy: 'allow_empty_topic' });
  });
});

describe('channel permissions for moving, resolving and deleting (feature levels 396, 402, 407, 441)', () => {
  test('can_create_topic_group decides who starts topics, by sending or by moving', async () => {
    const member = await server.createUser();
    const { id, name } = await createChannel(server.owner, { principals: [server.ownerId, member.userId], can_create_topic_group: server.groupId('role:administrators') });
    await sendMessage(server.owner, { type: 'stream', to: name, topic: 'existing', content: 'x' });
    const refused = await member.post('/messages', { type: 'stream', to: name, topic: 'brand new', content: 'x' });
    assert.deepEqual(refused.body, { result: 'error', msg: 'You do not have permission to create new topics in this channel.', code: 'BAD_REQUEST' });
    const mine = await sendMessage(member, { type: 'stream', to: name, topic: 'Existing', content: 'x' });
    assert.equal((await member.patch(`/messages/${mine}`, { topic: 'elsewhere' })).body.msg, 'You do not have permission to create new topics in this channel.');
    const events = await listen12(member, { event_types: ['stream'] });
    await server.owner.patch(`/streams/${id}`, { can_create_topic_group: { new: server.groupId('role:everyone') } });
    const [update] = await events();
    assert.deepEqual([update.property, update.value], ['can_create_topic_group', server.groupId('role:everyone')]);
    assert.equal((await member.post('/messages', { type: 'stream', to: name, topic: 'brand new', content: 'x' })).status, 200);
  });

  test('can_resolve_topics_group lets people resolve topics beyond the organization setting', async () => {
    const member = await server.createUser();
    const { id, name } = await createChannel(server.owner, { principals: [server.ownerId, member.userId] });
    const message = await sendMessage(member, { type: 'stream', to: name, topic: 'question', content: 'x' });
    await server.owner.patch('/realm', { can_resolve_topics_group: { new: server.groupId('role:administrators') } });
    try {
      assert.equal((await member.patch(`/messages/${message}`, { topic: '✔ question' })).body.msg, "You don't have permission to resolve topics in this channel.");
      await server.owner.patch(`/streams/${id}`, { can_resolve_topics_group: { new: server.groupId('role:members') } });
      assert.equal((await member.patch(`/messages/${message}`, { topic: '✔ question' })).status, 200);
    } finally {
      await server.owner.patch('/realm', { can_resolve_topics_group: { new: server.groupId('role:everyone') } });
    }
  });

  test('the deletion settings need can_set_delete_message_policy_group besides administering the channel', async () => {
    const member = await server.createUser();
    const { id } = await createChannel(member);
    const everyone = server.groupId('role:everyone');
    assert.equal((await member.patch(`/streams/${id}`, { can_delete_own_message_group: { new: everyone } })).body.msg, 'Insufficient permission');
    const realm = await register(member, { fetch_event_types: ['realm'] });
    assert.equal(realm.realm_can_set_delete_message_policy_group, server.groupId('role:moderators'));
    await server.owner.patch(`/users/${member.userId}`, { role: MODERATOR });
    assert.equal((await member.patch(`/streams/${id}`, { can_delete_own_message_group: { new: everyone } })).status, 200);
    assert.equal((await member.get(`/streams/${id}`)).body.stream.can_delete_own_message_group, everyone);
  });
});

describe('subscribing others (feature level 397)', () => {
  test('says whether the new subscribers were told, and register gives the limit', async () => {
    const other = await server.createUser();
    const { name } = await createChannel(server.owner);
    const told = valid12('POST', '/users/me/subscriptions', await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [other.userId] }));
    assert.equal(told.body.new_subscription_messages_sent, true);
    const dms = await other.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }, { operator: 'sender', operand: 'notification-bot@stoa.local' }] });
    assert.match(dms.body.messages[0].content, new RegExp(`subscribed you to`));
    const quiet = await server.createUser();
    const silent = await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [quiet.userId], send_new_subscription_messages: false });
    assert.equal(silent.body.new_subscription_messages_sent, undefined);
    const none = await quiet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }, { operator: 'sender', operand: 'notification-bot@stoa.local' }] });
    assert.deepEqual(none.body.messages, []);
    assert.equal((await register(quiet, { fetch_event_types: ['realm'] })).max_bulk_new_subscription_messages, 100);
  });
});

describe('smaller changes', () => {
  test('the creator-only default is called channel_creator (feature level 427)', async () => {
    const state = await register(server.owner, { fetch_event_types: ['realm'] });
    assert.equal(state.server_supported_permission_settings.stream.can_administer_channel_group.default_group_name, 'channel_creator');
  });

  test('only someone who may post gets a channel email address (feature level 448)', async () => {
    const member = await server.createUser();
    const { id } = await createChannel(server.owner, { principals: [server.ownerId, member.userId], can_send_message_group: server.groupId('role:administrators') });
    const refused = await member.get(`/streams/${id}/email_address`);
    assert.equal(refused.body.msg, 'You do not have permission to post in this channel.');
    assert.equal((await server.owner.get(`/streams/${id}/email_address`)).status, 200);
  });

  test('web_channel_default_view takes 3 (list of topics) and 4 (top unread topic) (feature levels 383, 401)', async () => {
    const user = await server.createUser();
    for (const value of [3, 4]) {
      assert.equal((await user.patch('/settings', { web_channel_default_view: value })).status, 200);
      assert.equal((await register(user, { fetch_event_types: ['user_settings'] })).user_settings.web_channel_default_view, value);
    }
    assert.equal((await user.patch('/settings', { web_channel_default_view: 5 })).status, 400);
  });

  test('web_left_sidebar_show_channel_folders is a personal setting, on by default (feature level 411)', async () => {
    const user = await server.createUser();
    assert.equal((await register(user, { fetch_event_types: ['user_settings'] })).user_settings.web_left_sidebar_show_channel_folders, true);
    const events = await listen12(user, { event_types: ['user_settings'] });
    assert.equal((await user.patch('/settings', { web_left_sidebar_show_channel_folders: false })).status, 200);
    assert.deepEqual(await events(), [{ type: 'user_settings', op: 'update', property: 'web_left_sidebar_show_channel_folders', value: false }]);
    const state = await user.post('/register', { fetch_event_types: ['user_settings'] });
    assert.equal(state.body.user_settings.web_left_sidebar_show_channel_folders, false);
  });

  test('include_subscribers=partial is accepted and gives full lists for small channels (feature level 412)', async () => {
    const { id } = await createChannel(server.owner);
    const state = await register(server.owner, { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const subscription = state.subscriptions.find((s: { stream_id: number }) => s.stream_id === id);
    assert.deepEqual(subscription.subscribers, [server.ownerId]);
    assert.equal(subscription.partial_subscribers, undefined);
  });
});
