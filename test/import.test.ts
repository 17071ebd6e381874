import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ImportError } from '../lib/import/read';
import { importExport } from '../lib/import/write';
import type { Client } from './support/client';
import { ok, png } from './support/fixtures';
import { spawnStoa, tempDir, TestServer } from './support/server';
import { UPLOAD_BYTES, UPLOAD_PATH, writeZulipExport, ZULIP_IDS, zulipExportFixture, type ZulipExportFixture } from './support/zulip-export';

type Row = Record<string, any>;

/** Everyone whose view of the organization the round trip compares, by user ID. */
interface Organization {
  people: Map<number, Client>;
  uploadPaths: string[];
  emojiUrls: string[];
  avatarUserId: number;
  /** A bot with entries in its storage (GET /bot_storage). */
  botId: number;
}

/**
 * An organization with one of each kind of thing Stoa keeps and its export carries, made
 * through the API as people would make it.
 */
async function buildOrganization(server: TestServer): Promise<Organization> {
  const owner = server.owner;
  const admin = await server.createUser('Ada Admin');
  const moderator = await server.createUser('Mo Moderator');
  const member = await server.createUser('Mel Member');
  const guest = await server.createUser('Gus Guest');
  const leaver = await server.createUser('Lee Leaver');
  ok(await owner.patch(`/users/${admin.userId}`, { role: 200 }), 'admin');
  ok(await owner.patch(`/users/${moderator.userId}`, { role: 300 }), 'moderator');
  ok(await owner.patch(`/users/${guest.userId}`, { role: 600 }), 'guest');
  const bot = ok(await member.post('/bots', { full_name: 'Helper Bot', short_name: 'helper' }), 'bot');
  ok(await member.post('/bots', { full_name: 'Hook Bot', short_name: 'hook', bot_type: 2 }), 'webhook bot');

  // Personal settings, one hidden address, an avatar, a status.
  ok(await owner.patch('/settings', { twenty_four_hour_time: true, emojiset: 'text', enter_sends: true }), 'settings');
  ok(await member.patch('/settings', { email_address_visibility: 4, starred_message_counts: false }), 'hide email');
  ok(await member.upload('/users/me/avatar', [{ name: 'me.png', bytes: await png({ r: 10, g: 200, b: 10 }, 120), type: 'image/png' }]), 'avatar');
  ok(await member.post('/users/me/status', { status_text: 'On holiday', emoji_name: 'palm_tree' }), 'status');
  ok(await admin.post('/users/me/presence', { status: 'active' }), 'presence');
  ok(await member.post('/users/me/alert_words', { alert_words: ['deploy'] }), 'alert words');

  // Organization settings of each kind: plain, channel, group and edit-history policy.
  const adminsGroup = server.groupId('role:administrators');
  ok(
    await owner.patch('/realm', {
      description: 'A place **to talk**',
      waiting_period_threshold: 3,
      message_content_edit_limit_seconds: 1200,
      message_edit_history_visibility_policy: 'moves',
      can_create_public_channel_group: JSON.stringify({ new: adminsGroup }),
    }),
    'realm settings',
  );

  // Channels: public and default, private with its history hidden, archived.
  const everyone = [owner, admin, moderator, member, guest, leaver].map((c) => c.credentials!.email);
  ok(await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'general', description: 'Everything **else**' }], principals: everyone }), 'general');
  ok(
    await owner.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'secret', description: 'Quiet' }],
      principals: [owner.credentials!.email, member.credentials!.email],
      invite_only: true,
      history_public_to_subscribers: false,
    }),
    'secret',
  );
  ok(await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'old' }] }), 'old');
  const streams = ok(await owner.get('/streams'), 'streams').streams as Row[];
  const general = streams.find((s) => s.name === 'general')!.stream_id;
  const secret = streams.find((s) => s.name === 'secret')!.stream_id;
  const old = streams.find((s) => s.name === 'old')!.stream_id;
  ok(await owner.post('/default_streams', { stream_id: general }), 'default channel');
  ok(await owner.patch('/realm', { new_stream_announcements_stream_id: general }), 'announcements');
  ok(
    await member.post('/users/me/subscriptions/properties', {
      subscription_data: [
        { stream_id: general, property: 'color', value: '#abcdef' },
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: general, property: 'desktop_notifications', value: false },
        { stream_id: secret, property: 'is_muted', value: true },
      ],
    }),
    'subscription settings',
  );

  // Groups: one with members and a subgroup, one managed by an anonymous group.
  const reviewers = ok(await owner.post('/user_groups/create', { name: 'reviewers', description: 'People who review', members: [member.userId, moderator.userId] }), 'group');
  const leads = ok(
    await owner.post('/user_groups/create', {
      name: 'leads',
      description: 'Leads',
      members: [admin.userId],
      subgroups: [reviewers.group_id],
      can_manage_group: JSON.stringify({ direct_members: [moderator.userId], direct_subgroups: [] }),
    }),
    'group with subgroup',
  );
  assert.ok(leads.group_id);

  // Custom emoji and profile fields.
  ok(await owner.upload('/realm/emoji/party_parrot', [{ name: 'parrot.png', bytes: await png({ r: 250, g: 10, b: 10 }), type: 'image/png' }]), 'emoji');
  ok(await owner.upload('/realm/emoji/retired', [{ name: 'retired.png', bytes: await png({ r: 1, g: 2, b: 250 }), type: 'image/png' }]), 'emoji 2');
  ok(await owner.delete('/realm/emoji/retired'), 'deactivate emoji');
  const text = ok(await owner.post('/realm/profile_fields', { name: 'Team', hint: 'Where you work', field_type: 1, use_for_user_matching: true }), 'text field').id;
  const mentor = ok(await owner.post('/realm/profile_fields', { name: 'Mentor', field_type: 6 }), 'user field').id;
  const shirt = ok(
    await owner.post('/realm/profile_fields', {
      name: 'Shirt',
      field_type: 3,
      field_data: JSON.stringify({ s: { text: 'Small', order: '1' }, l: { text: 'Large', order: '2' } }),
    }),
    'choice field',
  );
  ok(
    await member.patch('/users/me/profile_data', {
      data: [
        { id: text, value: 'Platform **team**' },
        { id: mentor, value: [server.ownerId] },
        { id: shirt.id, value: 'l' },
      ],
    }),
    'profile data',
  );

  ok(
    await owner.post('/realm/filters', {
      pattern: '#(?P<id>[0-9]+)',
      url_template: 'https://tracker.example.com/{id}',
      example_input: '#123',
      reverse_template: '#{id}',
      alternative_url_templates: JSON.stringify(['https://old.example.com/issue/{id}']),
    }),
    'linkifier',
  );
  ok(await owner.post('/realm/playgrounds', { name: 'Python online', pygments_language: 'python', url_template: 'https://python.example.com?code={code}' }), 'playground');

  // Messages of every kind, with edits, moves, uploads, reactions and flags.
  const send = async (client: Client, params: Row) => ok(await client.post('/messages', params), 'send').id as number;
  const hello = await send(owner, { type: 'stream', to: general, topic: 'greetings', content: 'Hello @**Mel Member** and @*reviewers*, see #123' });
  const edited = await send(member, { type: 'stream', to: general, topic: 'greetings', content: 'first draft' });
  ok(await member.patch(`/messages/${edited}`, { content: 'second draft, time to deploy' }), 'edit');
  const moved = await send(admin, { type: 'stream', to: general, topic: 'misfiled', content: 'this belongs elsewhere' });
  ok(await admin.patch(`/messages/${moved}`, { topic: 'filed', propagate_mode: 'change_all' }), 'move');
  ok(await admin.patch(`/messages/${moved}`, { topic: '✔ filed', propagate_mode: 'change_all' }), 'resolve');
  await send(moderator, { type: 'stream', to: general, topic: 'greetings', content: '/me waves' });
  await send(owner, { type: 'stream', to: general, topic: 'greetings', content: '@**all** the party is on :party_parrot:' });
  await send(owner, { type: 'stream', to: secret, topic: 'plans', content: 'quiet plans' });
  await send(owner, { type: 'stream', to: old, topic: 'history', content: 'from before' });
  const uploaded = ok(await member.upload('/user_uploads', [{ name: 'notes.txt', bytes: 'some notes', type: 'text/plain' }]), 'upload').url as string;
  const picture = ok(await member.upload('/user_uploads', [{ name: 'dot.png', bytes: await png({ r: 5, g: 5, b: 5 }, 30), type: 'image/png' }]), 'image').url as string;
  const withFiles = await send(member, { type: 'stream', to: general, topic: 'files', content: `[notes.txt](${uploaded}) and [dot.png](${picture})` });
  await send(member, { type: 'direct', to: [owner.credentials!.email], content: 'a word in private' });
  await send(owner, { type: 'direct', to: [member.credentials!.email], content: 'a word back' });
  await send(member, { type: 'direct', to: [owner.credentials!.email, admin.credentials!.email], content: 'the three of us' });
  await send(admin, { type: 'direct', to: [admin.credentials!.email], content: 'note to self' });
  await send(guest, { type: 'direct', to: [member.credentials!.email], content: 'from the guest' });

  ok(await owner.post('/messages/flags', { messages: [hello, withFiles], op: 'add', flag: 'starred' }), 'star');
  ok(await member.post('/messages/flags', { messages: [hello], op: 'add', flag: 'read' }), 'read');
  ok(await member.post(`/messages/${hello}/reactions`, { emoji_name: 'party_parrot' }), 'custom reaction');
  ok(await admin.post(`/messages/${hello}/reactions`, { emoji_name: 'thumbs_up' }), 'unicode reaction');
  ok(await guest.post(`/messages/${hello}/reactions`, { emoji_name: 'zulip' }), 'zulip reaction');

  ok(await member.post(`/users/me/muted_users/${guest.userId}`), 'mute user');
  ok(await member.post('/user_topics', { stream_id: general, topic: 'files', visibility_policy: 1 }), 'mute topic');
  ok(await admin.post('/user_topics', { stream_id: general, topic: 'greetings', visibility_policy: 3 }), 'follow topic');

  // What Zulip 10.2 keeps in tables of its own (zerver_scheduledmessage, zerver_savedsnippet,
  // zerver_service, zerver_realmuserdefault): scheduled messages, a saved snippet, the
  // organization's defaults for new users (one of them newer than Zulip 10, kept in stoa.json),
  // an outgoing webhook (below). And what Zulip's format has no place for, which Stoa's export
  // carries in stoa.json: drafts, a poll's votes, a channel's topics policy and newer permissions.
  ok(await member.post('/drafts', { drafts: JSON.stringify([{ type: 'stream', to: [general], topic: 'later', content: 'half a thought', timestamp: 1_700_000_000 }]) }), 'draft');
  ok(await member.post('/scheduled_messages', { type: 'stream', to: general, topic: 'later', content: 'see you tomorrow', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400 }), 'scheduled');
  ok(await member.post('/scheduled_messages', { type: 'direct', to: JSON.stringify([admin.userId]), content: 'a word for later', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 90_000 }), 'scheduled direct');
  ok(await member.post('/saved_snippets', { title: 'Greeting', content: 'Hello there!' }), 'snippet');
  ok(await owner.patch('/realm/user_settings_defaults', { twenty_four_hour_time: true, resolved_topic_notice_auto_read_policy: 'never' }), 'defaults');
  const poll = await send(owner, { type: 'stream', to: general, topic: 'lunch', content: '/poll Lunch?\nPizza\nSalad' });
  ok(await member.post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }), 'vote');
  ok(await owner.patch(`/streams/${secret}`, { topics_policy: 'disable_empty_topic', can_delete_own_message_group: JSON.stringify({ new: server.groupId('role:members') }) }), 'channel policy');
  ok(await owner.post('/bots', { full_name: 'Hook Out', short_name: 'hookout', bot_type: 3, payload_url: JSON.stringify('https://bots.example.com/hook') }), 'outgoing bot');

  // What Zulip 11 and 12 added that lives in the database: a reminder with its note, a
  // navigation view, an onboarding step seen, an allowed email domain, a default channel
  // group, a bot's storage (the linkifier's reverse fields and the profile field's matching
  // are above).
  ok(await member.post('/reminders', { message_id: hello, scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400, note: 'reply to this' }), 'reminder');
  ok(await member.post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true }), 'navigation view');
  ok(await member.post('/navigation_views', { fragment: 'narrow/channel/general', is_pinned: false, name: 'General chat' }), 'custom view');
  ok(await member.post('/users/me/onboarding_steps', { onboarding_step: 'intro_inbox_view_modal' }), 'onboarding step');
  ok(await owner.post('/realm/domains', { domain: 'example.org', allow_subdomains: true }), 'realm domain');
  ok(await owner.post('/default_stream_groups/create', { group_name: 'starters', description: 'For new people', stream_names: JSON.stringify(['secret']) }), 'default channel group');
  const botRow = server.stoa.users.byId(bot.user_id)!;
  const botClient = server.anonymous.as({ email: botRow.delivery_email, apiKey: botRow.api_key });
  ok(await botClient.request('PUT', '/bot_storage', { storage: JSON.stringify({ zeta: 'last', alpha: '1' }) }), 'bot storage');

  // Last, so that nothing above is refused for it: an archived channel and a deactivated user.
  ok(await owner.delete(`/streams/${old}`), 'archive');
  ok(await owner.delete(`/users/${leaver.userId}`), 'deactivate');
  // Zulip 10.2 keeps this as mandatory_topics: it must come back.
  ok(await owner.patch('/realm', { topics_policy: 'disable_empty_topic' }), 'topics policy');

  const emoji = Object.values(ok(await owner.get('/realm/emoji'), 'emoji').emoji as Record<string, Row>);
  const people = new Map<number, Client>([
    [server.ownerId, owner],
    [admin.userId, admin],
    [moderator.userId, moderator],
    [member.userId, member],
    [guest.userId, guest],
  ]);
  assert.ok(bot.user_id);
  return {
    people,
    uploadPaths: [uploaded, picture],
    emojiUrls: emoji.map((e) => e.source_url as string),
    avatarUserId: member.userId,
    botId: bot.user_id,
  };
}

/** Every capability a current client declares, so that register leaves nothing out. */
const REGISTER_PARAMS = {
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
    user_list_incomplete: true,
    include_deactivated_groups: true,
    archived_channels: true,
    empty_topic_name: true,
  }),
};

/**
 * What register answers that differs between two servers by nature, not by data: each names
 * the reason it is left out of the comparison.
 */
const INHERENT_REGISTER_KEYS: Record<string, string> = {
  queue_id: 'each server makes its own event queues',
  last_event_id: 'each server makes its own event queues',
  server_timestamp: 'the time of the request',
  presences: 'compared apart below: whether someone is idle depends on the moment asked',
  presence_last_update_id: 'compared apart below, with presences',
  realm_url: 'the address each server is reached at',
  realm_uri: 'the address each server is reached at',
  server_emoji_data_url: 'the address each server is reached at',
  realm_icon_url: "made from the server's address while no icon is uploaded",
};

/**
 * Fields that an export does not carry: a bot's API key and an outgoing webhook's token
 * (exports carry no credentials; Zulip's importer makes them anew too).
 */
function withoutUncarried(state: Row): Row {
  const copy = structuredClone(state);
  for (const bot of copy.realm_bots ?? []) {
    delete bot.api_key;
    for (const service of bot.services ?? []) delete service.token;
  }
  return copy;
}

/**
 * Stoa files a one-to-one conversation (or a note to oneself) under one recipient for both
 * directions; Zulip 10.2's format (so the export) addresses each message to its receiver's
 * personal recipient, and the import makes the conversation anew: its recipient_id is the one
 * number that may differ.
 */
function withoutOneToOneRecipientIds(messages: Row[]): Row[] {
  return messages.map((m) => (m.type === 'private' && m.display_recipient.length <= 2 ? { ...m, recipient_id: undefined } : m));
}

/** A client for a user of an imported organization, by the API key the import gave them. */
function clientOf(server: TestServer, userId: number): Client {
  const user = server.stoa.users.byId(userId)!;
  return server.anonymous.as({ email: user.delivery_email, apiKey: user.api_key });
}

describe('stoa import', () => {
  let first: TestServer;
  let second: TestServer;
  let organization: Organization;
  let tarball: string;
  let importOutput: string;
  const work = tempDir('stoa-import-');

  before(async () => {
    first = await TestServer.start();
    organization = await buildOrganization(first);
    tarball = path.join(work, 'export.tar.gz');
    const exported = spawnStoa(['export', '--data', first.data, '--output', tarball]);
    assert.equal(await exported.exited, 0, exported.output());
    const into = path.join(work, 'imported');
    const imported = spawnStoa(['import', tarball, '--data', into]);
    assert.equal(await imported.exited, 0, imported.output());
    importOutput = imported.output();
    second = await TestServer.start({ data: into });
  });
  after(async () => {
    await first?.close();
    await second?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A client of the second server for a user of the first, by their new API key. */
  const onSecond = (userId: number): Client => clientOf(second, userId);

  test('the command says what it imported, and the owner logs in with the password it prints', async () => {
    assert.match(importOutput, /Imported ".+" into .+: 9 users, 3 channels, \d+ messages and 2 uploaded files\./);
    const password = /The owner owner@example\.com logs in with the password (\S+) \(shown this once\)\./.exec(importOutput)?.[1];
    assert.ok(password, importOutput);
    const login = ok(await second.anonymous.post('/fetch_api_key', { username: 'owner@example.com', password }), 'login');
    assert.equal(login.user_id, first.ownerId);
    // Special permissions that no API shows come across too.
    const owner = second.stoa.users.byId(first.ownerId)!;
    assert.deepEqual([owner.can_create_users, owner.can_change_user_emails], [1, 1]);
    const other = await second.anonymous.post('/fetch_api_key', { username: 'user1@example.com', password: 'secret-password' });
    assert.equal(other.status, 401, 'passwords do not travel in exports');
  });

  test('every message reads the same for everyone, flag by flag', async () => {
    for (const [userId, client] of organization.people) {
      for (const apply_markdown of [true, false]) {
        const params = { anchor: 'oldest', num_before: 0, num_after: 1000, apply_markdown };
        const before = ok(await client.get('/messages', params), 'messages before').messages as Row[];
        const after = ok(await onSecond(userId).get('/messages', params), 'messages after').messages as Row[];
        assert.ok(before.length > 0);
        assert.deepEqual(withoutOneToOneRecipientIds(after), withoutOneToOneRecipientIds(before), `user ${userId}'s messages, apply_markdown ${apply_markdown}`);
        for (const message of before.filter((m) => m.edit_history || m.last_edit_timestamp || m.last_moved_timestamp)) {
          const history = (await client.get(`/messages/${message.id}/history`)).body;
          assert.deepEqual((await onSecond(userId).get(`/messages/${message.id}/history`)).body, history, `history of ${message.id}`);
        }
      }
      // Narrows that rest on what the import rebuilt: conversations, topics, search.
      for (const narrow of [[{ operator: 'is', operand: 'dm' }], [{ operator: 'search', operand: 'draft' }], [{ operator: 'is', operand: 'starred' }]]) {
        const params = { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify(narrow) };
        const before = ok(await client.get('/messages', params), 'narrow before').messages as Row[];
        const after = ok(await onSecond(userId).get('/messages', params), 'narrow after').messages as Row[];
        assert.deepEqual(after.map((m) => m.id), before.map((m) => m.id), `user ${userId}'s ${JSON.stringify(narrow)}`);
      }
    }
  });

  test('register answers the same state for everyone', async () => {
    for (const [userId, client] of organization.people) {
      const before = ok(await client.post('/register', REGISTER_PARAMS), 'register before');
      const after = ok(await onSecond(userId).post('/register', REGISTER_PARAMS), 'register after');
      for (const key of Object.keys(INHERENT_REGISTER_KEYS)) {
        delete before[key];
        delete after[key];
      }
      const [was, is] = [withoutUncarried(before), withoutUncarried(after)];
      const differing = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((key) => !isDeepStrictEqual(was[key], is[key]));
      assert.deepEqual(
        differing.map((key) => ({ key, before: was[key], after: is[key] })),
        [],
        `user ${userId}'s state differs in ${differing.join(', ')}`,
      );
    }
  });

  test("a bot's storage comes across, in its order", async () => {
    const before = ok(await clientOf(first, organization.botId).get('/bot_storage'), 'storage before');
    const after = ok(await onSecond(organization.botId).get('/bot_storage'), 'storage after');
    assert.deepEqual(Object.entries(after.storage), Object.entries(before.storage));
    assert.deepEqual(Object.keys(before.storage), ['zeta', 'alpha']);
  });

  test('presence comes across as it was', async () => {
    const before = ok(await first.owner.get('/realm/presence'), 'presence before');
    const after = ok(await onSecond(first.ownerId).get('/realm/presence'), 'presence after');
    assert.deepEqual(Object.keys(after.presences).sort(), Object.keys(before.presences).sort());
    for (const [userId, presence] of Object.entries(before.presences as Record<string, Row>)) {
      assert.equal(after.presences[userId].active_timestamp, presence.active_timestamp, `user ${userId}`);
      assert.equal(after.presences[userId].idle_timestamp, presence.idle_timestamp, `user ${userId}`);
    }
  });

  test('uploads, emoji and avatars are served again, the files byte for byte', async () => {
    const owner = onSecond(first.ownerId);
    for (const url of [...organization.uploadPaths, ...organization.emojiUrls]) {
      const before = await first.owner.download(url);
      const after = await owner.download(url);
      assert.equal(before.status, 200, url);
      assert.equal(after.status, 200, url);
      assert.ok(after.bytes.equals(before.bytes), `${url} has the same bytes`);
    }
    const member = (ok(await owner.get(`/users/${organization.avatarUserId}`), 'user').user as Row).avatar_url as string;
    const avatar = await owner.download(member);
    assert.equal(avatar.status, 200);
    assert.equal((await sharp(avatar.bytes).metadata()).format, 'png');
  });

  test('new things take IDs above every imported one', async () => {
    const owner = onSecond(first.ownerId);
    const maxMessage = (second.stoa.db.prepare('SELECT max(id) AS id FROM messages').get() as { id: number }).id;
    const sent = ok(await owner.post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'after the move' }), 'send').id;
    assert.ok(sent > maxMessage);
    const created = ok(await owner.post('/user_groups/create', { name: 'newcomers', description: 'New', members: [first.ownerId] }), 'group').group_id;
    assert.ok(created > Math.max(...(ok(await first.owner.get('/user_groups'), 'groups').user_groups as Row[]).map((g) => g.id)));
    ok(await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'fresh' }] }), 'channel');
    const fresh = (ok(await owner.get('/streams'), 'streams').streams as Row[]).find((s) => s.name === 'fresh')!;
    assert.ok(fresh.stream_id > Math.max(...(ok(await first.owner.get('/streams', { include_all: true }), 'streams').streams as Row[]).map((s) => s.stream_id)));
  });

  test('refuses a data folder that already holds something, and changes nothing in it', async () => {
    const child = spawnStoa(['import', tarball, '--data', second.data]);
    assert.equal(await child.exited, 1, child.output());
    assert.match(child.output(), /^stoa: import failed, nothing was written: .* is not empty/m);
    const occupied = path.join(work, 'occupied');
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, 'notes.txt'), 'mine');
    await assert.rejects(importExport(tarball, occupied), (err: Error) => err instanceof ImportError && /is not empty/.test(err.message));
    assert.deepEqual(readdirSync(occupied), ['notes.txt']);
  });

  test('refuses bad arguments with one line and exit code 2', async () => {
    for (const args of [['import'], ['import', 'a.tar.gz', 'b.tar.gz'], ['import', tarball, '--nope'], ['import', tarball, '--data', ':memory:']]) {
      const child = spawnStoa(args);
      assert.equal(await child.exited, 2, child.output());
      assert.match(child.output().trim(), /^stoa: [^\n]+$/);
    }
  });

  test("exports keep people's drafts, scheduled messages, reminders, snippets and views to what they consented to", async () => {
    const tar = await import('tar');
    const exported = async (type: string) => {
      const file = path.join(work, `${type}.tar.gz`);
      const child = spawnStoa(['export', '--data', first.data, '--output', file, '--type', type]);
      assert.equal(await child.exited, 0, child.output());
      const into = path.join(work, `${type}-unpacked`);
      mkdirSync(into);
      await tar.x({ file, cwd: into });
      const read = (name: string) => JSON.parse(readFileSync(path.join(into, readdirSync(into)[0], name), 'utf8'));
      return { realm: read('realm.json'), stoa: read('stoa.json') };
    };
    const full = await exported('full');
    // The reminder stays in stoa.json: Zulip 10.2's scheduled messages cannot hold one.
    const stoaCounts = { drafts: 1, scheduled_messages: 1, navigation_views: 2, onboarding_steps_seen: 1 };
    for (const [table, count] of Object.entries(stoaCounts)) assert.equal(full.stoa.tables[table].length, count, `a full export has the ${table}`);
    const zulipCounts = { zerver_scheduledmessage: 2, zerver_savedsnippet: 1 };
    for (const [table, count] of Object.entries(zulipCounts)) assert.equal(full.realm[table].length, count, `a full export has the ${table}`);
    // Nobody in this organization turned on allow_private_data_export.
    const consent = await exported('consent');
    for (const table of Object.keys(stoaCounts)) assert.deepEqual(consent.stoa.tables[table], [], `a consent export has no ${table}`);
    for (const table of Object.keys(zulipCounts)) assert.deepEqual(consent.realm[table], [], `a consent export has no ${table}`);
    assert.equal(consent.stoa.tables.default_stream_groups.length, 1, 'organization data is not private');
    assert.equal(consent.realm.zerver_realmuserdefault[0].twenty_four_hour_time, true, 'organization settings are not private');
    assert.deepEqual(consent.stoa.realm_user_settings_defaults, { resolved_topic_notice_auto_read_policy: 'never' }, 'nor those Zulip 10.2 has no field for');
  });

  test('reads an unpacked export folder as well as its tarball', async () => {
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    const tar = await import('tar');
    await tar.x({ file: tarball, cwd: unpacked });
    const into = path.join(work, 'from-folder');
    const result = await importExport(unpacked, into);
    assert.equal(result.messages, (first.stoa.db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n);
    assert.ok(existsSync(path.join(into, 'stoa.db')));
  });
});

describe('stoa import of an export made by Zulip', () => {
  let server: TestServer;
  let output: string;
  let passwords: string;
  const work = tempDir('stoa-import-zulip-');
  const ids = ZULIP_IDS;

  before(async () => {
    const folder = writeZulipExport(await zulipExportFixture(), path.join(work, 'export'));
    const tarball = path.join(work, 'zulip-export-1a2b3c4d.tar.gz');
    const tar = await import('tar');
    await tar.c({ gzip: true, file: tarball, cwd: path.dirname(folder) }, [path.basename(folder)]);
    const into = path.join(work, 'data');
    passwords = path.join(work, 'passwords.csv');
    const child = spawnStoa(['import', tarball, '--data-dir', into, '--passwords', passwords]);
    assert.equal(await child.exited, 0, child.output());
    output = child.output();
    server = await TestServer.start({ data: into });
  });
  after(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const as = (userId: number): Client => clientOf(server, userId);

  test('the command names what Stoa does not import, and everyone logs in with the passwords it wrote', async () => {
    assert.match(output, /Imported "Acme" into .+: 6 users, 2 channels, 7 messages and 1 uploaded files\./);
    assert.doesNotMatch(output, /zerver_scheduledmessage|zerver_botstoragedata/, 'reminders and bot storage are imported');
    assert.match(output, /Everyone's new password is in .+passwords\.csv \(3 people\)/);
    assert.equal(statSync(passwords).mode & 0o777, 0o600);
    const [header, ...lines] = readFileSync(passwords, 'utf8').trim().split('\n');
    assert.equal(header, 'email,password');
    const byEmail = new Map(lines.map((line) => line.split(',') as [string, string]));
    assert.deepEqual([...byEmail.keys()].sort(), ['alice@acme.example', 'bob@acme.example', 'carol@acme.example']);
    const login = ok(await server.anonymous.post('/fetch_api_key', { username: 'bob@acme.example', password: byEmail.get('bob@acme.example') }), 'login');
    assert.equal(login.user_id, ids.bob);
  });

  test('people, bots and the server\'s own bots come across with their roles and settings', async () => {
    const alice = server.owner;
    const { members } = ok(await alice.get('/users', { include_custom_profile_fields: true }), 'users');
    const byId = new Map<number, any>((members as Row[]).map((u) => [u.user_id, u]));
    assert.equal(byId.get(ids.alice).role, 100);
    assert.equal(byId.get(ids.bob).delivery_email, 'bob@acme.example');
    assert.equal(byId.get(ids.bob).email, `user${ids.bob}@stoa.local`, 'an address hidden from members gets Stoa\'s stand-in');
    assert.equal(byId.get(ids.bob).profile_data[ids.field].value, 'Frontend');
    assert.equal(byId.get(ids.carol).role, 600);
    assert.equal(byId.get(ids.dave).is_active, false);
    assert.equal(byId.get(ids.eve).is_active, false, 'a mirror dummy comes in deactivated');
    assert.equal(byId.get(ids.robot).bot_owner_id, ids.bob);
    assert.equal(byId.get(ids.bob).timezone, 'Europe/Paris');
    const state = ok(await as(ids.bob).post('/register', REGISTER_PARAMS), 'register');
    assert.deepEqual((state.cross_realm_bots as Row[]).map((b) => b.email).sort(), ['notification-bot@stoa.local', 'welcome-bot@stoa.local']);
    assert.equal(state.user_settings.emojiset, 'text');
    assert.equal(state.realm_name, 'Acme');
    assert.equal(state.realm_description.includes('Where Acme talks'), true);
    assert.equal(state.realm_waiting_period_threshold, 5);
    assert.equal(state.realm_message_edit_history_visibility_policy, 'moves');
    assert.equal(state.realm_topics_policy, 'disable_empty_topic', "Zulip 10.2's mandatory_topics");
    assert.equal(state.realm_new_stream_announcements_stream_id, ids.general);
    assert.equal(state.realm_can_create_public_channel_group, ids.groups['role:administrators']);
    assert.equal(state.realm_user_settings_defaults.emojiset, 'google-blob');
    assert.equal(state.realm_user_settings_defaults.enter_sends, true);
    assert.equal(state.realm_user_settings_defaults.twenty_four_hour_time, true);
    assert.deepEqual(
      (state.saved_snippets as Row[]).map((snippet) => [snippet.id, snippet.title, snippet.content, snippet.date_created]),
      [[7, 'Standup', 'Yesterday:\nToday:', 1_700_000_900]],
    );
    const frontend = (state.realm_user_groups as Row[]).find((g) => g.name === 'frontend')!;
    assert.deepEqual(frontend.members, [ids.bob]);
    assert.deepEqual(frontend.can_manage_group, { direct_members: [ids.alice], direct_subgroups: [] });
    const general = (state.subscriptions as Row[]).find((s) => s.stream_id === ids.general)!;
    assert.deepEqual([general.color, general.pin_to_top, general.push_notifications], ['#e79ab5', true, false]);
    assert.equal((state.subscriptions as Row[]).find((s) => s.stream_id === ids.engineering)!.is_muted, true);
    assert.deepEqual(state.default_streams ?? state.realm_default_streams, [ids.general]);
    assert.deepEqual(state.muted_users.map((m: Row) => m.id), [ids.carol]);
    assert.deepEqual(state.user_topics.map((t: Row) => [t.stream_id, t.topic_name, t.visibility_policy]), [[ids.general, 'welcome', 3]]);
    assert.deepEqual(state.alert_words, ['Deploy']);
    assert.equal(state.user_status[ids.bob].status_text, 'Building');
    assert.deepEqual(
      state.realm_linkifiers.map((l: Row) => [l.pattern, l.example_input, l.reverse_template, l.alternative_url_templates]),
      [['ACME-(?P<id>[0-9]+)', 'ACME-12', 'ACME-{id}', ['https://old-tracker.acme.example/{id}']]],
    );
    assert.deepEqual(
      (state.reminders as Row[]).map((r) => [r.reminder_id, r.reminder_target_message_id, r.to, r.scheduled_delivery_timestamp]),
      [[2, 1006, [ids.bob], 4_000_000_000]],
    );
    assert.deepEqual(state.realm_domains, [{ domain: 'acme.example', allow_subdomains: false }]);
    const storage = await as(ids.robot).get('/bot_storage', { keys: JSON.stringify(['counter']) });
    assert.deepEqual(storage.body.storage, { counter: '3' });
    assert.deepEqual(state.realm_playgrounds.map((p: Row) => p.pygments_language), ['rust']);
    assert.deepEqual(
      (state.scheduled_messages as Row[]).map((m) => [m.scheduled_message_id, m.type, m.to, m.topic, m.content, m.scheduled_delivery_timestamp]),
      [[1, 'stream', ids.general, 'later', 'a message for later', 4_000_000_000]],
    );
    const robot = (state.realm_bots as Row[]).find((b) => b.user_id === ids.robot)!;
    assert.equal(robot.services[0].base_url, 'https://robot.acme.example/hook');
    assert.notEqual(robot.services[0].token, 'tokenfromzulip', 'a token is made anew');
    // Too old for GET /realm/presence, which leaves out anyone away for weeks: read where it is kept.
    const presence = server.stoa.db.prepare('SELECT * FROM user_presence WHERE user_id = ?').get(ids.alice) as Row;
    assert.deepEqual([presence.last_active_ms, presence.last_connected_ms, presence.last_update_id], [Math.round((1_700_000_000.123456 + 500.5) * 1000), Math.round((1_700_000_000.123456 + 600.25) * 1000), 7]);
  });

  test('one-to-one messages both ways become one conversation; flags, edits and reactions are kept', async () => {
    const bob = as(ids.bob);
    const messages = ok(await bob.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100 }), 'messages').messages as Row[];
    const byId = new Map<number, any>(messages.map((m) => [m.id, m]));
    assert.deepEqual([...byId.keys()], [1000, 1001, 1002, 1003, 1004, 1005, 1006]);
    assert.equal(byId.get(1001).recipient_id, byId.get(1002).recipient_id, 'both directions share the conversation');
    assert.deepEqual(byId.get(1001).display_recipient.map((r: Row) => r.id), [ids.alice, ids.bob]);
    assert.deepEqual(byId.get(1003).display_recipient.map((r: Row) => r.id), [ids.alice, ids.bob, ids.carol]);
    assert.deepEqual(byId.get(1006).display_recipient.map((r: Row) => r.id), [ids.bob]);
    assert.equal(byId.get(1004).sender_email, 'welcome-bot@stoa.local');
    assert.equal(byId.get(1001).client, 'ZulipMobile');
    assert.deepEqual(byId.get(1000).flags.sort(), ['mentioned', 'read', 'starred'], 'group_mentioned, which Stoa does not keep, is dropped');
    assert.deepEqual(byId.get(1004).flags, []);
    assert.equal(byId.get(1000).subject, 'welcome');
    assert.deepEqual(byId.get(1000).reactions.map((r: Row) => [r.emoji_name, r.reaction_type, r.user_id]), [
      ['acme', 'realm_emoji', ids.bob],
      ['thumbs_up', 'unicode_emoji', ids.carol],
    ]);
    const edited = byId.get(1005);
    assert.equal(edited.subject, 'design');
    assert.equal(edited.last_edit_timestamp, Math.floor(1_700_000_000.123456 + 1500));
    assert.equal(edited.last_moved_timestamp, Math.floor(1_700_000_000.123456 + 2000));
    const history = ok(await bob.get('/messages/1005/history'), 'history').message_history as Row[];
    assert.deepEqual(history.map((h) => h.topic), ['draft', 'draft', 'design']);
    assert.equal(history[0].content, 'The plan, see the spec');
    const dms = ok(await as(ids.alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: [ids.bob] }]) }), 'dm narrow');
    assert.deepEqual(dms.messages.map((m: Row) => m.id), [1001, 1002]);
    const unread = ok(await as(ids.alice).post('/register', REGISTER_PARAMS), 'unread').unread_msgs;
    assert.deepEqual(unread.pms.map((p: Row) => [p.other_user_id, p.unread_message_ids]), [[ids.bob, [1001]]]);
  });

  test('uploads, custom emoji and avatars are served from the new data folder', async () => {
    const bob = as(ids.bob);
    const file = await bob.download(`/user_uploads/${UPLOAD_PATH}`);
    assert.equal(file.status, 200);
    assert.ok(file.bytes.equals(UPLOAD_BYTES));
    const emoji = Object.values(ok(await bob.get('/realm/emoji'), 'emoji').emoji as Record<string, Row>).find((e) => e.name === 'acme')!;
    const image = await bob.download(emoji.source_url);
    assert.equal(image.status, 200);
    assert.equal((await sharp(image.bytes).metadata()).width, 64);
    const me = ok(await bob.get('/users/me'), 'me');
    assert.equal(me.avatar_version, 2);
    const avatar = await bob.download(me.avatar_url);
    assert.equal(avatar.status, 200);
    const attachments = ok(await bob.get('/attachments'), 'attachments').attachments as Row[];
    assert.deepEqual(attachments.map((a) => [a.id, a.path_id, a.message_ids]), [[ids.attachment, UPLOAD_PATH, [1005]]]);
  });

  test('new messages and channels continue above the imported IDs', async () => {
    const sent = ok(await server.owner.post('/messages', { type: 'stream', to: 'general', topic: 'new', content: 'hello from Stoa' }), 'send').id;
    assert.ok(sent > 1006);
  });
});

describe('stoa import refuses an export that does not hold together', () => {
  const work = tempDir('stoa-import-bad-');
  after(() => rmSync(work, { recursive: true, force: true }));

  /**
   * Imports the fixture after `change` alters it (and `damage` the folder written from it),
   * and checks that the import fails with the expected message and writes nothing.
   */
  async function refused(name: string, expected: RegExp, change: (fixture: ZulipExportFixture) => void, damage?: (folder: string) => void): Promise<void> {
    const fixture = await zulipExportFixture();
    change(fixture);
    const folder = writeZulipExport(fixture, path.join(work, name, 'export'));
    damage?.(folder);
    const into = path.join(work, name, 'data');
    await assert.rejects(importExport(folder, into), (err: Error) => {
      assert.ok(err instanceof ImportError, `${name}: ${err.stack}`);
      assert.match(err.message, expected);
      return true;
    });
    assert.ok(!existsSync(into), `${name}: the data folder the import made is gone again`);
  }
  const unchanged = () => {};

  test('without realm.json', () =>
    refused('no-realm', /holds no realm\.json: it is not a Zulip export/, unchanged, (folder) => rmSync(path.join(folder, 'realm.json'))));
  test('with realm.json that is not JSON', () =>
    refused('bad-json', /realm\.json is not valid JSON/, unchanged, (folder) => writeFileSync(path.join(folder, 'realm.json'), '{"zerver_realm": [')));
  test('with a table that is not a list', () =>
    refused('not-a-list', /realm\.json: zerver_stream must be a list of objects/, (f) => (f.realm.zerver_stream = { general: 1 })));
  test('with a field of the wrong type', () =>
    refused('wrong-type', /zerver_userprofile \(id 10\): role must be an integer, not "owner"/, (f) => (f.realm.zerver_userprofile[0].role = 'owner')));
  test('with a message from a user who is not in it', () =>
    refused('missing-sender', /zerver_message \(id 1003\): sender 999 names no user of the export/, (f) => (f.messageFiles[1].zerver_message[0].sender = 999)));
  test('with flags for a message that is not in it', () =>
    refused('missing-message', /zerver_usermessage \(id 1\): message 4242 names no message of the export/, (f) => (f.messageFiles[0].zerver_usermessage[0].message = 4242)));
  test('with a subscription of a user who is not in it', () =>
    refused('missing-subscriber', /zerver_subscription \(id \d+\): user_profile 77 names no user of the export/, (f) => (f.realm.zerver_subscription.at(-1).user_profile = 77)));
  test('with an upload path that leaves its folder', () =>
    refused('escaping-path', /zerver_attachment \(id 50\): path_id must be a relative path/, (f) => (f.attachment.zerver_attachment[0].path_id = '../../etc/passwd')));
  test('that is not a tarball at all', async () => {
    const file = path.join(work, 'junk.tar.gz');
    writeFileSync(file, 'this is not a tarball');
    const into = path.join(work, 'junk-data');
    mkdirSync(into);
    await assert.rejects(importExport(file, into), /is not a readable tarball/);
    assert.deepEqual(readdirSync(into), [], 'a folder that was there stays, empty');
  });
  test('through the command: exit code 1 and one line saying why', async () => {
    const missing = path.join(work, 'nowhere.tar.gz');
    const child = spawnStoa(['import', missing, '--data', path.join(work, 'cli-data')]);
    assert.equal(await child.exited, 1, child.output());
    assert.match(child.output().trim(), /^stoa: import failed, nothing was written: .*nowhere\.tar\.gz does not exist$/);
  });
});
