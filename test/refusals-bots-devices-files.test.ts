import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { ADMIN_REQUIRED, INSUFFICIENT, NOT_FOR_GUESTS, OWNER_REQUIRED, refusal } from './support/refusals';
import { TestServer } from './support/server';

/**
 * Refusals read from Zulip's source that the earlier audits (test/permission-refusals.test.ts)
 * left out: bots' API keys (access_bot_by_id behind require_member_or_admin), the endpoints
 * only people may call (human_users_only: push tokens and registrations, test notifications,
 * settings, onboarding steps, presence, status, profile data), files (serve_file,
 * serve_file_unauthed_from_token, check_thumbnail_status), another person's subscription
 * status (access_user_by_id), the organization's pictures, channel folders, bot creation's
 * can_create_write_only_bots_group and group creation (require_user_group_create_permission).
 * Every response is checked against the OpenAPI description by the test client.
 */
const NOT_FOR_BOTS = { status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' };
const NO_SUCH_BOT = { status: 400, code: 'BAD_REQUEST', msg: 'No such bot' };

type Person = Client & { userId: number };

/** A member and a guest of the organization. */
async function memberAndGuest(server: TestServer): Promise<{ member: Person; guest: Person }> {
  const member = await server.createUser('Mel Member');
  const guest = await server.createUser('Gus Guest');
  ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
  return { member, guest };
}

/** A generic bot of `owner`'s, with a client that speaks as the bot. */
async function botOf(server: TestServer, owner: Client, shortName: string): Promise<{ id: number; client: Client }> {
  const created = ok(await owner.post('/bots', { full_name: `Bot ${shortName}`, short_name: shortName }), 'bot');
  const email = ok(await server.owner.get(`/users/${created.user_id}`), 'bot user').user.email as string;
  return { id: created.user_id, client: server.anonymous.as({ email, apiKey: created.api_key }) };
}

describe("a bot's API key (access_bot_by_id, after require_member_or_admin)", () => {
  let server: TestServer;
  let member: Person;
  let admin: Person;
  let guest: Person;
  let ownersBot: { id: number; client: Client };
  let membersBot: { id: number; client: Client };
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    admin = await server.createUser('Ada Admin');
    guest = await server.createUser('Gus Guest');
    ok(await server.owner.patch(`/users/${admin.userId}`, { role: 200 }), 'admin');
    ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
    ownersBot = await botOf(server, server.owner, 'ownerkeys');
    membersBot = await botOf(server, member, 'memberkeys');
  });
  after(() => server?.close());

  test('a member may not see or replace the key of a bot that is not theirs', async () => {
    assert.deepEqual(await refusal(member.get(`/bots/${ownersBot.id}/api_key`)), INSUFFICIENT);
    assert.deepEqual(await refusal(member.post(`/bots/${ownersBot.id}/api_key/regenerate`)), INSUFFICIENT);
    const own = ok(await member.get(`/bots/${membersBot.id}/api_key`), 'own bot');
    assert.equal(typeof own.api_key, 'string');
  });

  test('a guest is refused for being a guest, before the bot is looked for', async () => {
    assert.deepEqual(await refusal(guest.get(`/bots/${ownersBot.id}/api_key`)), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.post(`/bots/${ownersBot.id}/api_key/regenerate`)), NOT_FOR_GUESTS);
    assert.deepEqual(await refusal(guest.get('/bots/999999/api_key')), NOT_FOR_GUESTS);
  });

  test("an administrator may read and replace anyone's bot's key, but not one that may create users", async () => {
    const before = ok(await admin.get(`/bots/${membersBot.id}/api_key`), 'read').api_key;
    const replaced = ok(await admin.post(`/bots/${membersBot.id}/api_key/regenerate`), 'regenerate').api_key;
    assert.notEqual(replaced, before);
    assert.equal(ok(await member.get(`/bots/${membersBot.id}/api_key`), 'the owner reads the new key').api_key, replaced);
    server.grantCanCreateUsers(ownersBot.id);
    assert.deepEqual(await refusal(admin.get(`/bots/${ownersBot.id}/api_key`)), OWNER_REQUIRED);
    assert.deepEqual(await refusal(admin.post(`/bots/${ownersBot.id}/api_key/regenerate`)), OWNER_REQUIRED);
    ok(await server.owner.get(`/bots/${ownersBot.id}/api_key`), 'the owner may');
  });

  test('deactivating a bot asks only whether the caller administers it (deactivate_bot_backend has no role check)', async () => {
    assert.deepEqual(await refusal(guest.delete(`/bots/${membersBot.id}`)), INSUFFICIENT);
    const demoted = await server.createUser('Dee Demoted');
    const kept = await botOf(server, demoted, 'keptbot');
    ok(await server.owner.patch(`/users/${demoted.userId}`, { role: 600 }), 'now a guest');
    ok(await demoted.delete(`/bots/${kept.id}`), 'a guest deactivates the bot they own');
  });

  test('a person or an unknown ID is no bot; a bot asking is refused as a bot', async () => {
    assert.deepEqual(await refusal(admin.get(`/bots/${member.userId}/api_key`)), NO_SUCH_BOT);
    assert.deepEqual(await refusal(admin.post('/bots/999999/api_key/regenerate')), NO_SUCH_BOT);
    const bot = await botOf(server, member, 'asking');
    assert.deepEqual(await refusal(bot.client.get(`/bots/${bot.id}/api_key`)), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post(`/bots/${bot.id}/api_key/regenerate`)), NOT_FOR_BOTS);
    // Its own key it may replace: Zulip leaves that endpoint open to bots on purpose.
    ok(await bot.client.post('/users/me/api_key/regenerate'), 'a bot replaces its own key');
  });
});

describe('endpoints for people only refuse bots before reading their parameters (human_users_only, require_member_or_admin)', () => {
  let server: TestServer;
  let bot: { id: number; client: Client };
  before(async () => {
    server = await TestServer.start();
    bot = await botOf(server, server.owner, 'robot');
  });
  after(() => server?.close());

  test('push tokens, push registration and test notifications', async () => {
    // Each request is also malformed (an empty token, no device): the bot hears only that it is a bot.
    assert.deepEqual(await refusal(bot.client.post('/users/me/apns_device_token', { token: '', appid: 'org.example' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.delete('/users/me/apns_device_token', { token: '' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/users/me/android_gcm_reg_id', { token: '' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.delete('/users/me/android_gcm_reg_id', { token: '' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/mobile_push/test_notification', { token: '' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/mobile_push/e2ee/test_notification', { device_id: 'x' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/mobile_push/register', {})), NOT_FOR_BOTS);
    // A person with the same mistakes hears about them.
    assert.deepEqual(await refusal(server.owner.post('/users/me/android_gcm_reg_id', { token: '' })), {
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Empty or invalid length token',
    });
  });

  test("settings, onboarding steps, presence, status and profile data", async () => {
    assert.deepEqual(await refusal(bot.client.patch('/settings', { enter_sends: 'sometimes' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/users/me/onboarding_steps', {})), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/users/me/presence', { status: 'asleep' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/users/me/status', { status_text: 'beep' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.patch('/users/me/profile_data', { data: '[]' })), NOT_FOR_BOTS);
  });

  test('bots, groups, invitations and emoji are for members and administrators', async () => {
    assert.deepEqual(await refusal(bot.client.post('/bots', { full_name: 'Child Bot' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.get('/bots')), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.get('/user_groups')), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/user_groups/create', { name: 'bots' })), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.get('/invites')), NOT_FOR_BOTS);
    assert.deepEqual(await refusal(bot.client.post('/invites/multiuse', {})), NOT_FOR_BOTS);
    const image = await png({ r: 0, g: 120, b: 0 });
    assert.deepEqual(await refusal(bot.client.upload('/realm/emoji/robot_parrot', [{ name: 'parrot.png', bytes: image, type: 'image/png' }])), NOT_FOR_BOTS);
  });
});

describe('files: another member\'s upload in a channel the caller cannot read', () => {
  let server: TestServer;
  let member: Person;
  let pathId: string;
  before(async () => {
    server = await TestServer.start();
    member = await server.createUser('Mel Member');
    ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true }), 'vault');
    const vault = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'vault').stream_id;
    const image = await png({ r: 200, g: 200, b: 0 });
    const url = ok(await server.owner.upload('/user_uploads', [{ name: 'plan.png', bytes: image, type: 'image/png' }]), 'upload').url as string;
    ok(await server.owner.post('/messages', { type: 'stream', to: vault, topic: 'plans', content: `[plan](${url})` }), 'share');
    pathId = url.replace(/^\/user_uploads\//, '');
  });
  after(() => server?.close());

  test('its temporary URL: 403 in JSON; the file itself and /thumbnail: 403 as a page, in Zulip\'s words', async () => {
    const forbidden = { status: 403, code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' };
    assert.deepEqual(await refusal(member.get(`/user_uploads/${pathId}`)), forbidden);
    const page = `<p>${forbidden.msg}</p>`;
    for (const url of [`/user_uploads/${pathId}`, `/user_uploads/download/${pathId}`, `/thumbnail?url=user_uploads/${pathId}&size=full`]) {
      const file = await member.download(url);
      assert.deepEqual([file.status, file.bytes.toString(), file.headers.get('content-type')], [403, page, 'text/html; charset=utf-8'], url);
      assert.equal(file.headers.get('vary'), 'Accept');
    }
    ok(await server.owner.get(`/user_uploads/${pathId}`), 'the uploader may');
  });

  test('a file that does not exist: 404, in JSON for its temporary URL and as a page for the file', async () => {
    const gone = pathId.replace(/[^/]+$/, 'gone.png');
    const missing = { status: 404, code: 'BAD_REQUEST', msg: 'This file does not exist or has been deleted.' };
    assert.deepEqual(await refusal(member.get(`/user_uploads/${gone}`)), missing);
    const file = await member.download(`/user_uploads/${gone}`);
    assert.deepEqual([file.status, file.bytes.toString()], [404, `<p>${missing.msg}</p>`]);
    // A visitor hears that it is missing too, rather than being sent to log in.
    const visitor = await member.download(`/user_uploads/${gone}`, { anonymous: true, redirect: 'manual' });
    assert.equal(visitor.status, 404);
  });

  test('an <img> (images preferred to pages in Accept) gets a picture with the same status', async () => {
    const accept = 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
    const forbidden = await member.download(`/user_uploads/${pathId}`, { accept });
    assert.deepEqual([forbidden.status, forbidden.headers.get('content-type')], [403, 'image/png']);
    assert.ok(forbidden.bytes.subarray(1, 4).equals(Buffer.from('PNG')));
    const missing = await member.download(`/user_uploads/${pathId.replace(/[^/]+$/, 'gone.png')}`, { accept });
    assert.deepEqual([missing.status, missing.headers.get('content-type')], [404, 'image/png']);
    // A visitor's <img> gets the picture too: there is no page to send it to.
    const visitor = await member.download(`/user_uploads/${pathId}`, { accept: 'image/*', anonymous: true, redirect: 'manual' });
    assert.deepEqual([visitor.status, visitor.headers.get('content-type')], [403, 'image/png']);
    // Pages first, or no preference at all, is the page.
    const page = await member.download(`/user_uploads/${pathId}`, { accept: 'text/html,image/png;q=0.9' });
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  test('a visitor is sent to log in and come back; a thumbnail Zulip would not have made is its "no image" picture', async () => {
    const visitor = await member.download(`/user_uploads/${pathId}`, { anonymous: true, redirect: 'manual' });
    assert.deepEqual([visitor.status, visitor.headers.get('location')], [302, `/login/?next=/user_uploads/${pathId}`]);
    const thumbnail = await server.owner.download(`/user_uploads/thumbnail/${pathId}/12x34.webp`);
    assert.deepEqual([thumbnail.status, thumbnail.headers.get('content-type')], [404, 'image/png']);
  });

  test('/thumbnail with a URL outside uploads: an empty 403', async () => {
    const outside = await member.download(`/thumbnail?url=${encodeURIComponent('https://example.com/a.png')}&size=full`);
    assert.deepEqual([outside.status, outside.bytes.length], [403, 0]);
  });

  test("its thumbnail status is the uploader's to ask (check_thumbnail_status)", async () => {
    const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid attachment' };
    assert.deepEqual(await refusal(member.get(`/thumbnail/status/${pathId}`)), invalid);
    assert.equal(ok(await server.owner.get(`/thumbnail/status/${pathId}`), 'uploader').has_thumbnail, true);
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id} and /users/{user_id}/channels (access_user_by_id without allow_deactivated)', () => {
  test('a deactivated person is refused as deactivated, before access to them', async () => {
    const server = await TestServer.start();
    try {
      const guest = await server.createUser('Gus Guest');
      const gone = await server.createUser('Gone Person');
      ok(await server.owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
      ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }], principals: [guest.userId, gone.userId] }), 'lobby');
      const lobby = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'lobby').stream_id;
      ok(await server.owner.delete(`/users/${gone.userId}`), 'deactivate');
      const deactivated = { status: 400, code: 'BAD_REQUEST', msg: 'User is deactivated' };
      assert.deepEqual(await refusal(server.owner.get(`/users/${gone.userId}/subscriptions/${lobby}`)), deactivated);
      // GET /users/{user_id}/channels (level 440) reaches the person the same way.
      assert.deepEqual(await refusal(server.owner.get(`/users/${gone.userId}/channels`)), deactivated);
      // A guest who may see only some people hears the same, as Zulip checks deactivation first.
      ok(await server.owner.patch('/realm', { can_access_all_users_group: JSON.stringify({ new: server.groupId('role:members') }) }), 'limit');
      assert.deepEqual(await refusal(guest.get(`/users/${gone.userId}/subscriptions/${lobby}`)), deactivated);
      assert.deepEqual(await refusal(guest.get(`/users/${gone.userId}/channels`)), deactivated);
      assert.deepEqual(await refusal(server.owner.get(`/users/999999/subscriptions/${lobby}`)), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
      assert.equal(ok(await server.owner.get(`/users/${guest.userId}/subscriptions/${lobby}`), 'a person').is_subscribed, true);
    } finally {
      await server.close();
    }
  });
});

describe("uploads refused for the caller's role leave no file behind", () => {
  let server: TestServer;
  let member: Person;
  let guest: Person;
  const incoming = () => {
    const folder = path.join(server.stoa.uploads.root, '.incoming');
    return existsSync(folder) ? readdirSync(folder) : [];
  };
  before(async () => {
    server = await TestServer.start();
    ({ member, guest } = await memberAndGuest(server));
  });
  after(() => server?.close());

  test("the organization's icon and logo: the role first, even with bad parameters", async () => {
    const image = await png({ r: 10, g: 20, b: 30 });
    assert.deepEqual(await refusal(member.upload('/realm/icon', [{ name: 'icon.png', bytes: image, type: 'image/png' }])), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.upload('/realm/logo', [{ name: 'logo.png', bytes: image, type: 'image/png' }], { night: 'maybe' })), ADMIN_REQUIRED);
    assert.deepEqual(
      await refusal(member.upload('/realm/icon', [
        { name: 'a.png', bytes: image, type: 'image/png' },
        { name: 'b.png', bytes: image, type: 'image/png', field: 'second' },
      ])),
      ADMIN_REQUIRED,
    );
    assert.deepEqual(incoming(), []);
    // An administrator hears what was wrong, and their file is not kept either.
    const invalid = await server.owner.upload('/realm/logo', [{ name: 'logo.png', bytes: image, type: 'image/png' }], { night: 'maybe' });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'BAD_REQUEST');
    assert.deepEqual(incoming(), []);
  });

  test('emoji by a guest and bot avatars by a bot', async () => {
    const image = await png({ r: 90, g: 0, b: 90 });
    assert.deepEqual(await refusal(guest.upload('/realm/emoji/guest_parrot', [{ name: 'parrot.png', bytes: image, type: 'image/png' }])), NOT_FOR_GUESTS);
    const bot = await botOf(server, member, 'painter');
    assert.deepEqual(
      await refusal(bot.client.upload('/bots', [{ name: 'face.png', bytes: image, type: 'image/png' }], { full_name: 'Painted', short_name: 'painted' })),
      NOT_FOR_BOTS,
    );
    assert.deepEqual(incoming(), []);
  });
});

describe('channel folders, bot types and group creation', () => {
  let server: TestServer;
  let member: Person;
  let guest: Person;
  before(async () => {
    server = await TestServer.start();
    ({ member, guest } = await memberAndGuest(server));
  });
  after(() => server?.close());

  test('channel folders are for administrators, a guest included', async () => {
    const folder = ok(await server.owner.post('/channel_folders/create', { name: 'Teams', description: '' }), 'folder').channel_folder_id;
    assert.deepEqual(await refusal(guest.post('/channel_folders/create', { name: 'Mine', description: '' })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(guest.patch(`/channel_folders/${folder}`, { is_archived: true })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(guest.patch('/channel_folders', { order: JSON.stringify([folder]) })), ADMIN_REQUIRED);
    assert.deepEqual(await refusal(member.patch(`/channel_folders/${folder}`, { description: 'x'.repeat(10_000) })), ADMIN_REQUIRED);
  });

  test('can_create_write_only_bots_group lets one create incoming-webhook bots only (check_can_create_bot)', async () => {
    const admins = JSON.stringify({ new: server.groupId('role:administrators') });
    const members = JSON.stringify({ new: server.groupId('role:members') });
    ok(await server.owner.patch('/realm', { can_create_bots_group: admins, can_create_write_only_bots_group: members }), 'settings');
    assert.deepEqual(await refusal(member.post('/bots', { full_name: 'Full Bot', short_name: 'fullbot' })), INSUFFICIENT);
    ok(await member.post('/bots', { full_name: 'Hook Bot', short_name: 'hookbot', bot_type: 2 }), 'an incoming webhook');
    ok(await server.owner.patch('/realm', { can_create_write_only_bots_group: admins }), 'admins only');
    assert.deepEqual(await refusal(member.post('/bots', { full_name: 'Hook Two', short_name: 'hooktwo', bot_type: 2 })), INSUFFICIENT);
  });

  test('creating a group without can_create_groups is refused before the request is read', async () => {
    ok(await server.owner.patch('/realm', { can_create_groups: JSON.stringify({ new: server.groupId('role:administrators') }) }), 'admins');
    assert.deepEqual(await refusal(member.post('/user_groups/create', { name: '' })), INSUFFICIENT);
    assert.deepEqual(await refusal(guest.post('/user_groups/create', { name: 'guests' })), NOT_FOR_GUESTS);
  });
});

describe('reminders, navigation views and reports of what one cannot read or does not have', () => {
  test("Zulip 11's access_message, get_navigation_view and access_reminder refusals", async () => {
    const server = await TestServer.start();
    try {
      const member = await server.createUser('Mel Member');
      ok(await server.owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true }), 'hidden');
      const hidden = (ok(await server.owner.get('/streams'), 'streams').streams as any[]).find((s) => s.name === 'hidden').stream_id;
      const secret = ok(await server.owner.post('/messages', { type: 'stream', to: hidden, topic: 't', content: 'secret' }), 'send').id;
      const later = Math.floor(Date.now() / 1000) + 3600;
      const invalidMessage = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
      assert.deepEqual(await refusal(member.post('/reminders', { message_id: secret, scheduled_delivery_timestamp: later })), invalidMessage);
      assert.deepEqual(await refusal(member.delete('/reminders/999999')), { status: 404, code: 'BAD_REQUEST', msg: 'Reminder does not exist' });
      const missingView = { status: 404, code: 'BAD_REQUEST', msg: 'Navigation view does not exist.' };
      assert.deepEqual(await refusal(member.patch('/navigation_views/narrow/channel/999', { is_pinned: false })), missingView);
      assert.deepEqual(await refusal(member.delete('/navigation_views/narrow/channel/999')), missingView);
      ok(await server.owner.patch('/realm', { moderation_request_channel_id: hidden }), 'moderation channel');
      assert.deepEqual(await refusal(member.post(`/messages/${secret}/report`, { report_type: 'spam' })), invalidMessage);
    } finally {
      await server.close();
    }
  });
});
