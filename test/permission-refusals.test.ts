import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { ADMIN_REQUIRED, INSUFFICIENT, NOT_FOR_GUESTS, OWNER_REQUIRED, refusal } from './support/refusals';
import { TestServer } from './support/server';

/**
 * What Zulip 10.2 answers a member or a guest who asks for what their role does not allow, read
 * from its source (the require_realm_admin / require_realm_owner / require_member_or_admin
 * decorators, access_bot_by_id, access_user_group_for_update, the channel administration
 * check, the emoji and invitation views; sending, deleting, reactions, scheduled messages,
 * drafts, attachments, topic muting, subscriptions, statuses and muting): each refusal's status,
 * code and words.
 */

describe('permission refusals answer in Zulip 10.2\'s words, codes and statuses', () => {
  let server: TestServer;
  let member: Client & { userId: number };
  let guest: Client & { userId: number };
  let ownersBot: number;
  let channel: number;
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ownersBot = ok(await server.owner.post('/bots', { full_name: 'Owner Bot', short_name: 'ownerbot' }), 'bot').user_id;
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'lounge' }], principals: [member.userId, guest.userId] }), 'channel');
    channel = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'lounge').stream_id;
    ok(await server.owner.upload('/realm/emoji/owners_parrot', [{ name: 'parrot.png', bytes: await png({ r: 200, g: 0, b: 0 }), type: 'image/png' }]), 'emoji');
    // Only administrators may invite by email or add emoji here, so that members are refused;
    // members may make invitation links, but not for administrators.
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    const members = JSON.stringify({ new: server.groupId('role:members') });
    ok(
      await server.owner.patch('/realm', { can_invite_users_group: admins, can_add_custom_emoji_group: admins, create_multiuse_invite_group: members }),
      'permissions',
    );
  });
  after(() => server?.close());

  test('endpoints for administrators and owners only', async () => {
    assert.deepEqual(await refusal(member.patch('/realm', { name: 'Mine now' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.example/{id}' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/profile_fields', { name: 'Team', field_type: 1 })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/playgrounds', { name: 'Rust', pygments_language: 'rust', url_template: 'https://play.example/{code}' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.get('/export/realm')), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(guest.patch('/realm', { name: 'Mine now' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/domains', { domain: 'example.org', allow_subdomains: false })), OWNER_REQUIRED);
  });

  test('the role is checked before the parameters, as Zulip\'s decorators run before its parameter parsing', async () => {
    // Missing, mistyped and unknown values: a member hears only that the endpoint is not theirs.
    assert.deepEqual(await refusal(member.patch('/realm', { name: 42, message_retention_days: 'soon' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/filters', {})), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/profile_fields', { field_type: 'text' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/channel_folders/create', { name: 'x'.repeat(500) })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/default_stream_groups/create', { group_name: 'g' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/default_streams', { stream_id: 'lounge' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/users', { email: 'new@example.com' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/export/realm', { export_type: 'everything' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(guest.post(`/streams/${channel}/delete_topic`, {})), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/domains', { allow_subdomains: 'sometimes' })), OWNER_REQUIRED);
    assert.deepEqual(await refusal(member.post('/realm/deactivate', { deletion_delay_days: 'never' })), OWNER_REQUIRED);
    // An administrator still hears what was wrong with the request.
    const invalid = await server.owner.post('/realm/filters', {});
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'REQUEST_VARIABLE_MISSING');
  });

  test("someone else's bot, a system group, channels, emoji and invitations", async () => {
    assert.deepEqual(await refusal(member.patch(`/bots/${ownersBot}`, { full_name: 'Taken Over' })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.delete(`/bots/${ownersBot}`)), INSUFFICIENT);
    assert.deepEqual(await refusal(member.patch(`/users/${server.ownerId}`, { full_name: 'Renamed' })), INSUFFICIENT);
    const admins = server.groupId('role:administrators');
    assert.deepEqual(await refusal(member.post(`/user_groups/${admins}/members`, { add: [member.userId] })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.patch(`/streams/${channel}`, { description: 'mine' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to administer this channel.',
    });
    assert.deepEqual(await refusal(member.delete('/realm/emoji/owners_parrot')), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator or emoji author',
    });
    assert.deepEqual(await refusal(member.post('/invites', { invitee_emails: 'new@example.com', stream_ids: JSON.stringify([]) })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/invites/multiuse', { stream_ids: JSON.stringify([]), invite_as: 200 })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Must be an organization administrator',
    });
  });

  test('guests where only members may act', async () => {
    assert.deepEqual(await refusal(guest.post('/bots', { full_name: 'Guest Bot', short_name: 'guestbot' })), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/bots')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/user_groups')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/invites')), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'lounge' }]), principals: JSON.stringify([member.userId]) })), NOT_FOR_GUESTS);
    const image = await png({ r: 0, g: 0, b: 200 });
    assert.deepEqual(await refusal(guest.upload('/realm/emoji/guest_parrot', [{ name: 'parrot.png', bytes: image, type: 'image/png' }])), NOT_FOR_GUESTS);
  });
});

describe("refusals of what one does with messages, subscriptions and other people's things", () => {
  let server: TestServer;
  let member: Client & { userId: number };
  let guest: Client & { userId: number };
  let lounge: number;
  let secret: number;
  let ownersMessage: number;
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'lounge' }], principals: [server.ownerId, member.userId] }), 'lounge');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true }), 'secret');
    const streams = ok(await server.owner.get('/streams'), 'streams').streams as any[];
    lounge = streams.find((s) => s.name === 'lounge').stream_id;
    secret = streams.find((s) => s.name === 'secret').stream_id;
    ownersMessage = ok(await server.owner.post('/messages', { type: 'stream', to: lounge, topic: 'hello', content: 'mine' }), 'send').id;
  });
  after(() => server?.close());

  test('sending: channel permissions, guests, archived channels and direct messages', async () => {
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    ok(await server.owner.patch(`/streams/${lounge}`, { can_send_message_group: admins }), 'admins only');
    assert.deepEqual(await refusal(member.post('/messages', { type: 'stream', to: lounge, topic: 't', content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to post in this channel.',
    });
    const everyone = JSON.stringify({ new: server.groupId('role:everyone') });
    ok(await server.owner.patch(`/streams/${lounge}`, { can_send_message_group: everyone }), 'everyone again');
    // A guest writes only where subscribed (or to web-public channels).
    assert.deepEqual(await refusal(guest.post('/messages', { type: 'stream', to: lounge, topic: 't', content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Not authorized to send to channel 'lounge'",
    });
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'attic' }] }), 'attic');
    const attic = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'attic').stream_id;
    ok(await server.owner.delete(`/streams/${attic}`), 'archive');
    assert.deepEqual(await refusal(server.owner.post('/messages', { type: 'stream', to: attic, topic: 't', content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Not authorized to send to channel 'attic'",
    });
    const nobody = JSON.stringify({ new: server.groupId('role:nobody') });
    ok(await server.owner.patch('/realm', { direct_message_permission_group: nobody }), 'no DMs');
    assert.deepEqual(await refusal(member.post('/messages', { type: 'direct', to: JSON.stringify([guest.userId]), content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Direct messages are disabled in this organization.',
    });
    ok(await server.owner.patch('/realm', { direct_message_permission_group: admins }), 'admins authorize DMs');
    assert.deepEqual(await refusal(member.post('/messages', { type: 'direct', to: JSON.stringify([guest.userId]), content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'This conversation does not include any users who can authorize it.',
    });
    ok(await server.owner.patch('/realm', { direct_message_permission_group: everyone, direct_message_initiator_group: admins }), 'admins start DMs');
    assert.deepEqual(await refusal(member.post('/messages', { type: 'direct', to: JSON.stringify([guest.userId]), content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to initiate direct message conversations.',
    });
    ok(await server.owner.patch('/realm', { direct_message_initiator_group: everyone }), 'everyone starts DMs');
  });

  test("deleting and reacting to others' messages", async () => {
    assert.deepEqual(await refusal(member.delete(`/messages/${ownersMessage}`)), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "You don't have permission to delete this message",
    });
    const own = ok(await member.post('/messages', { type: 'stream', to: lounge, topic: 'hello', content: 'oops' }), 'send').id;
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    ok(await server.owner.patch('/realm', { can_delete_own_message_group: admins }), 'admins delete');
    assert.deepEqual(await refusal(member.delete(`/messages/${own}`)), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "You don't have permission to delete this message",
    });
    ok(await server.owner.patch('/realm', { can_delete_own_message_group: JSON.stringify({ new: server.groupId('role:everyone') }) }), 'everyone');
    assert.deepEqual(await refusal(member.post(`/streams/${lounge}/delete_topic`, { topic_name: 'hello' })), ADMIN_REQUIRED);
    // The guest is in neither the channel nor the message's recipients.
    assert.deepEqual(await refusal(guest.post(`/messages/${ownersMessage}/reactions`, { emoji_name: 'smile' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid message(s)',
    });
  });

  test("someone else's scheduled messages, reminders, drafts and attachments are not found", async () => {
    const later = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = ok(
      await server.owner.post('/scheduled_messages', { type: 'stream', to: lounge, topic: 't', content: 'later', scheduled_delivery_timestamp: later }),
      'schedule',
    ).scheduled_message_id;
    assert.deepEqual(await refusal(member.delete(`/scheduled_messages/${scheduled}`)), { status: 404, code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
    const reminder = ok(await server.owner.post('/reminders', { message_id: ownersMessage, scheduled_delivery_timestamp: later }), 'remind').reminder_id;
    assert.deepEqual(await refusal(member.delete(`/reminders/${reminder}`)), { status: 404, code: 'BAD_REQUEST', msg: 'Reminder does not exist' });
    const draft = ok(
      await server.owner.post('/drafts', { drafts: JSON.stringify([{ type: 'stream', to: [lounge], topic: 't', content: 'draft', timestamp: 1 }]) }),
      'draft',
    ).ids[0];
    assert.deepEqual(await refusal(member.delete(`/drafts/${draft}`)), { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' });
    const upload = ok(await server.owner.upload('/user_uploads', [{ name: 'a.txt', bytes: Buffer.from('hello'), type: 'text/plain' }]), 'upload');
    const attachment = (ok(await server.owner.get('/attachments'), 'attachments').attachments as any[]).find((a) => upload.url.endsWith(a.path_id)).id;
    assert.deepEqual(await refusal(member.delete(`/attachments/${attachment}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid attachment' });
  });

  test('subscriptions: subscribing and unsubscribing others, private channels, creating channels', async () => {
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    // The organization's permission (role:members by default) holds in every channel.
    ok(await server.owner.patch('/realm', { can_add_subscribers_group: admins }), 'admins add');
    assert.deepEqual(await refusal(member.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'lounge' }]), principals: JSON.stringify([guest.userId]) })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['lounge']), principals: JSON.stringify([server.ownerId]) })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'secret' }]) })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Unable to access channel (secret).',
    });
    ok(await server.owner.patch('/realm', { can_create_private_channel_group: admins, can_create_public_channel_group: admins }), 'admins create');
    assert.deepEqual(await refusal(member.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'hideout' }]), invite_only: true })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'plaza' }]) })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/channels/create', { name: 'plaza', subscribers: JSON.stringify([member.userId]) })), INSUFFICIENT);
  });

  test('muting topics (the deprecated endpoint) needs access to the channel and, as the specification says, a subscription', async () => {
    const newcomer = await server.createUser('Nia Newcomer');
    assert.deepEqual(await refusal(newcomer.patch('/users/me/subscriptions/muted_topics', { stream_id: lounge, topic: 'noise', op: 'add' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: `Not subscribed to channel ID ${lounge}`,
    });
    assert.deepEqual(await refusal(newcomer.patch('/users/me/subscriptions/muted_topics', { stream_id: secret, topic: 'noise', op: 'add' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid channel ID',
    });
    assert.deepEqual(await refusal(newcomer.patch('/users/me/subscriptions/muted_topics', { stream: 'secret', topic: 'noise', op: 'add' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Invalid channel name 'secret'",
    });
    // Unmuting asks only that the channel exists.
    ok(await newcomer.patch('/users/me/subscriptions/muted_topics', { stream_id: secret, topic: 'noise', op: 'remove' }), 'unmute');
    assert.deepEqual(await refusal(newcomer.patch('/users/me/subscriptions/muted_topics', { stream_id: 999999, topic: 'noise', op: 'remove' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Topic is not muted',
    });
  });

  test("muting oneself, others' bots' keys", async () => {
    assert.deepEqual(await refusal(member.post(`/users/me/muted_users/${member.userId}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Cannot mute self' });
    const bot = ok(await server.owner.post('/bots', { full_name: 'Key Bot', short_name: 'keybot' }), 'bot').user_id;
    assert.deepEqual(await refusal(member.post(`/bots/${bot}/api_key/regenerate`)), INSUFFICIENT);
    assert.deepEqual(await refusal(guest.post(`/bots/${bot}/api_key/regenerate`)), NOT_FOR_GUESTS);
  });
});

describe('refusals where guests may see only some people (can_access_all_users_group)', () => {
  let server: TestServer;
  let guest: Client & { userId: number };
  let stranger: Client & { userId: number };
  before(async () => {
    server = await TestServer.start();
    guest = await server.createUser('Gus Guest');
    stranger = await server.createUser('Sam Stranger');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ok(await server.owner.patch('/realm', { can_access_all_users_group: JSON.stringify({ new: server.groupId('role:members') }) }), 'limit');
  });
  after(() => server?.close());

  test("another person's status", async () => {
    assert.deepEqual(await refusal(guest.get(`/users/${stranger.userId}/status`)), INSUFFICIENT);
    ok(await stranger.get(`/users/${server.ownerId}/status`), 'a member sees everyone');
  });

  test("another person's channels and subscription status (access_user_by_id): refused, not hidden as no such user", async () => {
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'guest room' }], principals: [guest.userId, server.ownerId] }), 'channel');
    const room = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'guest room').stream_id;
    assert.deepEqual(await refusal(guest.get(`/users/${stranger.userId}/channels`)), INSUFFICIENT);
    assert.deepEqual(await refusal(guest.get(`/users/${stranger.userId}/subscriptions/${room}`)), INSUFFICIENT);
    assert.deepEqual(await refusal(guest.get('/users/99999/channels')), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
    ok(await guest.get(`/users/${server.ownerId}/channels`), 'someone the guest shares a channel with');
  });

  test('a direct message to someone unseen is refused for that before their deactivation', async () => {
    ok(await server.owner.delete(`/users/${stranger.userId}`), 'deactivate');
    assert.deepEqual(await refusal(guest.post('/messages', { type: 'direct', to: JSON.stringify([stranger.userId]), content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'You do not have permission to access some of the recipients.',
    });
    // The owner may see everyone and is told the account is gone.
    const email = (ok(await server.owner.get(`/users/${stranger.userId}`), 'user').user as any).email;
    assert.deepEqual(await refusal(server.owner.post('/messages', { type: 'direct', to: JSON.stringify([stranger.userId]), content: 'x' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: `'${email}' is no longer using Zulip.`,
    });
  });
});

describe('deactivating oneself', () => {
  test('the only account is refused as the only user, before as the only owner', async () => {
    const server = await TestServer.start();
    try {
      const { status, body } = await server.owner.delete('/users/me');
      assert.equal(status, 400);
      assert.deepEqual(body, {
        result: 'error',
        msg: 'Cannot deactivate the only user.',
        code: 'CANNOT_DEACTIVATE_LAST_USER',
        entity: 'user',
        is_last_owner: false,
      });
    } finally {
      await server.close();
    }
  });
});

describe("unsubscribing others with the channel's can_remove_subscribers_group (Zulip's bulk_can_remove_subscribers_from_streams)", () => {
  let server: TestServer;
  let remover: Client & { userId: number };
  let other: Client & { userId: number };
  let guest: Client & { userId: number };
  const only = (...ids: number[]) => ({ direct_members: ids, direct_subgroups: [] });
  const channel = async (params: Record<string, unknown>) => {
    const name = `room ${Math.random().toString(36).slice(2, 8)}`;
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [other.userId, remover.userId], ...params }), name);
    return name;
  };
  const unsubscribe = (client: Client, names: string[], principals: number[]) =>
    client.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(names), principals: JSON.stringify(principals) });
  before(async () => {
    server = await TestServer.start();
    remover = await server.createUser('Rita Remover');
    other = await server.createUser('Otto Other');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
  });
  after(() => server?.close());

  test('the group is enough without being an administrator, in every channel named', async () => {
    const allowed = await channel({ can_remove_subscribers_group: only(remover.userId) });
    const closed = await channel({});
    ok(await unsubscribe(remover, [allowed], [other.userId]), 'a member of the group removes someone');
    assert.deepEqual(await refusal(unsubscribe(remover, [closed], [other.userId])), INSUFFICIENT);
    assert.deepEqual(await refusal(unsubscribe(remover, [allowed, closed], [other.userId])), INSUFFICIENT);
  });

  test('channel administrators may in their channels, but a mixed request asks the group everywhere', async () => {
    const administered = await channel({ can_administer_channel_group: only(remover.userId) });
    const removable = await channel({ can_remove_subscribers_group: only(remover.userId) });
    ok(await unsubscribe(remover, [administered], [other.userId]), 'a channel administrator removes someone');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: administered }], principals: [other.userId] }), 'again');
    // Zulip checks can_remove_subscribers_group in every channel once one is not administered.
    assert.deepEqual(await refusal(unsubscribe(remover, [administered, removable], [other.userId])), INSUFFICIENT);
  });

  test('guests never may, even named in the group; anyone may unsubscribe their own bots', async () => {
    const named = await channel({ can_remove_subscribers_group: only(guest.userId, remover.userId) });
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: named }], principals: [guest.userId] }), 'guest joins');
    assert.deepEqual(await refusal(unsubscribe(guest, [named], [other.userId])), INSUFFICIENT);
    const closed = await channel({});
    const bot = ok(await remover.post('/bots', { full_name: 'Rita Bot', short_name: 'ritabot' }), 'bot').user_id;
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: closed }], principals: [bot] }), 'bot joins');
    const left = ok(await unsubscribe(remover, [closed], [bot, remover.userId]), 'own bot and oneself');
    assert.deepEqual(left.removed, [closed, closed]);
  });
});

describe("Zulip 11 and 12 endpoints: channel folders, another person's status, reporting", () => {
  let server: TestServer;
  let member: Client & { userId: number };
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
  });
  after(() => server?.close());

  test('channel folders are for administrators; a folder cannot be renamed to its own name in other letters', async () => {
    const folder = ok(await server.owner.post('/channel_folders/create', { name: 'Engineering', description: '' }), 'folder').channel_folder_id;
    assert.deepEqual(await refusal(member.post('/channel_folders/create', { name: 'Mine', description: '' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.patch(`/channel_folders/${folder}`, { name: 'Taken' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.patch('/channel_folders', { order: JSON.stringify([folder]) })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.patch('/channel_folders/999999', { name: 'Nowhere' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(server.owner.patch('/channel_folders/999999', { name: 'Nowhere' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Invalid channel folder ID',
    });
    // Zulip looks for the name among all folders, this one included.
    assert.deepEqual(await refusal(server.owner.patch(`/channel_folders/${folder}`, { name: 'ENGINEERING' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: "Channel folder 'ENGINEERING' already exists",
    });
  });

  test("another person's status: who is named is checked before the caller's role (access_user_by_id)", async () => {
    assert.deepEqual(await refusal(member.post(`/users/${server.ownerId}/status`, { status_text: 'away' })), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post('/users/999999/status', { status_text: 'away' })), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
    const gone = await server.createUser('Gone Person');
    ok(await server.owner.delete(`/users/${gone.userId}`), 'deactivate');
    assert.deepEqual(await refusal(member.post(`/users/${gone.userId}/status`, { status_text: 'away' })), { status: 400, code: 'BAD_REQUEST', msg: 'User is deactivated' });
  });

  test('reporting a message while the organization has no moderation request channel', async () => {
    const id = ok(await member.post('/messages', { type: 'direct', to: JSON.stringify([member.userId]), content: 'hello' }), 'send').id;
    assert.deepEqual(await refusal(member.post(`/messages/${id}/report`, { report_type: 'other' })), { status: 400, code: 'BAD_REQUEST', msg: 'An explanation is required.' });
    assert.deepEqual(await refusal(member.post(`/messages/${id}/report`, { report_type: 'spam' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Message reporting is not enabled in this organization.',
    });
  });
});

describe('navigation views: the built-in views of Zulip 12 include scheduled messages and reminders', () => {
  test('they take no name, where a custom view must have one', async () => {
    const server = await TestServer.start();
    try {
      for (const fragment of ['scheduled', 'reminders']) {
        assert.deepEqual(await refusal(server.owner.post('/navigation_views', { fragment, is_pinned: true, name: 'Later' })), {
          status: 400,
          code: 'BAD_REQUEST',
          msg: 'Built-in views cannot have a custom name.',
        });
        ok(await server.owner.post('/navigation_views', { fragment, is_pinned: false }), `${fragment} hidden`);
      }
      assert.deepEqual(await refusal(server.owner.post('/navigation_views', { fragment: 'narrow/channel/1', is_pinned: true })), {
        status: 400,
        code: 'BAD_REQUEST',
        msg: 'Custom views must have a valid name.',
      });
    } finally {
      await server.close();
    }
  });
});
